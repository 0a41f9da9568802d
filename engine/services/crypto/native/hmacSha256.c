/*
 * HMAC-SHA256 of a JavaScript string (its UTF-8 bytes) under a key, into a caller's 32-byte array: one
 * call, no per-call objects (why: hmacSha256.ts). The SHA-256 is libsecp256k1's (as batchVerify.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <node_api.h>

#include "include/secp256k1.h"
#include "util.h"
#include "hash_impl.h"
#include "cryptoNative.h"

/* Messages up to this many UTF-8 bytes are copied to the stack; longer ones to the heap. */
#define STACK_BYTES 8192

napi_value js_hmac_sha256(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  void *key, *out;
  size_t key_len, out_len, msg_len = 0;
  unsigned char stack[STACK_BYTES];
  unsigned char *msg = stack;
  napi_valuetype t;
  secp256k1_hmac_sha256 h;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3) return throw_type_error(env, "hmacSha256 takes (key, message, out)");
  if (!typed_array_arg(env, argv[0], napi_uint8_array, &key, &key_len) || !typed_array_arg(env, argv[2], napi_uint8_array, &out, &out_len) || out_len != 32)
    return throw_type_error(env, "hmacSha256 takes (Uint8Array key, string message, Uint8Array(32) out)");
  if (napi_typeof(env, argv[1], &t) != napi_ok || t != napi_string) return throw_type_error(env, "hmacSha256: the message must be a string");
  /* One UTF-8 pass when the message fits the stack copy. A longer one is cut there, before the
   * character that does not fit (up to 4 bytes), so a copy within 4 bytes of the end may be cut: such a
   * message is measured and copied again to the heap. */
  if (napi_get_value_string_utf8(env, argv[1], (char *)stack, STACK_BYTES, &msg_len) != napi_ok) return throw_type_error(env, "hmacSha256: unreadable message");
  if (msg_len + 4 >= STACK_BYTES) {
    napi_get_value_string_utf8(env, argv[1], NULL, 0, &msg_len);
    msg = (unsigned char *)malloc(msg_len + 1);
    if (!msg) return throw_type_error(env, "hmacSha256: out of memory");
    napi_get_value_string_utf8(env, argv[1], (char *)msg, msg_len + 1, &msg_len);
  }
  secp256k1_hmac_sha256_initialize(&h, (const unsigned char *)key, key_len);
  secp256k1_hmac_sha256_write(&h, msg, msg_len);
  secp256k1_hmac_sha256_finalize(&h, (unsigned char *)out);
  if (msg != stack) free(msg);
  return NULL;
}

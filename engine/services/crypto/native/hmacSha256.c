/*
 * HMAC-SHA256 of a JavaScript string (its UTF-8 bytes) under a key, into a caller's 32-byte array.
 *
 * Why native: the L2 signature of every authenticated request is one HMAC, and node's createHmac
 * costs ≈ 12 µs to set up (a new OpenSSL context and JS object per call) and ≈ 6 µs to hash a 700-byte
 * order request, measured inside the engine under load; one call here does it with no allocation but
 * the UTF-8 copy of a long message. The SHA-256 is libsecp256k1's (the same sources as batchVerify.c).
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

static napi_value type_error(napi_env env, const char *msg) {
  napi_throw_type_error(env, NULL, msg);
  return NULL;
}

static int uint8_array(napi_env env, napi_value v, unsigned char **data, size_t *length) {
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  if (napi_get_typedarray_info(env, v, &type, length, (void **)data, &buffer, &offset) != napi_ok) return 0;
  return type == napi_uint8_array;
}

napi_value js_hmac_sha256(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  unsigned char *key, *out;
  size_t key_len, out_len, msg_len = 0, written = 0;
  unsigned char stack[STACK_BYTES];
  unsigned char *msg = stack;
  napi_valuetype t;
  secp256k1_hmac_sha256 h;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3) return type_error(env, "hmacSha256 takes (key, message, out)");
  if (!uint8_array(env, argv[0], &key, &key_len) || !uint8_array(env, argv[2], &out, &out_len) || out_len != 32)
    return type_error(env, "hmacSha256 takes (Uint8Array key, string message, Uint8Array(32) out)");
  if (napi_typeof(env, argv[1], &t) != napi_ok || t != napi_string) return type_error(env, "hmacSha256: the message must be a string");
  if (napi_get_value_string_utf8(env, argv[1], NULL, 0, &msg_len) != napi_ok) return type_error(env, "hmacSha256: unreadable message");
  if (msg_len + 1 > STACK_BYTES) {
    msg = (unsigned char *)malloc(msg_len + 1);
    if (!msg) return type_error(env, "hmacSha256: out of memory");
  }
  napi_get_value_string_utf8(env, argv[1], (char *)msg, msg_len + 1, &written);
  secp256k1_hmac_sha256_initialize(&h, key, key_len);
  secp256k1_hmac_sha256_write(&h, msg, written);
  secp256k1_hmac_sha256_finalize(&h, out);
  if (msg != stack) free(msg);
  return NULL;
}

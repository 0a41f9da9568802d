/* The functions of the cryptoNative addon (addon.c registers them). */
#ifndef CRYPTO_NATIVE_H
#define CRYPTO_NATIVE_H
#include <node_api.h>

/* verify(digests, rs, recids, signer, keys, random) → boolean: batchVerify.c */
napi_value js_verify(napi_env env, napi_callback_info info);
/* hmacSha256(key: Uint8Array, message: string, out: Uint8Array(32)) → undefined: hmacSha256.c */
napi_value js_hmac_sha256(napi_env env, napi_callback_info info);

#endif

/* The functions of the cryptoNative addon (addon.c registers them) and their shared helpers. */
#ifndef CRYPTO_NATIVE_H
#define CRYPTO_NATIVE_H
#include <stddef.h>
#include <node_api.h>

/* verify(digests, rs, recids, signer, keys, random) → boolean: batchVerify.c */
napi_value js_verify(napi_env env, napi_callback_info info);
/* hmacSha256(key: Uint8Array, message: string, out: Uint8Array(32)) → undefined: hmacSha256.c */
napi_value js_hmac_sha256(napi_env env, napi_callback_info info);

/* napiArgs.c: 1 when v is a typed array of type `want` (its data and element count out), else 0. */
int typed_array_arg(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length);
/* napiArgs.c: throws a TypeError and returns NULL (the value a failing function returns). */
napi_value throw_type_error(napi_env env, const char *msg);

#endif

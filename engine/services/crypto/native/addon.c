/* The cryptoNative addon: batch signature verification (batchVerify.c) and HMAC-SHA256 (hmacSha256.c). */
#include <node_api.h>
#include "cryptoNative.h"

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "verify", NAPI_AUTO_LENGTH, js_verify, NULL, &fn);
  napi_set_named_property(env, exports, "verify", fn);
  napi_create_function(env, "hmacSha256", NAPI_AUTO_LENGTH, js_hmac_sha256, NULL, &fn);
  napi_set_named_property(env, exports, "hmacSha256", fn);
  return exports;
}

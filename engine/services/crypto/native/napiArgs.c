/* Argument helpers shared by the addon's functions. */
#include <node_api.h>
#include "cryptoNative.h"

int typed_array_arg(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length) {
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  if (napi_get_typedarray_info(env, v, &type, length, data, &buffer, &offset) != napi_ok) return 0;
  return type == want;
}

napi_value throw_type_error(napi_env env, const char *msg) {
  napi_throw_type_error(env, NULL, msg);
  return NULL;
}

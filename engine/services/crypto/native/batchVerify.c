/*
 * Batch verification of recoverable ECDSA signatures against known public keys.
 *
 * Per signature i (digest e, r, s, recid, signer key Q): ecrecover(e, recid, r, s) = Q exactly when
 *   u1·G + u2·Q − R = 0,  u1 = e/s, u2 = r/s,
 * where R is the curve point with x = r (+ n when recid & 2) and y parity recid & 1. With independent
 * random odd 128-bit z_i (127 random bits), all of them hold, except with probability about 2^-127, when
 *   (Σ z_i·u1_i)·G + Σ_Q (Σ_{i signed by Q} z_i·u2_i)·Q + Σ z_i·(−R_i) = 0,
 * one multi-scalar multiplication (libsecp256k1's Strauss / Pippenger) instead of one full
 * multiplication per signature, and the inverses of s by one scalar inversion per batch (Montgomery's
 * trick). A batch that fails says only that some signature is bad: the caller then recovers each one.
 *
 * The C sources are libsecp256k1's, as shipped by the `secp256k1` npm package (binding.gyp).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <node_api.h>

#include "secp256k1.c"
#include "cryptoNative.h"

/* The precomputed multiplication tables: built once (on the first verify, so that a thread that only
 * hashes never pays for them), read-only after, shared by every thread. */
static secp256k1_context *ctx;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static void ctx_create(void) { ctx = secp256k1_context_create(SECP256K1_CONTEXT_VERIFY); }

/* Scratch for this many points in one pass; larger batches are split by ecmult_multi itself. One
 * scratch per thread that verifies (each worker thread is its own napi_env), made on its first call. */
#define MAX_PASS_POINTS 1024

typedef struct {
  const secp256k1_ge *points;
  const secp256k1_scalar *scalars;
} multi_data;

static int multi_cb(secp256k1_scalar *sc, secp256k1_ge *pt, size_t idx, void *data) {
  const multi_data *d = (const multi_data *)data;
  *sc = d->scalars[idx];
  *pt = d->points[idx];
  return 1;
}

/* 1 when every signature recovers its signer's key, 0 when at least one does not (or is malformed). */
static int verify_batch(secp256k1_scratch *scratch, size_t n, const unsigned char *digests, const unsigned char *rs, const unsigned char *recids,
                        const uint16_t *signer, size_t k, const unsigned char *pubs, const unsigned char *random) {
  int ok = 0;
  size_t i;
  secp256k1_ge *points = (secp256k1_ge *)malloc((n + k) * sizeof(secp256k1_ge));
  secp256k1_scalar *scalars = (secp256k1_scalar *)malloc((n + k) * sizeof(secp256k1_scalar));
  secp256k1_scalar *sig_r = (secp256k1_scalar *)malloc(n * sizeof(secp256k1_scalar));
  secp256k1_scalar *sig_s = (secp256k1_scalar *)malloc(n * sizeof(secp256k1_scalar));
  secp256k1_scalar *prefix = (secp256k1_scalar *)malloc(n * sizeof(secp256k1_scalar));
  secp256k1_scalar g_scalar, acc;
  secp256k1_gej result;
  multi_data data;
  if (!points || !scalars || !sig_r || !sig_s || !prefix) goto done;

  for (i = 0; i < k; i++) {
    secp256k1_fe x, y;
    if (!secp256k1_fe_set_b32(&x, pubs + 64 * i) || !secp256k1_fe_set_b32(&y, pubs + 64 * i + 32)) goto done;
    secp256k1_ge_set_xy(&points[n + i], &x, &y);
    if (!secp256k1_ge_is_valid_var(&points[n + i])) goto done;
    secp256k1_scalar_clear(&scalars[n + i]);
  }

  /* r and s in [1, n), and the running products of s for one inversion. */
  for (i = 0; i < n; i++) {
    int overflow = 0;
    if (signer[i] >= k) goto done;
    secp256k1_scalar_set_b32(&sig_r[i], rs + 64 * i, &overflow);
    if (overflow || secp256k1_scalar_is_zero(&sig_r[i])) goto done;
    secp256k1_scalar_set_b32(&sig_s[i], rs + 64 * i + 32, &overflow);
    if (overflow || secp256k1_scalar_is_zero(&sig_s[i])) goto done;
    if (i == 0) prefix[0] = sig_s[0];
    else secp256k1_scalar_mul(&prefix[i], &prefix[i - 1], &sig_s[i]);
  }
  secp256k1_scalar_inverse_var(&acc, &prefix[n - 1]); /* acc = 1 / (s_0 ⋯ s_{n−1}) */

  secp256k1_scalar_clear(&g_scalar);
  for (i = n; i-- > 0;) {
    secp256k1_scalar w, e, z, t;
    unsigned char zb[32];
    secp256k1_fe fx;
    /* w = 1/s_i, and acc becomes 1 / (s_0 ⋯ s_{i−1}). */
    if (i > 0) {
      secp256k1_scalar_mul(&w, &acc, &prefix[i - 1]);
      secp256k1_scalar_mul(&acc, &acc, &sig_s[i]);
    } else {
      w = acc;
    }
    memset(zb, 0, 16);
    memcpy(zb + 16, random + 16 * i, 16);
    zb[31] |= 1; /* never zero */
    secp256k1_scalar_set_b32(&z, zb, NULL); /* < 2^128: no overflow */
    secp256k1_scalar_set_b32(&e, digests + 32 * i, NULL); /* e mod n, as ECDSA reduces it */

    secp256k1_scalar_mul(&t, &e, &w);
    secp256k1_scalar_mul(&t, &t, &z);
    secp256k1_scalar_add(&g_scalar, &g_scalar, &t);
    secp256k1_scalar_mul(&t, &sig_r[i], &w);
    secp256k1_scalar_mul(&t, &t, &z);
    secp256k1_scalar_add(&scalars[n + signer[i]], &scalars[n + signer[i]], &t);

    if (!secp256k1_fe_set_b32(&fx, rs + 64 * i)) goto done;
    if (recids[i] > 3) goto done;
    if (recids[i] & 2) {
      if (secp256k1_fe_cmp_var(&fx, &secp256k1_ecdsa_const_p_minus_order) >= 0) goto done;
      secp256k1_fe_add(&fx, &secp256k1_ecdsa_const_order_as_fe);
    }
    if (!secp256k1_ge_set_xo_var(&points[i], &fx, recids[i] & 1)) goto done;
    secp256k1_ge_neg(&points[i], &points[i]);
    scalars[i] = z;
  }

  data.points = points;
  data.scalars = scalars;
  if (!secp256k1_ecmult_multi_var(&ctx->error_callback, &ctx->ecmult_ctx, scratch, &result, &g_scalar, multi_cb, &data, n + k)) goto done;
  ok = secp256k1_gej_is_infinity(&result);

done:
  free(points);
  free(scalars);
  free(sig_r);
  free(sig_s);
  free(prefix);
  return ok;
}

static void scratch_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  secp256k1_scratch_destroy(&ctx->error_callback, (secp256k1_scratch *)data);
}

/* verify(digests: Uint8Array(32n), rs: Uint8Array(64n), recids: Uint8Array(n), signer: Uint16Array(n),
 *        pubs: Uint8Array(64k), random: Uint8Array(16n)) → boolean */
napi_value js_verify(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  void *digests, *rs, *recids, *signer, *pubs, *random;
  size_t ld, lrs, ln, ls, lp, lr;
  napi_value out;
  int ok;
  secp256k1_scratch *scratch = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 6) return throw_type_error(env, "verify takes 6 typed arrays");
  pthread_once(&ctx_once, ctx_create);
  if (napi_get_instance_data(env, (void **)&scratch) != napi_ok) return throw_type_error(env, "verify: no instance data");
  if (scratch == NULL) {
    scratch = secp256k1_scratch_create(&ctx->error_callback, secp256k1_strauss_scratch_size(MAX_PASS_POINTS) + STRAUSS_SCRATCH_OBJECTS * ALIGNMENT);
    napi_set_instance_data(env, scratch, scratch_free, NULL);
  }
  if (!typed_array_arg(env, argv[0], napi_uint8_array, &digests, &ld) || !typed_array_arg(env, argv[1], napi_uint8_array, &rs, &lrs) ||
      !typed_array_arg(env, argv[2], napi_uint8_array, &recids, &ln) || !typed_array_arg(env, argv[3], napi_uint16_array, &signer, &ls) ||
      !typed_array_arg(env, argv[4], napi_uint8_array, &pubs, &lp) || !typed_array_arg(env, argv[5], napi_uint8_array, &random, &lr))
    return throw_type_error(env, "verify takes (Uint8Array digests, Uint8Array rs, Uint8Array recids, Uint16Array signer, Uint8Array pubs, Uint8Array random)");
  if (ln == 0 || ld != 32 * ln || lrs != 64 * ln || ls != ln || lr != 16 * ln || lp == 0 || lp % 64 != 0 || lp / 64 > 65535)
    return throw_type_error(env, "verify: lengths must be 32n, 64n, n, n, 64k (k ≥ 1) and 16n for n ≥ 1 signatures");
  ok = verify_batch(scratch, ln, (const unsigned char *)digests, (const unsigned char *)rs, (const unsigned char *)recids, (const uint16_t *)signer,
                    lp / 64, (const unsigned char *)pubs, (const unsigned char *)random);
  napi_get_boolean(env, ok != 0, &out);
  return out;
}

# The cryptoNative addon: batch ECDSA verification (batchVerify.c, libsecp256k1's own multi-scalar
# multiplication) and HMAC-SHA256 (hmacSha256.c), over the C sources that the `secp256k1` npm package
# ships, with that package's configuration. Built by scripts/buildNative.mjs (run by `npm install`).
{
  'variables': {
    'secp256k1_src': '<!(node -p "require(\'path\').join(require(\'path\').dirname(require.resolve(\'secp256k1/package.json\')), \'src\', \'secp256k1\')")',
  },
  'targets': [
    {
      'target_name': 'crypto_native',
      'sources': ['addon.c', 'batchVerify.c', 'hmacSha256.c', 'napiArgs.c'],
      'include_dirs': ['<(secp256k1_src)', '<(secp256k1_src)/src'],
      'cflags': ['-O3', '-Wno-unused-function', '-Wno-nonnull-compare'],
      'defines': [
        'NAPI_VERSION=6',
        'ECMULT_GEN_PREC_BITS=4',
        'ECMULT_WINDOW_SIZE=15',
        'USE_ENDOMORPHISM=1',
        'USE_NUM_NONE=1',
        'USE_FIELD_INV_BUILTIN=1',
        'USE_SCALAR_INV_BUILTIN=1',
      ],
      'conditions': [
        ['target_arch=="x64" and OS!="win"', {
          'defines': ['HAVE___INT128=1', 'USE_ASM_X86_64=1', 'USE_FIELD_5X52=1', 'USE_SCALAR_4X64=1'],
        }, {
          'defines': ['USE_FIELD_10X26=1', 'USE_SCALAR_8X32=1'],
        }],
      ],
    },
  ],
}

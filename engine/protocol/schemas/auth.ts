/**
 * Shapes of the credential routes (interface §2.1, §4.1, §5; decisions §2). Header schemas are
 * documentation: every header is optional to the validator, so a missing one gets the specific 401
 * `missing_auth_headers` (and the compatibility profile's POLY_* aliases pass) instead of a 400.
 */
import { Type } from '@sinclair/typebox';

const ADDRESS = '^0x[0-9a-fA-F]{40}$';

export const AuthErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'Stable snake_case code, e.g. invalid_signature, timestamp_out_of_window, nonce_reused' }),
    message: Type.String({ description: 'What failed and how to fix it' }),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { description: 'Authentication failure (401) with a specific code' },
);

export const L1HeadersSchema = Type.Object(
  {
    service_address: Type.Optional(Type.String({ description: 'SERVICE_ADDRESS: the wallet that signs (any case)' })),
    service_signature: Type.Optional(
      Type.String({
        description:
          'SERVICE_SIGNATURE: EIP-712 signature (65-byte hex) of ClobAuth(address address,string timestamp,uint256 nonce,string message) ' +
          'under domain {name:"ClobAuthDomain", version:"1", chainId}; message "This message attests that I control the given wallet"',
      }),
    ),
    service_timestamp: Type.Optional(Type.String({ description: 'SERVICE_TIMESTAMP: unix seconds, signed as a string; within ±300 s of GET /time' })),
    service_nonce: Type.Optional(Type.String({ description: 'SERVICE_NONCE: decimal uint256, never below the highest nonce accepted for this address' })),
    service_referral: Type.Optional(Type.String({ pattern: ADDRESS, description: 'SERVICE_REFERRAL (optional): referrer wallet, 0x address' })),
  },
  { additionalProperties: true },
);

export const L2HeadersSchema = Type.Object(
  {
    service_address: Type.Optional(Type.String({ description: 'SERVICE_ADDRESS: the address that created the API key' })),
    service_signature: Type.Optional(
      Type.String({ description: 'SERVICE_SIGNATURE: base64url(HMAC_SHA256(base64url_decode(secret), timestamp + METHOD + path + body)), "=" padded' }),
    ),
    service_timestamp: Type.Optional(Type.String({ description: 'SERVICE_TIMESTAMP: unix seconds, within ±300 s of GET /time' })),
    service_api_key: Type.Optional(Type.String({ description: 'SERVICE_API_KEY: the key (UUID v4)' })),
    service_passphrase: Type.Optional(Type.String({ description: 'SERVICE_PASSPHRASE: the 64-hex passphrase issued with the key' })),
  },
  { additionalProperties: true },
);

export const ApiCredentialsSchema = Type.Object(
  {
    apiKey: Type.String({ format: 'uuid', description: 'The same key under the public clients\' name (they read `apiKey`)' }),
    key: Type.String({ format: 'uuid', description: 'UUID v4, sent as SERVICE_API_KEY' }),
    secret: Type.String({ description: 'URL-safe base64 of 32 bytes with "=" padding; the HMAC key of L2 signatures. Returned once.' }),
    passphrase: Type.String({ pattern: '^[0-9a-f]{64}$', description: '64 hex characters, sent as SERVICE_PASSPHRASE. Returned once.' }),
  },
  { description: 'API credentials. The secret and passphrase are never stored by the exchange and cannot be fetched again.' },
);

export const ApiKeysSchema = Type.Object({
  apiKeys: Type.Array(Type.String({ description: 'API key (UUID v4)' }), { description: 'Live (not revoked) keys of the caller, oldest first' }),
});

export const RevokedKeySchema = Type.Object({
  revoked: Type.String({ description: 'The API key that signed the request, now revoked' }),
});

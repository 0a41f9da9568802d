import type { Account, Address, Hex, LocalAccount, TypedDataDefinition, WalletClient } from 'viem';

/**
 * Anything that can sign typed data: a viem local account (privateKeyToAccount, mnemonicToAccount…)
 * or a wallet client with an account (a browser wallet through wagmi/viem).
 */
export type TypedDataSigner = LocalAccount | WalletClient;

function isWalletClient(s: TypedDataSigner): s is WalletClient {
  return (s as WalletClient).transport !== undefined && typeof (s as WalletClient).request === 'function';
}

export function signerAddress(signer: TypedDataSigner): Address {
  if (isWalletClient(signer)) {
    const account = signer.account as Account | undefined;
    if (!account) throw new Error('The wallet client has no account: connect a wallet or pass { account } to createWalletClient.');
    return account.address;
  }
  return signer.address;
}

export async function signTypedDataWith(signer: TypedDataSigner, params: TypedDataDefinition): Promise<Hex> {
  if (isWalletClient(signer)) {
    const account = signer.account as Account | undefined;
    if (!account) throw new Error('The wallet client has no account: connect a wallet or pass { account } to createWalletClient.');
    return signer.signTypedData({ ...(params as Parameters<WalletClient['signTypedData']>[0]), account });
  }
  return signer.signTypedData(params);
}

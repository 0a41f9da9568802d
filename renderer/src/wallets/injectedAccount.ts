import { toAccount } from 'viem/accounts';
import type { Account, Address } from 'viem';
import type { Config } from 'wagmi';
import { signMessage, signTypedData } from 'wagmi/actions';

/**
 * The injected wallet (window.ethereum via wagmi) as a viem Account, so the client library signs with it
 * exactly as with a burner key: L1 auth, orders and Safe creation are typed-data signatures the wallet prompts for.
 */
export function injectedAccount(config: Config, address: Address): Account {
  return toAccount({
    address,
    signMessage: ({ message }) => signMessage(config, { account: address, message }),
    // viem's generic typed-data parameters do not line up with wagmi's action signature; the value is passed through unchanged.
    signTypedData: (typedData) => signTypedData(config, { account: address, ...(typedData as Parameters<typeof signTypedData>[1]) }),
    signTransaction: async () => {
      throw new Error('The terminal never asks the injected wallet to sign raw transactions: the relayer submits them.');
    },
  });
}

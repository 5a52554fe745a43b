import { createPrivateKey, createPublicKey } from 'node:crypto';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';

/** The public key of an ed25519 seed (`0x` + 64 hex), as `0x` + 64 hex (the form Solana settings take besides Base58). */
export function ed25519PublicKeyHex(seed: `0x${string}`): `0x${string}` {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seed.slice(2), 'hex')]);
  const spki = createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' });
  return `0x${spki.subarray(-32).toString('hex')}`;
}

/**
 * The variables that point a mode at a local Solana stand-in (devtools/solana-node), named as docs/rails.md
 * documents them: its JSON-RPC URL, the stand-in's fixed USDC and USDT mints, the gas (fee payer of sweeps and
 * withdrawals) and hot wallets as ed25519 seeds, and the fee wallet. Test mode also gets the stand-in's faucet
 * (1,000,000 of each mint) for "Simulate payment". Deposit owners come from the mode's mnemonic (m/44'/501'/i'/0').
 */
export function localSolanaEnv(mode: 'test' | 'live', url: string): Record<string, string> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  return {
    [`${p}_SOLANA_RPC_URL`]: url,
    [`${p}_SOLANA_USDC_ADDRESS`]: SOLANA_DEV.mints.USDC,
    [`${p}_SOLANA_USDT_ADDRESS`]: SOLANA_DEV.mints.USDT,
    [`${p}_SOLANA_GAS_WALLET_PRIVATE_KEY`]: SOLANA_DEV.gasWalletKey,
    [`${p}_SOLANA_HOT_WALLET_PRIVATE_KEY`]: SOLANA_DEV.hotWalletKey,
    [`${p}_SOLANA_FEE_WALLET_ADDRESS`]: SOLANA_DEV.feeWallet,
    ...(mode === 'test' ? { TEST_SOLANA_FAUCET_PRIVATE_KEY: SOLANA_DEV.faucetKey } : {}),
  };
}

import { SOLANA_DEV } from './dev-network';

type RawEnv = Record<string, unknown>;

/**
 * Production, Solana's wallets: the stand-in's keys and fee wallet are derived from published seeds
 * (devtools/solana-node), so anyone can spend from them; each is refused for every Solana wallet of either mode.
 * With a SOLANA rail enabled, a configured mode needs its fee wallet: it has no development default there, and
 * the worker settles no network without one. "NAME: problem" lines, never values.
 */
export function solanaDevKeyProblems(e: RawEnv, { modes, railEnabled }: { modes: readonly ('LIVE' | 'TEST')[]; railEnabled: boolean }): string[] {
  const problems: string[] = [];
  const devKeys = new Set<string>([SOLANA_DEV.gasWalletKey, SOLANA_DEV.hotWalletKey, SOLANA_DEV.faucetKey]);
  for (const name of ['GAS_WALLET_PRIVATE_KEY', 'HOT_WALLET_PRIVATE_KEY', 'FAUCET_PRIVATE_KEY'].flatMap((w) =>
    ['LIVE', 'TEST'].map((p) => `${p}_SOLANA_${w}`),
  )) {
    const key = e[name];
    if (typeof key === 'string' && devKeys.has(key.toLowerCase()))
      problems.push(`${name}: the Solana stand-in's development key is refused in production`);
  }
  for (const p of ['LIVE', 'TEST'] as const) {
    const name = `${p}_SOLANA_FEE_WALLET_ADDRESS`;
    if (e[name] === SOLANA_DEV.feeWallet) problems.push(`${name}: the Solana stand-in's development fee wallet is refused in production`);
    else if (e[name] === undefined && railEnabled && modes.includes(p))
      problems.push(`${name}: required in production for the enabled SOLANA rails (their invoices are settled only with a fee wallet)`);
  }
  return problems;
}

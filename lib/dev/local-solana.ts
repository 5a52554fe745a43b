import { startSolanaNode, type SolanaNode } from '@/devtools/solana-node/solana-node';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';
import { solanaEnvAddress } from '@/lib/config/solana/env-address';
import { ed25519PublicKeyHex, localSolanaEnv } from './local-solana-env';

/**
 * A mode's Solana stand-in for `npm run dev` and the e2e stack (devtools/solana-node, docs/solana.md §1): a slot
 * every `slotTimeMs` (400 ms in dev, mainnet's target), its fixed USDC and USDT mints, gas, hot and fee wallets
 * with 1,000 SOL each, and a faucet holding 1,000,000 of each mint. Everything is known before it runs (the
 * stand-in's accounts come from fixed seeds), so `env` points the mode at it while Next starts; `start` starts it
 * and throws if it came out other than planned (URL, mints, wallets: lib/config/solana/dev-network.ts).
 * `started` gets the node as soon as it runs (to stop it).
 */
export function planLocalSolana(opts: {
  mode: 'test' | 'live';
  port: number;
  slotTimeMs: number;
  finalizedDepth?: number;
  started: (node: SolanaNode) => void;
}): { env: Record<string, string>; start: () => Promise<SolanaNode> } {
  const { mode, port } = opts;
  const url = `http://127.0.0.1:${port}`;
  const start = async () => {
    const node = await startSolanaNode({ port, slotTimeMs: opts.slotTimeMs, finalizedDepth: opts.finalizedDepth });
    opts.started(node);
    const hex = (a: string) => solanaEnvAddress(a);
    const planned = [url, SOLANA_DEV.mints.USDC, SOLANA_DEV.mints.USDT, SOLANA_DEV.feeWallet, ed25519PublicKeyHex(SOLANA_DEV.gasWalletKey)];
    const actual = [node.url, hex(node.mints.USDC), hex(node.mints.USDT), hex(node.keys.fee.address), hex(node.keys.gas.address)];
    planned.push(ed25519PublicKeyHex(SOLANA_DEV.hotWalletKey), ed25519PublicKeyHex(SOLANA_DEV.faucetKey));
    actual.push(hex(node.keys.hot.address), hex(node.keys.faucet.address));
    if (planned.some((v, i) => v !== actual[i])) {
      throw new Error(
        `${mode} Solana stand-in: ${actual.join(', ')} differ from the planned ${planned.join(', ')} (lib/config/solana/dev-network.ts)`,
      );
    }
    console.log(
      `[dev] ${mode} SOLANA chain: stand-in ${node.url} (${opts.slotTimeMs} ms slots), USDC ${node.mints.USDC}, USDT ${node.mints.USDT} (6 decimals)`,
    );
    return node;
  };
  return { env: localSolanaEnv(mode, url), start };
}

/**
 * npm run solana:node: the Solana stand-in on its own, with 400 ms slots (mainnet's target), for trying a wallet
 * library or the adapter by hand. PORT sets the port (default: a free one); FINALIZED_DEPTH the finalized lag
 * (default 32 slots). Ctrl-C stops it.
 */
import { startSolanaNode } from '@/devtools/solana-node/solana-node';

const node = await startSolanaNode({
  slotTimeMs: 400,
  port: process.env.PORT ? Number(process.env.PORT) : undefined,
  finalizedDepth: process.env.FINALIZED_DEPTH ? Number(process.env.FINALIZED_DEPTH) : undefined,
});
console.log(`[solana] stand-in node at ${node.url} (JSON-RPC over LiteSVM; see docs/solana.md)`);
for (const [name, mint] of Object.entries(node.mints)) console.log(`[solana] ${name} mint ${mint} (6 decimals; mint and freeze authority: issuer)`);
for (const [name, k] of Object.entries(node.keys)) console.log(`[solana] ${name.padEnd(6)} ${k.address} (1,000 SOL; fixed dev seed)`);
const stop = () => void node.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

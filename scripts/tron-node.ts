/**
 * npm run tron:node: the TRON stand-in on its own, with 3 s blocks (TRON's slot), for trying the
 * adapter or TronWeb by hand until `npm run dev` starts it beside the EVM chains (issue 34's
 * integration). PORT sets the port (default: a free one). Ctrl-C stops it.
 */
import { startTronNode } from '@/devtools/tron-node/tron-node';

const node = await startTronNode({ blockTimeMs: 3000, port: process.env.PORT ? Number(process.env.PORT) : undefined });
console.log(`[tron] stand-in node at ${node.url} (HTTP API /wallet, /walletsolidity; JSON-RPC ${node.url}/jsonrpc)`);
console.log(`[tron] USDT (6 decimals) ${node.usdt}`);
for (const [name, k] of Object.entries(node.keys))
  console.log(`[tron] ${name.padEnd(6)} ${k.address} (1,000,000 TRX; dev mnemonic, m/44'/195'/1'/0)`);
const stop = () => void node.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

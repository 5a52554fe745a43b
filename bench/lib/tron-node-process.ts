import { spawn } from 'node:child_process';
import { TronWeb } from 'tronweb';
import { toHex41 } from '@/devtools/tron-node/address';
import { devKey } from '@/devtools/tron-node/dev-keys';

/**
 * The TRON stand-in (3 s blocks) in a process of its own (`scripts/tron-node.ts`), as a real node is another
 * machine: in the bench's process its block timer shared one event loop with the watcher and 64 sweeps, and a
 * loaded machine stretched its 3 s blocks (so 19 blocks to solidify took longer than TRON's 57 s).
 * Payments are TronWeb-signed transactions of the USDT issuer, as `mintUsdt` sends in process.
 */
export async function startTronNodeProcess() {
  const child = spawn('node_modules/.bin/tsx', ['scripts/tron-node.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const out: string[] = [];
  const { url, usdt } = await new Promise<{ url: string; usdt: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stand-in did not start: ${out.join('')}`)), 120_000);
    child.stdout.on('data', (d: Buffer) => {
      out.push(d.toString());
      const text = out.join('');
      const u = /stand-in node at (\S+)/.exec(text)?.[1];
      const t = /USDT \(6 decimals\) (\S+)/.exec(text)?.[1];
      if (u && t) {
        clearTimeout(timer);
        resolve({ url: u, usdt: t });
      }
    });
    child.on('exit', (code) => reject(new Error(`the stand-in exited (${code}): ${out.join('')}`)));
  });
  const keys = { issuer: devKey(0), gas: devKey(1), hot: devKey(2), fee: devKey(3), other: devKey(4) };
  const issuer = new TronWeb({ fullHost: url, privateKey: keys.issuer.privateKey });
  return {
    url,
    usdtHex: toHex41(usdt),
    keys,
    /** USDT base units to `to`: the issuer's `issue`, signed by TronWeb and broadcast (a Transfer to the address). */
    async mintUsdt(to: string, units: bigint) {
      const params = [
        { type: 'address', value: to },
        { type: 'uint256', value: units.toString() },
      ];
      const { transaction } = await issuer.transactionBuilder.triggerSmartContract(
        usdt,
        'issue(address,uint256)',
        { feeLimit: 100_000_000 },
        params,
        keys.issuer.address,
      );
      const res = await issuer.trx.sendRawTransaction(await issuer.trx.sign(transaction));
      if (!res.result) throw new Error(`issue refused: ${Buffer.from(String(res.message ?? ''), 'hex').toString()}`);
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}

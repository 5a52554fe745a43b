import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../ports/free-port';

const ANVIL_BIN = path.resolve(process.cwd(), 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');

export type Rpc = <T = unknown>(method: string, params?: unknown[]) => Promise<T>;

/**
 * Anvil as the stand-in's execution engine: no mining of its own (the stand-in mines each TRON
 * block with an explicit timestamp), free gas (TRON fees are charged by the stand-in), senders
 * impersonated (the stand-in has already checked the TRON signature), steps tracing on (energy is
 * priced from the trace).
 */
export async function startAnvilEngine(genesisSeconds: number, chainId: number): Promise<{ rpc: Rpc; stop: () => Promise<void> }> {
  const port = await freePort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--accounts', '0', '--silent'];
  args.push('--no-mining', '--order', 'fifo', '--base-fee', '0', '--gas-price', '0', '--auto-impersonate', '--steps-tracing');
  args.push('--timestamp', String(genesisSeconds), '--gas-limit', '100000000');
  const proc: ChildProcess = spawn(ANVIL_BIN, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const rpc: Rpc = async <T>(method: string, params: unknown[] = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`anvil ${method}: ${body.error.message}`);
    return body.result as T;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`anvil exited with ${proc.exitCode}`);
    try {
      await rpc('eth_chainId');
      break;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    rpc,
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

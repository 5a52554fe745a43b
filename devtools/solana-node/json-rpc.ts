import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { getBase58Decoder, getBase58Encoder, type Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, getTokenDecoder } from '@solana-program/token';
import { SendError, type Commitment, type SolanaChain } from './chain';
import { accountView, transactionView } from './views';

/**
 * The stand-in's genesis hash: the same on every start (sha256 of `solana-stand-in:genesis`), so development's
 * configuration can name it as mainnet's and devnet's are named (the gateway's rail check compares it).
 */
export const GENESIS_HASH = getBase58Decoder().decode(createHash('sha256').update('solana-stand-in:genesis').digest());

type Req = { id?: unknown; method?: string; params?: unknown[] };
type Config = { commitment?: Commitment; encoding?: string; limit?: number; before?: string; until?: string; skipPreflight?: boolean };

const COMMITMENTS = new Set(['processed', 'confirmed', 'finalized']);
const MAX_SIGNATURES = 1000;

/** Solana's JSON-RPC over HTTP POST on `/`, single and batch requests, JSON with u64s written as bare digits. */
export function solanaRpcServer(chain: SolanaChain, opts: { onSend?: () => void }): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      let out: unknown;
      try {
        const parsed = JSON.parse(body) as Req | Req[];
        out = Array.isArray(parsed) ? parsed.map((r) => one(chain, r, opts)) : one(chain, parsed, opts);
      } catch {
        out = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(stringify(out));
    });
  });
}

/** JSON.stringify, except that bigints (rentEpoch's u64::MAX) are written as numbers, as the node writes them. */
const stringify = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `__u64:${x}` : x)).replace(/"__u64:(\d+)"/g, '$1');

function one(chain: SolanaChain, req: Req, opts: { onSend?: () => void }) {
  try {
    return { jsonrpc: '2.0', id: req.id ?? null, result: call(chain, req.method ?? '', req.params ?? [], opts) };
  } catch (e) {
    const err =
      e instanceof SendError ? { code: e.code, message: e.message, ...(e.data ? { data: e.data } : {}) } : { code: -32603, message: String(e) };
    return { jsonrpc: '2.0', id: req.id ?? null, error: err };
  }
}

function config(p: unknown): Config {
  const c = (p && typeof p === 'object' ? p : {}) as Config;
  if (c.commitment !== undefined && !COMMITMENTS.has(c.commitment))
    throw new SendError(-32602, `Invalid params: unknown commitment ${String(c.commitment)}`);
  return c;
}

function call(chain: SolanaChain, method: string, params: unknown[], opts: { onSend?: () => void }): unknown {
  const withContext = (c: Config, value: unknown) => ({ context: { apiVersion: '2.2.0', slot: chain.at(c.commitment).slot }, value });
  switch (method) {
    case 'getSlot':
      return chain.at(config(params[0]).commitment).slot;
    case 'getGenesisHash':
      return GENESIS_HASH;
    case 'getBlockHeight':
      return chain.at(config(params[0]).commitment).blockHeight;
    case 'getLatestBlockhash': {
      const c = config(params[0]);
      const r = chain.at(c.commitment);
      return withContext(c, { blockhash: r.blockhash, lastValidBlockHeight: chain.lastValidBlockHeight(r.blockhash) });
    }
    case 'getMinimumBalanceForRentExemption':
      return Number(chain.svm.minimumBalanceForRentExemption(BigInt(Number(params[0] ?? 0))));
    case 'getBalance': {
      const c = config(params[1]);
      return withContext(c, Number(chain.accountAt(String(params[0]), chain.at(c.commitment).slot)?.lamports ?? 0n));
    }
    case 'getAccountInfo': {
      const c = config(params[1]);
      const slot = chain.at(c.commitment).slot;
      return withContext(c, accountView(chain, chain.accountAt(String(params[0]), slot), c.encoding ?? 'base58', slot));
    }
    case 'getTokenAccountsByOwner':
      return tokenAccountsByOwner(chain, String(params[0]), (params[1] ?? {}) as { mint?: string; programId?: string }, config(params[2]));
    case 'sendTransaction': {
      const c = config(params[1]);
      const raw = String(params[0] ?? '');
      const wire = c.encoding === 'base58' ? getBase58Encoder().encode(raw) : Buffer.from(raw, 'base64');
      const sig = chain.send(new Uint8Array(wire), { skipPreflight: c.skipPreflight });
      opts.onSend?.();
      return sig;
    }
    case 'requestAirdrop': {
      const sig = chain.airdrop(String(params[0]) as Address, BigInt(Number(params[1] ?? 0)));
      opts.onSend?.();
      return sig;
    }
    case 'getSignatureStatuses':
      return withContext(
        { commitment: 'processed' },
        ((params[0] ?? []) as string[]).map((s) => signatureStatus(chain, s)),
      );
    case 'getSignaturesForAddress':
      return signaturesForAddress(chain, String(params[0]), config(params[1]));
    case 'getTransaction': {
      const c = config(params[1]);
      if (c.commitment === 'processed') throw new SendError(-32602, 'Invalid params: processed commitment is not supported');
      const tx = chain.txs.get(String(params[0]));
      if (!tx || tx.slot === -1 || tx.slot > chain.at(c.commitment).slot) return null;
      return transactionView(chain, tx, c.encoding ?? 'json');
    }
    default:
      throw new SendError(-32601, 'Method not found');
  }
}

function status(chain: SolanaChain, slot: number): Commitment {
  if (slot <= chain.at('finalized').slot) return 'finalized';
  if (slot <= chain.at('confirmed').slot) return 'confirmed';
  return 'processed';
}

function signatureStatus(chain: SolanaChain, sig: string) {
  const tx = chain.txs.get(sig);
  if (!tx || tx.slot === -1) return null;
  const confirmationStatus = status(chain, tx.slot);
  return {
    slot: tx.slot,
    confirmations: confirmationStatus === 'finalized' ? null : chain.head.slot - tx.slot,
    err: tx.err,
    status: tx.err === null ? { Ok: null } : { Err: tx.err },
    confirmationStatus,
  };
}

function signaturesForAddress(chain: SolanaChain, address: string, c: Config) {
  if (c.commitment === 'processed') throw new SendError(-32602, 'Invalid params: processed commitment is not supported');
  const limit = c.limit ?? MAX_SIGNATURES;
  if (limit < 1 || limit > MAX_SIGNATURES) throw new SendError(-32602, 'Invalid limit; max 1000');
  const top = chain.at(c.commitment).slot;
  const out = [];
  let started = c.before === undefined;
  for (const sig of [...(chain.byAddress.get(address) ?? [])].reverse()) {
    const tx = chain.txs.get(sig)!;
    if (tx.slot === -1 || tx.slot > top) continue;
    if (!started) {
      started = sig === c.before;
      continue;
    }
    if (sig === c.until) break;
    out.push({
      signature: sig,
      slot: tx.slot,
      err: tx.err,
      memo: tx.memo,
      blockTime: chain.slotRecord(tx.slot)!.blockTime,
      confirmationStatus: status(chain, tx.slot),
    });
    if (out.length >= limit) break;
  }
  return out;
}

function tokenAccountsByOwner(chain: SolanaChain, owner: string, filter: { mint?: string; programId?: string }, c: Config) {
  if (!filter.mint && !filter.programId) throw new SendError(-32602, 'Invalid params: expected a mint or programId filter');
  if (filter.programId && filter.programId !== TOKEN_PROGRAM_ADDRESS) return { context: { slot: chain.at(c.commitment).slot }, value: [] };
  const slot = chain.at(c.commitment).slot;
  const candidates = new Set<string>([
    ...chain.svm.getProgramAccounts(TOKEN_PROGRAM_ADDRESS).map((a) => a.address as string),
    ...chain.touchedAfter(slot),
  ]);
  const value = [];
  for (const pubkey of candidates) {
    const a = chain.accountAt(pubkey, slot);
    if (!a || a.owner !== TOKEN_PROGRAM_ADDRESS || a.data.length !== 165) continue;
    const t = getTokenDecoder().decode(a.data);
    if (t.owner !== owner || (filter.mint && t.mint !== filter.mint)) continue;
    value.push({ pubkey, account: accountView(chain, a, c.encoding ?? 'base64', slot) });
  }
  return { context: { apiVersion: '2.2.0', slot }, value };
}

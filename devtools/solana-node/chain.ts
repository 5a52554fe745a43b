import { createHash } from 'node:crypto';
import {
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
  type Blockhash,
  type Lamports,
  type Transaction,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import { errJson, errText } from './errors';

/** A blockhash stays usable for 150 blocks after the one that produced it (MAX_PROCESSING_AGE). */
export const BLOCKHASH_LIFETIME = 150;

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** What an account held: `null` when it did not exist. */
export type AccountState = { lamports: bigint; owner: Address; data: Uint8Array; executable: boolean } | null;

export interface SlotRecord {
  slot: number;
  blockHeight: number;
  blockhash: Blockhash;
  /** Unix seconds (Solana's blockTime). */
  blockTime: number;
  signatures: string[];
}

export interface LandedTx {
  signature: string;
  slot: number;
  /** The wire bytes as sent (getTransaction answers from them). */
  wire: Uint8Array;
  message: Exclude<ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>['decode']>, { version: 1 }>;
  signatures: string[];
  err: unknown;
  logs: string[];
  computeUnits: bigint;
  fee: bigint;
  /** Every static account's state just before and just after the transaction. */
  pre: Map<string, AccountState>;
  post: Map<string, AccountState>;
  memo: string | null;
}

export class SendError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const b58 = getBase58Decoder();
const MEMO_PROGRAMS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);
const LAMPORTS_PER_SIGNATURE = 5000n;

/**
 * A chain of slots over LiteSVM, which itself has no blocks: LiteSVM executes each transaction at once on the
 * one current state; this records which slot took it, keeps each slot's blockhash (valid for 150 blocks) and the
 * state every transaction overwrote, so reads at `confirmed` or `finalized` see the state as of that slot.
 * No skipped slots: every slot has a block.
 */
export class SolanaChain {
  readonly svm: LiteSVM;
  readonly slots: SlotRecord[] = [];
  readonly txs = new Map<string, LandedTx>();
  /** Address → signatures that name it, oldest first (getSignaturesForAddress). */
  readonly byAddress = new Map<string, string[]>();
  /** Signatures of the slot being built; it becomes the head on the next `advance`. */
  private pending: string[] = [];

  constructor(
    readonly confirmedDepth: number,
    readonly finalizedDepth: number,
    private readonly firstSlot = 1000,
    private readonly heightOffset = 40,
  ) {
    // Blockhash age is checked here, by lastValidBlockHeight, not by LiteSVM (which knows one blockhash only).
    this.svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
    for (let i = 0; i <= finalizedDepth; i++) this.advance();
  }

  get head(): SlotRecord {
    return this.slots[this.slots.length - 1]!;
  }

  /** The newest slot at a commitment: `confirmed` lags the head by confirmedDepth, `finalized` by finalizedDepth. */
  at(commitment: Commitment = 'finalized'): SlotRecord {
    const lag = commitment === 'processed' ? 0 : commitment === 'confirmed' ? this.confirmedDepth : this.finalizedDepth;
    return this.slots[Math.max(0, this.slots.length - 1 - lag)]!;
  }

  slotRecord(slot: number): SlotRecord | undefined {
    return this.slots[slot - this.firstSlot];
  }

  /** Produces the next slot: the pending transactions land in it, and it brings a new blockhash. */
  advance(): SlotRecord {
    const slot = this.firstSlot + this.slots.length;
    const prev = this.slots[this.slots.length - 1];
    const blockhash = b58.decode(
      createHash('sha256')
        .update(`${prev?.blockhash ?? 'genesis'}:${slot}`)
        .digest(),
    ) as Blockhash;
    const blockTime = Math.max(prev?.blockTime ?? 0, Math.floor(Date.now() / 1000));
    const rec: SlotRecord = { slot, blockHeight: slot - this.heightOffset, blockhash, blockTime, signatures: this.pending };
    for (const s of this.pending) this.txs.get(s)!.slot = slot;
    this.pending = [];
    this.slots.push(rec);
    // warpToSlot, not setClock alone: it also moves the program cache's slot (LiteSVM's programs are deployed at 0).
    this.svm.warpToSlot(BigInt(slot));
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(blockTime);
    this.svm.setClock(clock);
    return rec;
  }

  /** The last block height at which `blockhash` is still accepted, or undefined when no slot produced it. */
  lastValidBlockHeight(blockhash: string): number | undefined {
    const rec = this.blockhashes.get(blockhash);
    return rec === undefined ? undefined : rec.blockHeight + BLOCKHASH_LIFETIME;
  }

  private get blockhashes(): Map<string, SlotRecord> {
    // Rebuilt lazily: the last few hundred slots are all that can matter.
    const m = new Map<string, SlotRecord>();
    for (const r of this.slots.slice(-BLOCKHASH_LIFETIME - 1)) m.set(r.blockhash, r);
    return m;
  }

  /**
   * Executes a wire transaction. With preflight (the RPC default) a transaction that would fail is refused
   * and never lands; without it, it lands failed and pays its fee, as on mainnet. An expired or unknown
   * blockhash is refused with preflight and silently dropped without (the signature never gets a status).
   */
  send(wire: Uint8Array, opts: { skipPreflight?: boolean } = {}): string {
    const tx = getTransactionDecoder().decode(wire) as Transaction;
    const decoded = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    if (decoded.version === 1) throw new SendError(-32602, 'stand-in: version 1 transactions are not modelled');
    const message = decoded;
    const sigBytes = Object.values(tx.signatures);
    const signatures = sigBytes.map((s) => (s ? b58.decode(s) : '1'.repeat(64)));
    const signature = signatures[0]!;
    if (this.txs.has(signature))
      throw new SendError(-32002, 'Transaction simulation failed: This transaction has already been processed', { err: 'AlreadyProcessed' });
    if ('addressTableLookups' in message && (message.addressTableLookups?.length ?? 0) > 0)
      throw new SendError(-32602, 'stand-in: address lookup tables are not modelled');
    const lvbh = this.lastValidBlockHeight(message.lifetimeToken);
    if (lvbh === undefined || lvbh < this.head.blockHeight) {
      if (opts.skipPreflight) return signature;
      throw new SendError(-32002, 'Transaction simulation failed: Blockhash not found', { err: 'BlockhashNotFound', logs: [], accounts: null });
    }
    if (!opts.skipPreflight) {
      const sim = this.svm.simulateTransaction(tx);
      if (sim instanceof FailedTransactionMetadata)
        throw new SendError(-32002, `Transaction simulation failed: ${errText(sim.err())}`, { err: errJson(sim.err()), logs: sim.meta().logs() });
    }
    const keys = message.staticAccounts as string[];
    const pre = new Map(keys.map((k) => [k, this.account(k)] as const));
    const res = this.svm.sendTransaction(tx);
    const failed = res instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? res.meta() : res;
    const post = new Map(keys.map((k) => [k, this.account(k)] as const));
    this.record({
      signature,
      slot: -1,
      wire,
      message,
      signatures,
      err: failed ? errJson(res.err()) : null,
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
      fee: LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts),
      pre,
      post,
      memo: memoOf(message),
    });
    return signature;
  }

  /** Credits lamports out of thin air (requestAirdrop); recorded as a transaction naming the recipient. */
  airdrop(to: Address, lamports: bigint): string {
    const pre = new Map([[to as string, this.account(to)]]);
    const res = this.svm.airdrop(to, lamports as Lamports);
    if (!res || res instanceof FailedTransactionMetadata) throw new SendError(-32603, 'airdrop failed');
    const signature = b58.decode(res.signature());
    const post = new Map([[to as string, this.account(to)]]);
    const message = {
      version: 'legacy',
      header: { numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 1 },
      staticAccounts: [to],
      lifetimeToken: this.head.blockhash,
      instructions: [],
    } as unknown as LandedTx['message'];
    this.record({
      signature,
      slot: -1,
      wire: new Uint8Array(),
      message,
      signatures: [signature],
      err: null,
      logs: res.logs(),
      computeUnits: 0n,
      fee: 0n,
      pre,
      post,
      memo: null,
    });
    return signature;
  }

  private record(tx: LandedTx) {
    this.txs.set(tx.signature, tx);
    this.pending.push(tx.signature);
    for (const k of tx.pre.keys()) {
      const list = this.byAddress.get(k) ?? [];
      list.push(tx.signature);
      this.byAddress.set(k, list);
    }
  }

  /** Whether anything is waiting for the next slot. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The account's current (processed) state. */
  account(address: string): AccountState {
    const a = this.svm.getAccount(address as Address);
    if (!a.exists) return null;
    return { lamports: a.lamports, owner: a.programAddress, data: new Uint8Array(a.data), executable: a.executable };
  }

  /** The account as of the end of `slot`: the state the first later transaction found, else the current one. */
  accountAt(address: string, slot: number): AccountState {
    for (const sig of this.byAddress.get(address) ?? []) {
      const tx = this.txs.get(sig)!;
      if (tx.slot === -1 || tx.slot > slot) return tx.pre.get(address) ?? null;
    }
    return this.account(address);
  }

  /** Addresses whose state changed after `slot` (their current state is not their state at `slot`). */
  touchedAfter(slot: number): Set<string> {
    const out = new Set<string>();
    for (const [addr, sigs] of this.byAddress) {
      const last = this.txs.get(sigs[sigs.length - 1]!)!;
      if (last.slot === -1 || last.slot > slot) out.add(addr);
    }
    return out;
  }
}

function memoOf(message: LandedTx['message']): string | null {
  const memos: string[] = [];
  for (const ix of message.instructions) {
    if (!MEMO_PROGRAMS.has(message.staticAccounts[ix.programAddressIndex]!)) continue;
    const text = Buffer.from(ix.data ?? new Uint8Array()).toString('utf8');
    // The RPC's format (solana-transaction-status extract_and_fmt_memos): "[<length>] <memo>", joined by "; ".
    memos.push(`[${text.length}] ${text}`);
  }
  return memos.length ? memos.join('; ') : null;
}

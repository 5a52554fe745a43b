import { createHash } from 'node:crypto';
import { runSystem, createsAccount } from './actuators';
import type { Rpc } from './anvil-process';
import { BroadcastError, billedBytes, commitNet, planNet, validateError } from './bandwidth';
import type { Account, Ledger } from './ledger';
import { applyContractTx } from './contract-tx';
import { checkDeploy } from './deploy';
import type { ContractRet } from './trigger';
import { decodeTx, ownerOf, recoverSigner, type TronTxJson } from './tx-codec';

export interface TronBlock {
  number: number;
  id: string;
  parentId: string;
  timestamp: number;
  txIds: string[];
  txTrieRoot: string;
}

export interface TxLog {
  address: string;
  topics: string[];
  data: string;
}

export interface TxRecord {
  tx: TronTxJson & { txID: string; raw_data_hex: string };
  blockNumber: number;
  ret: ContractRet;
  fee: bigint;
  receipt: Record<string, number | string>;
  contractResult?: string;
  contractAddress?: string;
  log: TxLog[];
  evmHash?: string;
}

export interface DeployedContract {
  address: string;
  name: string;
  abi: unknown[];
  bytecode: string;
  origin: string;
  energyFactor: number;
  /** consume_user_resource_percent: the callers' share of a call's energy (the rest from the origin's stake). */
  userPercent: number;
  originEnergyLimit: number;
}

const SLOT_MS = 3000;
const DAY_MS = 86_400_000;

/**
 * The stand-in's chain: TRON blocks over anvil blocks (one each, same number), a pending pool,
 * and the TRON ledger. A broadcast is validated against the head as java-tron validates it
 * (TaPoS, expiration, duplicate, signature, bandwidth, contract); packing re-validates each
 * pending transaction against the new block, drops those that no longer pass (an expired one
 * is dropped, never packed), applies the rest, and mines the anvil block at the TRON slot time.
 */
export class StandInChain {
  readonly blocks: TronBlock[] = [];
  readonly txs = new Map<string, TxRecord>();
  readonly dropped = new Map<string, string>();
  readonly contracts = new Map<string, DeployedContract>();
  pool: { tx: TronTxJson & { txID: string; raw_data_hex: string }; size: number }[] = [];
  /** false: blocks are made but pending transactions are left out (a node that never packs them). */
  packing = true;
  /**
   * A stack's clock move for the next block (ms; 0: none), rounded up to the 3 s slot; later blocks follow it 3 s apart.
   * Ahead of the head: a jump, so a period that starts weeks ahead (a subscription's) can begin on chain. Behind it: a
   * rewind (back to the wall clock after such a jump, as anvil's evm_setTime allows), so block time goes back once, on
   * purpose. Not modelled: a transaction whose expiration passed during the jump, still pooled, may land after a rewind.
   */
  warpTo = 0;
  /**
   * Set (startTronNode's `reorgs`): each block's state is kept (an anvil snapshot and a copy of the TRON ledger)
   * so `reorg` can replace recent blocks. Off by default: the copies cost time per block.
   */
  history?: Map<number, { evm: string; ledger: LedgerState }>;
  /** How many reorgs happened: mixed into later block ids, so a replaced block never has its old id. */
  private fork = 0;
  private lock: Promise<unknown> = Promise.resolve();

  constructor(
    readonly rpc: Rpc,
    readonly ledger: Ledger,
    readonly solidifyDepth: number,
  ) {}

  get head(): TronBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  get solid(): TronBlock {
    return this.blocks[Math.max(0, this.head.number - this.solidifyDepth)]!;
  }

  /** Runs `fn` after every earlier broadcast and block, one at a time. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => undefined);
    return next;
  }

  /**
   * `chainId`: what `eth_chainId` answers (the genesis id's last 4 bytes), for a stack whose settings are written
   * before the node starts (Playwright's); default the anvil hash's, a new one each start.
   */
  async addGenesis(chainId?: number) {
    const b = await this.rpc<{ hash: string; timestamp: string; transactionsRoot: string }>('eth_getBlockByNumber', ['0x0', false]);
    const id = blockId(0, b.hash);
    this.blocks.push({
      number: 0,
      id: chainId === undefined ? id : genesisIdOf(chainId),
      parentId: '0'.repeat(64),
      timestamp: Number(b.timestamp) * 1000,
      txIds: [],
      txTrieRoot: b.transactionsRoot.slice(2),
    });
  }

  /** Validates a broadcast transaction and pools it; throws BroadcastError as java-tron answers. */
  accept(raw: TronTxJson): Promise<string> {
    return this.serial(async () => {
      const { tx, size } = normalize(raw);
      const head = this.head;
      await this.validate(tx, head.timestamp + SLOT_MS, size, true);
      this.pool.push({ tx, size });
      return tx.txID;
    });
  }

  private async validate(tx: TxRecord['tx'], slot: number, size: number, dryRun: boolean) {
    if (tx.raw_data.contract.length !== 1) throw validateError('contract size should be exactly 1');
    this.tapos(tx);
    const exp = tx.raw_data.expiration;
    const headTs = this.head.timestamp;
    if (exp <= headTs || exp > headTs + DAY_MS || exp < slot) throw new BroadcastError('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired');
    if (this.txs.has(tx.txID) || (dryRun && this.pool.some((p) => p.tx.txID === tx.txID)))
      throw new BroadcastError('DUP_TRANSACTION_ERROR', 'Dup transaction.');
    const owner = ownerOf(tx);
    const sigs = tx.signature ?? [];
    if (sigs.length !== 1 || (await recoverSigner(tx.txID, sigs[0]!)) !== owner)
      throw new BroadcastError('SIGERROR', 'Validate signature error: sig error');
    const c = tx.raw_data.contract[0]!;
    const acc = this.ledger.get(owner);
    const bill = planNet(this.ledger, owner, acc, billedBytes(size), createsAccount(this.ledger, { type: c.type, value: c.parameter.value }), slot);
    if (c.type === 'TriggerSmartContract') {
      if (!this.contracts.has(String(c.parameter.value.contract_address).toLowerCase()))
        throw validateError('No contract or not a valid smart contract');
      const feeLimit = Number(tx.raw_data.fee_limit ?? 0);
      if (feeLimit < 0 || feeLimit > this.ledger.params.maxFeeLimit)
        throw validateError(`feeLimit must be >= 0 and <= ${this.ledger.params.maxFeeLimit}`);
      if (Number(c.parameter.value.call_value ?? 0) !== 0) throw validateError('call_value is not modelled by the stand-in');
    } else if (c.type === 'CreateSmartContract') {
      checkDeploy(this.ledger, c.parameter.value, owner, tx.txID, Number(tx.raw_data.fee_limit ?? 0));
    } else {
      runSystem(this.ledger, { type: c.type, value: c.parameter.value, owner, netFee: bill.fee }, slot, (a) => this.contracts.has(a), true);
    }
    return { owner, acc: acc!, bill, c };
  }

  private tapos(tx: TronTxJson) {
    const low = parseInt(tx.raw_data.ref_block_bytes, 16);
    // java-tron keeps the last 65536 blocks keyed by the low two bytes of their number.
    const ref = [...this.blocks].reverse().find((b) => (b.number & 0xffff) === low && this.head.number - b.number < 65536);
    if (!ref || ref.id.slice(16, 32) !== tx.raw_data.ref_block_hash.toLowerCase()) throw new BroadcastError('TAPOS_ERROR', 'Tapos check error.');
  }

  /** Mines one block (3 s after the head) with the pending transactions that still pass. */
  mine(): Promise<TronBlock> {
    return this.serial(async () => {
      const number = this.head.number + 1;
      const ts = nextSlot(this.head.timestamp, this.warpTo);
      if (this.warpTo) {
        // anvil's own clock follows, either way: transactions are traced on its pending block, whose time is that clock's.
        await this.rpc('evm_setTime', [ts / 1000]);
      }
      this.warpTo = 0;
      const packed: TxRecord[] = [];
      const pool = this.pool;
      this.pool = [];
      for (const p of pool) {
        if (!this.packing) {
          if (p.tx.raw_data.expiration >= ts) this.pool.push(p);
          else this.dropped.set(p.tx.txID, 'Transaction expired');
          continue;
        }
        try {
          packed.push(await this.apply(p.tx, p.size, ts, number));
        } catch (e) {
          this.dropped.set(p.tx.txID, e instanceof Error ? e.message : String(e));
        }
      }
      await this.rpc('evm_mine', [ts / 1000]);
      const evm = await this.rpc<{ number: string; hash: string; transactionsRoot: string }>('eth_getBlockByNumber', ['latest', false]);
      if (Number(evm.number) !== number) throw new Error(`stand-in out of step with anvil: block ${evm.number}, expected ${number}`);
      for (const r of packed) {
        if (!r.evmHash) continue;
        const receipt = await this.rpc<{ status: string; logs: { address: string; topics: string[]; data: string }[] }>('eth_getTransactionReceipt', [
          r.evmHash,
        ]);
        if (receipt.status !== '0x1') throw new Error(`stand-in: anvil reverted ${r.tx.txID}, which the trace passed`);
        r.log = receipt.logs.map((l) => ({
          address: l.address.slice(2).toLowerCase(),
          topics: l.topics.map((t) => t.slice(2)),
          data: l.data.slice(2),
        }));
      }
      const block: TronBlock = {
        number,
        id: blockId(number, evm.hash),
        parentId: this.head.id,
        timestamp: ts,
        txIds: packed.map((r) => r.tx.txID),
        txTrieRoot: evm.transactionsRoot.slice(2),
      };
      if (this.fork > 0) block.id = forkedId(block.id, this.fork);
      for (const r of packed) this.txs.set(r.tx.txID, r);
      this.blocks.push(block);
      if (this.history) this.history.set(number, { evm: await this.rpc<string>('evm_snapshot'), ledger: saveLedger(this.ledger) });
      return block;
    });
  }

  private async apply(tx: TxRecord['tx'], size: number, ts: number, number: number): Promise<TxRecord> {
    const { owner, acc, bill, c } = await this.validate(tx, ts, size, false);
    commitNet(this.ledger, acc, bill, ts);
    const receipt: Record<string, number | string> = {};
    if (bill.kind === 'burn' || bill.kind === 'create-burn') receipt.net_fee = Number(bill.fee);
    else receipt.net_usage = bill.bytes;
    const record: TxRecord = { tx, blockNumber: number, ret: 'SUCCESS', fee: bill.fee, receipt, log: [] };
    if (c.type === 'TriggerSmartContract' || c.type === 'CreateSmartContract') {
      await applyContractTx(this, record, c, owner, acc, ts);
    } else {
      record.fee += runSystem(this.ledger, { type: c.type, value: c.parameter.value, owner, netFee: 0n }, ts, (a) => this.contracts.has(a), false);
    }
    return record;
  }

  /**
   * A reorg (needs `history`): the last `depth` blocks are replaced. State goes back to the block below them
   * (anvil and the TRON ledger), their transactions return to the pool in their order except those in `drop`
   * (a payer's transaction the new branch never holds: a double spend), and the next blocks mined get new ids.
   * Refuses to touch a solidified block, as TRON's consensus would. The caller mines the new branch.
   */
  reorg(depth: number, opts: { drop?: string[] } = {}): Promise<{ readded: string[]; dropped: string[] }> {
    return this.serial(async () => {
      if (!this.history) throw new Error('stand-in: start the node with reorgs: true to replace blocks');
      const target = this.head.number - depth;
      if (depth < 1 || target < this.solid.number) throw new Error(`stand-in: cannot replace ${depth} blocks (solidified at ${this.solid.number})`);
      const saved = this.history.get(target);
      if (!saved) throw new Error(`stand-in: no state kept for block ${target}`);
      if (!(await this.rpc<boolean>('evm_revert', [saved.evm]))) throw new Error('stand-in: anvil refused evm_revert');
      // evm_revert uses the snapshot up: take it again for a later reorg to the same block.
      saved.evm = await this.rpc<string>('evm_snapshot');
      restoreLedger(this.ledger, saved.ledger);
      for (const n of [...this.history.keys()]) if (n > target) this.history.delete(n);
      const removed = this.blocks.splice(target + 1);
      const drop = new Set((opts.drop ?? []).map((id) => id.toLowerCase()));
      const readded: string[] = [];
      const back: typeof this.pool = [];
      for (const b of removed) {
        for (const id of b.txIds) {
          const r = this.txs.get(id)!;
          this.txs.delete(id);
          // Its code went with anvil's state; a re-packed deployment registers it again.
          if (r.tx.raw_data.contract[0]?.type === 'CreateSmartContract' && r.contractAddress) this.contracts.delete(r.contractAddress);
          if (drop.has(id)) {
            this.dropped.set(id, 'left out of the new branch (reorg)');
            continue;
          }
          back.push({ tx: r.tx, size: decodeTx(r.tx).size });
          readded.push(id);
        }
      }
      this.pool = [...back, ...this.pool.filter((p) => !drop.has(p.tx.txID))];
      this.fork++;
      return { readded, dropped: [...drop] };
    });
  }

  /** Registers a contract deployed on anvil (the USDT stand-in), so TRON transactions can call it. */
  register(c: DeployedContract) {
    this.contracts.set(c.address, c);
  }
}

/** The next block's time: 3 s after the head, or the warp's slot (before the head: a rewind, after it: a jump). */
export function nextSlot(head: number, warpTo: number): number {
  if (!warpTo) return head + SLOT_MS;
  const warped = Math.ceil(warpTo / SLOT_MS) * SLOT_MS;
  return warped < head ? warped : Math.max(head + SLOT_MS, warped);
}

/** TRON block id: the 8-byte number, then 24 bytes of the block hash (here anvil's). */
/**
 * The genesis id of a stand-in started with `chainId`: block 0, bytes derived from the chain id alone, the chain id
 * last (what `eth_chainId` answers). Known before the node starts, so a transaction referring to the genesis block
 * (TaPoS) can be built and its txID (hence a deployed contract's address) known in advance (lib/dev/tron-collector.ts).
 */
export function genesisIdOf(chainId: number): string {
  if (!(Number.isInteger(chainId) && chainId > 0 && chainId < 2 ** 32)) throw new Error(`chain id ${chainId}: not 4 bytes`);
  const hex = chainId.toString(16).padStart(8, '0');
  return '0'.repeat(16) + createHash('sha256').update(`tron stand-in genesis ${hex}`).digest('hex').slice(0, 40) + hex;
}

export function blockId(number: number, evmHash: string): string {
  return number.toString(16).padStart(16, '0') + evmHash.slice(2 + 16);
}

/** A block id of a later branch: the same number, other bytes (a replaced block must not keep its id). */
function forkedId(id: string, fork: number): string {
  return id.slice(0, 16) + createHash('sha256').update(`${id}:${fork}`).digest('hex').slice(0, 48);
}

type LedgerState = { accounts: Map<string, Account>; delegations: Map<string, bigint> };
const saveLedger = (l: Ledger): LedgerState => structuredClone({ accounts: l.accounts, delegations: l.delegations });

function restoreLedger(l: Ledger, s: LedgerState) {
  const copy = structuredClone(s);
  l.accounts.clear();
  for (const [k, v] of copy.accounts) l.accounts.set(k, v);
  l.delegations.clear();
  for (const [k, v] of copy.delegations) l.delegations.set(k, v);
}

function normalize(raw: TronTxJson): { tx: TxRecord['tx']; size: number } {
  if (!raw?.raw_data?.contract) throw new BroadcastError('OTHER_ERROR', 'class java.lang.NullPointerException : null');
  // Every client here (TronWeb included) broadcasts visible=false; base58 bodies are not modelled.
  if (raw.visible) throw new BroadcastError('OTHER_ERROR', 'the stand-in accepts visible=false transactions only');
  const { txId, rawDataHex, size } = decodeTx(raw);
  return { tx: { ...raw, visible: false, txID: txId, raw_data_hex: rawDataHex }, size };
}

import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS, getInitializeAccount3Instruction } from '@solana-program/token';
import { withdrawals } from '@/db/schema';
import { startSolanaNode } from '@/devtools/solana-node/solana-node';
import { ApiError } from '@/lib/api/errors';
import { setNetworkOverride, type SolanaNetwork } from '@/lib/chain/network';
import { solanaRpc } from '@/lib/chain/solana/rpc';
import { rowsOf, type Db } from '@/lib/db';
import { getBalance } from '@/lib/ledger/get-balance';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { createWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals, type LaneOptions } from '@/lib/withdrawals/process-withdrawals';
import { createTestTenant } from './fixtures';
import { solanaTestNetwork } from './solana-network';
import { solanaPayer } from './solana-payer';

export const FINALIZED_DEPTH = 4;
export const RENT = 2_039_280n;

/**
 * A Solana USDC rail for withdrawal tests: the stand-in (finalized 4 slots behind), its dev mints and wallets, the
 * rail enabled by a test override (the test environment's RAILS does not enable it) with a 0.40 network fee at 150 USD/SOL, and the
 * hot wallet holding 1,000 USDC. `stop` removes the override and stops the node. Test files running side by side
 * share the database, and a lane tracks and sends every withdrawal of its mode and chain id: each file gives its own
 * `chainId`, so no file's lane takes another's withdrawals to its own stand-in.
 */
export async function startSolanaLane(opts: { chainId?: number } = {}) {
  const node = await startSolanaNode({ finalizedDepth: FINALIZED_DEPTH });
  const net: LaneNetwork<SolanaNetwork> = solanaTestNetwork(node, {
    ...(opts.chainId !== undefined && { chainId: opts.chainId }),
    minWithdrawal: '0.50',
    networkFee: '0.40',
    gasCoinUsd: '150',
  });
  setNetworkOverride('test', net);
  await node.mintTo('USDC', node.keys.hot.address, 1_000_000_000n);
  node.advance(1);
  const rpc = solanaRpc(node.url);
  const payer = solanaPayer(node);
  return {
    node,
    net,
    rpc,
    payer,
    lamportsOf: async (a: Address) => BigInt((await rpc.call('getBalance', [a, { commitment: 'confirmed' }])).value),
    /** USDC base units in `owner`'s token accounts; null when it has none. */
    async usdcOf(owner: Address): Promise<bigint | null> {
      const { value } = await rpc.call('getTokenAccountsByOwner', [
        owner,
        { mint: node.mints.USDC },
        { encoding: 'jsonParsed', commitment: 'confirmed' },
      ]);
      return value.length === 0 ? null : value.reduce((s, a) => s + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n);
    },
    /** Lane passes, finalizing in between, until the withdrawal is final. */
    async settle(db: Db, id: string, opts: LaneOptions = {}) {
      for (let i = 0; i < 6 && ['PENDING', 'PROCESSING'].includes((await rowOf(db, id)).status); i++) {
        await processWithdrawals(db, net, opts);
        node.advance(FINALIZED_DEPTH);
      }
      return rowOf(db, id);
    },
    /** A USDC token account of `owner` at a fresh address (not its ATA), as a program or an old wallet makes one. */
    async auxiliaryTokenAccount(owner: KeyPairSigner): Promise<Address> {
      const account = await generateKeyPairSigner();
      const { value: life } = await payer.kit.getLatestBlockhash({ commitment: 'confirmed' }).send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(owner, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(life, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getCreateAccountInstruction({ payer: owner, newAccount: account, lamports: RENT, space: 165, programAddress: TOKEN_PROGRAM_ADDRESS }),
              getInitializeAccount3Instruction({ account: account.address, mint: node.mints.USDC, owner: owner.address }),
            ],
            m,
          ),
      );
      const wire = getBase64EncodedWireTransaction(await signTransactionMessageWithSigners(message));
      await payer.kit.sendTransaction(wire, { encoding: 'base64' }).send();
      node.advance(1);
      return account.address;
    },
    async stop() {
      setNetworkOverride('test', undefined, 'SOLANA');
      await node.stop();
    },
  };
}
export type SolanaLane = Awaited<ReturnType<typeof startSolanaLane>>;

/** A tenant with `balance` USDC in test mode (withdrawal fee rate 0.01), credited through the ledger. */
export async function usdcTenant(balance: string) {
  const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
  await t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId: t.tenant.id,
      mode: 'test',
      amount: balance,
      kind: 'test_credit',
      referenceType: 'test',
      referenceId: `funded-${randomUUID()}`,
      currency: 'USDC',
    }),
  );
  return t;
}
export type UsdcTenant = Awaited<ReturnType<typeof usdcTenant>>;

/** A USDC withdrawal on SOLANA as the route makes one (without the route's request parsing and auth). */
export const withdrawSolana = (t: UsdcTenant, amount: string, destinationAddress: string) =>
  createWithdrawal(
    t.db,
    { tenantId: t.tenant.id, mode: 'test', tenant: { withdrawalFeeRate: '0.01' } },
    { amount, destinationAddress, chain: 'SOLANA' as never, token: 'USDC' },
    undefined,
    prepareWithdrawalControls,
  );

/** The ApiError a promise rejects with, as { code, message }; null when it resolves. */
export const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ApiError ? { code: e.code, message: e.message } : e),
  );
export const rowOf = async (db: Db, id: string) => (await db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;
export const usdcBalanceOf = async (t: UsdcTenant) => (await getBalance(t.db, { tenantId: t.tenant.id, mode: 'test', currency: 'USDC' })).toString();
export const gasSpendOf = async (db: Db, id: string) =>
  rowsOf<{ cost_wei: string }>(await db.execute(sql`select cost_wei::text from gas_spend where reference_id = ${id}`));

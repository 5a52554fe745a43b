import { parseUnits } from 'viem';
import type { Invoice, Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { ReadyNetwork, SolanaNetwork } from '@/lib/chain/network';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { associatedTokenAccount } from '@/lib/chain/solana/associated-token-account';
import { solanaDepositOwner } from '@/lib/chain/solana/deposit-owner-key';
import { SolanaRpcError, solanaRpc } from '@/lib/chain/solana/rpc';
import { readSolanaTokenBalance } from '@/lib/chain/solana/token-balance';
import { solanaWalletSigner } from '@/lib/chain/solana/wallet-signer';
import { finishSettlement } from './finish-settlement';
import { planSweep } from './plan-sweep';
import type { SettleHooks } from './settle-invoice';
import { sweepSolanaDeposit } from './solana/sweep-solana-deposit';

type SolanaSettleNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'hotWalletKey', SolanaNetwork>;

/** One node read may take this long; a hung node fails the attempt (retried), it never holds the claim. */
const READ_TIMEOUT_MS = 10_000;

/**
 * A Solana settlement (settleInvoice's branch for the `solana` family, docs/solana.md §6.2): below the sweep minimum
 * credited and left in place (plan-sweep.ts, reading the deposit token account at `finalized`), else one transaction
 * moving the settlement's units (and what it carries) from the invoice's deposit token account to the hot wallet's,
 * closing the account when nothing more is in it, the gas wallet paying the fee and getting the rent back
 * (solana/sweep-solana-deposit.ts), then credited in one transaction (finishSettlement), as on EVM and TRON. A read the node
 * could not answer is an RpcReadError: retried, never counted towards failing the settlement.
 */
export async function settleSolanaInvoice(db: Db, net: SolanaSettleNetwork, s: Settlement, invoice: Invoice, hooks: SettleHooks) {
  try {
    return await settle(db, net, s, invoice, hooks);
  } catch (err) {
    if (err instanceof SolanaRpcError) throw new RpcReadError(err.message, { cause: err });
    throw err;
  }
}

async function settle(db: Db, net: SolanaSettleNetwork, s: Settlement, invoice: Invoice, hooks: SettleHooks) {
  const rpc = solanaRpc(net.rpcUrl, { timeoutMs: READ_TIMEOUT_MS });
  const owner = await solanaDepositOwner(net.depositMnemonic, invoice.addressIndex);
  // The key must be the invoice's owner: a mnemonic changed under running invoices would sweep someone else's.
  if (owner.address !== invoice.depositAddress)
    throw new Error(`settlement ${s.id}: index ${invoice.addressIndex} does not derive ${invoice.depositAddress}`);
  const mint = net.tokenAddress;
  const source = await associatedTokenAccount(owner.address, mint);
  const units = (v: string | undefined) => parseUnits(v ?? '0', net.decimals);
  const own = units(s.feeAmount) + units(s.netAmount);
  const carried = await planSweep(db, net, s, async () => {
    const held = (await readSolanaTokenBalance(rpc, source, mint)).units;
    // Its payments are finalized and only this key moves tokens out: holding less, the node is behind. Taken as
    // an answer, it would leave the settlement in place (or charge the sweep fee) for money that is there.
    if (held < own) throw new RpcReadError(`the node shows ${held} units finalized in ${source}, less than the settlement's ${own}: behind`);
    return held;
  });
  if (!carried) return finishSettlement(db, s.id, { sweepDeferred: true });
  // One transfer of everything to the hot wallet, as on TRON: fee, net and the dust it carries along.
  const total = own + units(carried.fee) + units(carried.net);
  await sweepSolanaDeposit(
    db,
    {
      rpc,
      chainId: net.chainId,
      settlementId: s.id,
      owner,
      feePayer: await solanaWalletSigner(net.gasWalletKey),
      hot: (await solanaWalletSigner(net.hotWalletKey)).address,
      mint,
      decimals: net.decimals,
      hooks,
    },
    { kind: 'solana', units: total.toString(), carried },
  );
  return finishSettlement(db, s.id);
}

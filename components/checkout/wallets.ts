import type { ChainFamily } from '@/lib/config/rails';
import type { CollectionOffer } from '@/lib/subscriptions/collect/collection-offer';

type Offer = Extract<CollectionOffer, { supported: true }>;
export type Eip1193 = { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> };
type TronLink = {
  defaultAddress: { base58: string | false };
  transactionBuilder: {
    triggerSmartContract: (
      c: string,
      fn: string,
      o: { feeLimit: number },
      p: { type: string; value: unknown }[],
      from: string,
    ) => Promise<{ transaction: unknown }>;
  };
  trx: {
    sign: (tx: unknown) => Promise<unknown>;
    sendRawTransaction: (tx: unknown) => Promise<{ result?: boolean; txid?: string; transaction?: { txID: string } }>;
    getUnconfirmedTransactionInfo: (id: string) => Promise<{ blockNumber?: number; receipt?: { result?: string } }>;
  };
};

/** An injected wallet that signs the checkout's approve and authorize: present in this browser, and its two calls sent and mined. */
export interface InjectedWallet {
  present(): boolean;
  /** Sends approve then authorize from the wallet's account, each awaited until mined; resolves with that account. */
  sign(offer: Offer): Promise<string>;
}

const pause = () => new Promise((ok) => setTimeout(ok, 1000)); // neither wallet pushes a mined transaction

/** window.ethereum (MetaMask and the like): eth_sendTransaction with the offer's calldata. */
const ETHEREUM: InjectedWallet = {
  present: () => Boolean((window as unknown as { ethereum?: unknown }).ethereum),
  async sign(offer) {
    const eth = (window as unknown as { ethereum?: Eip1193 }).ethereum!;
    const [from] = (await eth.request({ method: 'eth_requestAccounts' })) as string[];
    await eth.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${offer.signing.chainId.toString(16)}` }] });
    const mined = async (hash: unknown) => {
      for (let i = 0; i < 120; i++) {
        const r = (await eth.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status?: string } | null;
        if (r) {
          if (r.status !== '0x1') throw new Error('The transaction failed on chain.');
          return;
        }
        await pause();
      }
      throw new Error('The transaction is not mined yet: submit once it is.');
    };
    const s = offer.signing;
    await mined(await eth.request({ method: 'eth_sendTransaction', params: [{ from, to: s.tokenAddress, data: offer.approveData }] }));
    await mined(await eth.request({ method: 'eth_sendTransaction', params: [{ from, to: s.collectorAddress, data: offer.authorizeData }] }));
    return from!;
  },
};

/** TronLink (window.tronWeb): TriggerSmartContract of approve, then authorize, with the offer's `T…` addresses. */
const TRONLINK: InjectedWallet = {
  present: () => Boolean((window as unknown as { tronWeb?: TronLink }).tronWeb?.defaultAddress?.base58),
  async sign(offer) {
    const tw = (window as unknown as { tronWeb: TronLink }).tronWeb;
    const from = tw.defaultAddress.base58 as string;
    const s = offer.signing;
    const send = async (contract: string, fn: string, params: { type: string; value: unknown }[]) => {
      const { transaction } = await tw.transactionBuilder.triggerSmartContract(contract, fn, { feeLimit: 100_000_000 }, params, from);
      const res = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
      const id = res.txid ?? res.transaction?.txID;
      if (!res.result || !id) throw new Error('TronLink did not send the transaction.');
      for (let i = 0; i < 120; i++) {
        const info = await tw.trx.getUnconfirmedTransactionInfo(id);
        if (info.blockNumber !== undefined) {
          if (info.receipt?.result !== 'SUCCESS') throw new Error('The transaction failed on chain.');
          return;
        }
        await pause();
      }
      throw new Error('The transaction is not in a block yet: submit once it is.');
    };
    await send(s.tokenAddress, 'approve(address,uint256)', [
      { type: 'address', value: s.approve.spender },
      { type: 'uint256', value: offer.approveUnits },
    ]);
    const a = s.authorize;
    await send(s.collectorAddress, 'authorize(bytes32,address,uint256,uint256,uint256)', [
      { type: 'bytes32', value: a.subscriptionId },
      { type: 'address', value: a.token },
      { type: 'uint256', value: a.maxPerPeriod },
      { type: 'uint256', value: a.periodSeconds },
      { type: 'uint256', value: a.start },
    ]);
    return from;
  },
};

const NONE: InjectedWallet = { present: () => false, sign: () => Promise.reject(new Error('No wallet signs on this chain.')) };

/** The injected wallet of each chain family (no family branch in the checkout: it asks this table). */
export const INJECTED_WALLETS: Record<ChainFamily, InjectedWallet> = { evm: ETHEREUM, tron: TRONLINK, solana: NONE };

/** How the page names the wallet that signs, per family. */
export const WALLET_NAMES: Record<ChainFamily, string> = { evm: 'your wallet', tron: 'TronLink (or your TRON wallet)', solana: 'your wallet' };

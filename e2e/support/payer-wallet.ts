import type { Page } from '@playwright/test';
import { familyOf, type Asset, type ChainFamily, type ChainKey } from '@/lib/config/rails';
import { evmClock, evmPayerWallet } from './evm-wallet';
import { tronClock, tronPayerWallet } from './tron-wallet';

/** A customer's wallet on a rail of the e2e stack, as the subscription walks use it (one implementation per family). */
export interface PayerWallet {
  /** The address the customer types into the checkout, in the family's wire form. */
  address: string;
  /** Gas and `amount` of the rail's token, from the stack's faucet of that network. */
  fund(amount: string): Promise<void>;
  /** A transfer of `amount` to `to` from this wallet, waited for until mined. */
  pay(to: string, amount: string): Promise<void>;
  /** What the checkout's (or portal's) automatic-collection set-up on `page` shows, signed as the wallet would. */
  signShown(page: Page): Promise<void>;
  /** The customer takes back the collector's allowance on the token (what they signed last with signShown). */
  revokeAllowance(): Promise<void>;
  /** The rail's token held, in units. */
  balance(): Promise<string>;
}

/** A network's clock, moved by the test instead of sleeping; `restore` puts it back on the wall clock. */
export interface ChainClock {
  moveTo(at: Date): Promise<void>;
  restore(): Promise<void>;
}

// A Solana entry goes here once Solana collection runs in the e2e stack.
const FAMILIES: Partial<Record<ChainFamily, { wallet: (chain: ChainKey, asset: Asset) => PayerWallet; clock: (chain: ChainKey) => ChainClock }>> = {
  evm: { wallet: evmPayerWallet, clock: evmClock },
  tron: { wallet: tronPayerWallet, clock: tronClock },
};

function familyKit(chain: ChainKey) {
  const kit = FAMILIES[familyOf(chain)];
  if (!kit) throw new Error(`no payer wallet for ${chain} in the e2e support yet`);
  return kit;
}

export const payerWallet = (chain: ChainKey, asset: Asset) => familyKit(chain).wallet(chain, asset);
export const chainClock = (chain: ChainKey) => familyKit(chain).clock(chain);

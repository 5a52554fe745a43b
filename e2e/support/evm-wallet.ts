import { expect, type Page } from '@playwright/test';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  getAddress,
  http,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Asset, ChainKey } from '@/lib/config/rails';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import type { ChainClock, PayerWallet } from './payer-wallet';
import { payOnEvm } from './pay-rail';
import { E2E_EVM_CHAINS } from './stack-env';

/** The viem clients of one EVM network's anvil in the e2e stack. */
export function evmClients(chain: ChainKey) {
  const c = E2E_EVM_CHAINS.find((x) => x.chain === chain)!;
  const rpc = `http://127.0.0.1:${c.port}`;
  const def = { id: c.chainId, name: chain, nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } } };
  return {
    network: c,
    chain: def,
    rpc,
    client: createPublicClient({ chain: def, transport: http(rpc) }),
    test: createTestClient({ chain: def, mode: 'anvil', transport: http(rpc) }),
  };
}

/** What the checkout's automatic-collection set-up asks an EVM wallet to sign, read from its data-* attributes as a wallet would. */
export async function shownEvmTerms(page: Page) {
  const approve = page.getByTestId('autocollect-approve');
  const authorize = page.getByTestId('autocollect-authorize');
  const [id, authToken, cap, period, start] = JSON.parse((await authorize.getAttribute('data-args'))!) as [Hex, Address, string, number, string];
  return {
    token: (await approve.getAttribute('data-token')) as Address,
    spender: (await approve.getAttribute('data-spender')) as Address,
    amount: BigInt((await approve.getAttribute('data-amount'))!),
    collector: (await authorize.getAttribute('data-collector')) as Address,
    id,
    authToken,
    cap,
    period,
    start,
  };
}
export type EvmTerms = Awaited<ReturnType<typeof shownEvmTerms>>;

/**
 * A payer's wallet on an EVM network of the stack: a fresh key, funded from the faucet, sending with viem on the
 * network's anvil. `terms` keeps what it last signed (the checkout's values) for the spec to compare.
 */
export function evmPayerWallet(chain: ChainKey, asset: Asset): PayerWallet & { terms?: EvmTerms } {
  const { network, chain: def, rpc, client, test } = evmClients(chain);
  const token = network.tokens.find((t) => t.asset === asset)!;
  const account = privateKeyToAccount(generatePrivateKey());
  const signer = createWalletClient({ chain: def, account, transport: http(rpc) });
  const mined = async (hash: Hex) => expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
  const wallet: PayerWallet & { terms?: EvmTerms } = {
    address: account.address,
    async fund(amount) {
      await test.setBalance({ address: account.address, value: parseUnits('1', 18) });
      await mined(await payOnEvm(chain, asset, account.address, amount));
    },
    async pay(to, amount) {
      await mined(
        await signer.writeContract({
          address: token.address,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [getAddress(to), parseUnits(amount, token.decimals)],
        }),
      );
    },
    async signShown(page) {
      const t = await shownEvmTerms(page);
      wallet.terms = t;
      await mined(await signer.writeContract({ address: t.token, abi: erc20Abi, functionName: 'approve', args: [t.spender, t.amount] }));
      await mined(
        await signer.writeContract({
          address: t.collector,
          abi: COLLECTOR_ABI,
          functionName: 'authorize',
          args: [t.id, t.authToken, BigInt(t.cap), BigInt(t.period), BigInt(t.start)],
        }),
      );
    },
    async revokeAllowance() {
      const t = wallet.terms!;
      await mined(await signer.writeContract({ address: t.token, abi: erc20Abi, functionName: 'approve', args: [t.spender, 0n] }));
    },
    async balance() {
      const held = await client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
      return formatUnits(held, token.decimals);
    },
  };
  return wallet;
}

/**
 * An anvil's clock: `moveTo` sets the chain's time (evm_setTime: the next blocks, interval-mined too, follow it) and
 * mines a block at it; `restore` puts it back on the wall clock, so later specs' invoices on this network are not paid
 * "after expiry" by block time (lib/payments/apply-transfers.ts). Anvil allows the step back.
 */
export function evmClock(chain: ChainKey): ChainClock {
  const { test } = evmClients(chain);
  const setTime = async (at: Date) => {
    await test.request({ method: 'evm_setTime', params: [Math.floor(at.getTime() / 1000)] } as never);
    await test.mine({ blocks: 1 });
  };
  return { moveTo: setTime, restore: () => setTime(new Date()) };
}

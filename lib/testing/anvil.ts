import { freePort } from '@/devtools/ports/free-port';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createTestClient, createWalletClient, getContractAddress, http, parseUnits, publicActions, type Abi, type Address, type Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import type { EvmAddress } from '@/lib/chain/common/address-brand';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import type { EvmNetwork, TokenContract } from '@/lib/chain/network';
import { freezeListOf, type Asset, type ChainKey, type FreezeListFunction } from '@/lib/config/rails';
import type { StablecoinContract } from './tokens/compile-stablecoins';
import stablecoins from './tokens/test-stablecoins.json' with { type: 'json' };
import { deployDisperse } from '@/lib/chain/evm/disperse/deploy-disperse';
import { deployCollector } from '@/lib/chain/evm/collector/deploy-collector';
import type { Mode } from '@/lib/mode';

/**
 * A local chain for dev, tests and benches: anvil on a free 127.0.0.1 port with
 * its own chain id, test stablecoins (lib/testing/tokens/TestStablecoins.sol: mint,
 * pause, and the real contract's freeze list for its rail) and funded gas, hot and
 * faucet wallets.
 */
const ANVIL_BIN = path.resolve(process.cwd(), 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');

/** Wallet keys are fixed derivations of the dev mnemonic's second account, so a dev chain looks the same each start. */
const devKeys = new Map<number, Hex>();
const devAddresses = new Map<Hex, Hex>();
/** Memoised: each derivation runs the mnemonic's 2,048 PBKDF2 rounds (planning six dev chains took 1.2-2.3 s of `npm run dev`'s start). */
function devKey(i: number): Hex {
  let k = devKeys.get(i);
  if (!k) {
    const key = mnemonicToAccount(DEV_MNEMONIC, { accountIndex: 1, addressIndex: i }).getHdKey().privateKey!;
    devKeys.set(i, (k = `0x${Buffer.from(key).toString('hex')}`));
  }
  return k;
}

export { freePort };

export interface AnvilOptions {
  /** Interval mining in seconds (fractions allowed); default: mine on each transaction. */
  blockTime?: number;
  chainId?: number;
  port?: number;
  /** Test USDT minted to the faucet. */
  faucetSupply?: string;
  /** The network this chain stands for (default BSC). */
  chain?: ChainKey;
  /** Token contracts to deploy, at their real decimals (default: USDT with 18, as on BSC). */
  tokens?: { asset: Asset; decimals: number }[];
}

export type AnvilChain = Awaited<ReturnType<typeof startAnvil>>;

/**
 * What startAnvil will make of these options, known before it runs: the faucet's first transactions deploy the
 * tokens in order, so their addresses follow from its nonces. `npm run dev` starts Next with it while the chains
 * are still starting (issue 45) and checks each started chain against it.
 */
export function planAnvil(opts: { port: number; chainId: number; tokens: { asset: Asset; decimals: number }[] }) {
  const keys = { faucet: devKey(0), gas: devKey(1), hot: devKey(2), fee: devKey(3), other: devKey(4), collectorAdmin: devKey(5) };
  const addr = (k: Hex) => devAddresses.get(k) ?? devAddresses.set(k, privateKeyToAccount(k).address).get(k)!;
  const tokens: TokenContract<'evm'>[] = opts.tokens.map((t, i) => ({
    asset: t.asset,
    decimals: t.decimals,
    address: EVM_ADDRESS_CODEC.parse(getContractAddress({ from: addr(keys.faucet), nonce: BigInt(i) })),
  }));
  // startAnvil's faucet deploys every token, mints each once, then deploys the disperse contract and the collector.
  const disperse = EVM_ADDRESS_CODEC.parse(getContractAddress({ from: addr(keys.faucet), nonce: BigInt(2 * opts.tokens.length) }));
  const collector = EVM_ADDRESS_CODEC.parse(getContractAddress({ from: addr(keys.faucet), nonce: BigInt(2 * opts.tokens.length + 1) }));
  return {
    rpcUrl: `http://127.0.0.1:${opts.port}`,
    chainId: opts.chainId,
    port: opts.port,
    keys,
    addresses: { faucet: addr(keys.faucet), gas: addr(keys.gas), hot: addr(keys.hot), fee: addr(keys.fee) },
    tokens,
    disperse,
    collector,
    tokenOf: (asset: Asset) => tokens.find((t) => t.asset === asset)!.address,
  };
}
export type PlannedAnvil = ReturnType<typeof planAnvil>;

/** The stand-in with the freeze list the rails table declares for a rail's token (none: a plain ERC-20). */
const CONTRACT_OF: Record<FreezeListFunction | 'none', StablecoinContract> = {
  none: 'TestToken',
  isBlackListed: 'TestTetherToken',
  isBlocked: 'TestTetherTokenV2',
  isBlacklisted: 'TestFiatToken',
};

/** How each stand-in freezes a holder, as its real counterpart's owner does. */
const FREEZE_FN: Record<FreezeListFunction, { freeze: string; thaw: string }> = {
  isBlackListed: { freeze: 'addBlackList', thaw: 'removeBlackList' },
  isBlocked: { freeze: 'addToBlockedList', thaw: 'removeFromBlockedList' },
  isBlacklisted: { freeze: 'blacklist', thaw: 'unBlacklist' },
};

/** A stand-in's ABI and creation code (constructor: name, symbol, decimals). Every one has mint, pause and unpause. */
export function tokenArtifact(contract: StablecoinContract = 'TestToken'): { abi: Abi; bytecode: Hex } {
  const c = stablecoins.contracts[contract];
  return { abi: c.abi as Abi, bytecode: c.bytecode as Hex };
}

async function waitForRpc(url: string, proc: ChildProcess) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`anvil exited with ${proc.exitCode}`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('anvil did not start within 15 s');
}

export async function startAnvil(opts: AnvilOptions = {}) {
  const port = opts.port ?? (await freePort());
  // A distinct chain id per chain keeps invoices, cursors and nonces of parallel test files apart.
  const chainId = opts.chainId ?? 100_000 + Math.floor(Math.random() * 800_000);
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--accounts', '0', '--silent'];
  if (opts.blockTime) args.push('--block-time', String(opts.blockTime));
  const proc = spawn(ANVIL_BIN, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const rpcUrl = `http://127.0.0.1:${port}`;
  await waitForRpc(rpcUrl, proc);

  const chain = {
    id: chainId,
    name: 'anvil',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } as const;
  const client = createTestClient({ chain, mode: 'anvil', transport: http(rpcUrl), cacheTime: 0, pollingInterval: 50 }).extend(publicActions);
  const keys = { faucet: devKey(0), gas: devKey(1), hot: devKey(2), fee: devKey(3), other: devKey(4), collectorAdmin: devKey(5) };
  const addr = (k: Hex): EvmAddress => EVM_ADDRESS_CODEC.parse(privateKeyToAccount(k).address);
  for (const k of Object.values(keys)) await client.setBalance({ address: addr(k), value: parseUnits('1000', 18) });

  const faucet = createWalletClient({ chain, account: privateKeyToAccount(keys.faucet), transport: http(rpcUrl), cacheTime: 0, pollingInterval: 50 });
  const { abi } = tokenArtifact();
  const decimalsOf = new Map<string, number>();
  const deploy = async (name: string, decimals = 18, symbol = 'USDT', contract: StablecoinContract = 'TestToken') => {
    const artifact = tokenArtifact(contract);
    const hash = await faucet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: [name, symbol, decimals] });
    const receipt = await client.waitForTransactionReceipt({ hash });
    decimalsOf.set(receipt.contractAddress!.toLowerCase(), decimals);
    return EVM_ADDRESS_CODEC.parse(receipt.contractAddress!);
  };
  const chainKey = opts.chain ?? 'BSC';
  const tokens: TokenContract<'evm'>[] = [];
  for (const t of opts.tokens ?? [{ asset: 'USDT' as const, decimals: 18 }]) {
    const contract = CONTRACT_OF[freezeListOf(chainKey, t.asset) ?? 'none'];
    tokens.push({ asset: t.asset, decimals: t.decimals, address: await deploy(`${t.asset} (test)`, t.decimals, t.asset, contract) });
  }
  /** Freezes (or thaws) a holder on a token's own freeze list, as its issuer would; a token without one throws. */
  const setFrozen = async (holder: Address, asset: Asset, frozen = true) => {
    const fn = freezeListOf(chainKey, asset);
    if (!fn) throw new Error(`${asset} on ${chainKey} has no freeze list`);
    const hash = await faucet.writeContract({
      address: tokens.find((t) => t.asset === asset)!.address,
      abi: tokenArtifact(CONTRACT_OF[fn]).abi,
      functionName: frozen ? FREEZE_FN[fn].freeze : FREEZE_FN[fn].thaw,
      args: [holder],
    });
    return client.waitForTransactionReceipt({ hash });
  };
  const token = tokens[0]!.address;
  /** Mints `amount` (a decimal string) of a token at its own decimals. */
  const mint = async (to: Address, amount: string, tokenAddress: Address = token) => {
    const units = parseUnits(amount, decimalsOf.get(tokenAddress.toLowerCase()) ?? 18);
    const hash = await faucet.writeContract({ address: tokenAddress, abi, functionName: 'mint', args: [to, units] });
    return client.waitForTransactionReceipt({ hash });
  };
  for (const t of tokens) await mint(faucet.account.address, opts.faucetSupply ?? '1000000000000', t.address);
  const tokenOf = (asset: Asset) => tokens.find((t) => t.asset === asset)!.address;
  // The disperse contract batch payouts go through, approved by the hot wallet for every token (as the operator does once).
  const disperse = EVM_ADDRESS_CODEC.parse(
    await deployDisperse({ rpcUrl, chainId, deployerKey: keys.faucet, hotWalletKey: keys.hot, tokens: tokens.map((t) => t.address) }),
  );
  // The subscription collector: the gas wallet pulls (it pays the gas), a key of its own allows the pulls' destinations.
  const collector = EVM_ADDRESS_CODEC.parse(
    await deployCollector({ rpcUrl, chainId, deployerKey: keys.faucet, admin: addr(keys.collectorAdmin), operator: addr(keys.gas) }),
  );
  // The approvals cost the hot wallet gas: every wallet starts the chain with exactly 1,000 of the coin again.
  for (const k of Object.values(keys)) await client.setBalance({ address: addr(k), value: parseUnits('1000', 18) });

  const network = (mode: Mode, overrides: Partial<EvmNetwork> = {}): EvmNetwork => ({
    family: 'evm',
    mode,
    chain: opts.chain ?? 'BSC',
    token: tokens[0]!.asset,
    chainId,
    rpcUrl,
    tokenAddress: token,
    decimals: tokens[0]!.decimals,
    tokens,
    confirmations: 5,
    startBlock: undefined,
    depositMnemonic: DEV_MNEMONIC,
    gasWalletKey: keys.gas,
    feeWallet: addr(keys.fee),
    hotWalletKey: keys.hot,
    faucetKey: mode === 'test' ? keys.faucet : undefined,
    disperseAddress: disperse,
    collectorAddress: collector,
    collectorAdminKey: keys.collectorAdmin,
    ...overrides,
  });

  return {
    rpcUrl,
    chainId,
    port,
    token,
    keys,
    addresses: { faucet: addr(keys.faucet), gas: addr(keys.gas), hot: addr(keys.hot), fee: addr(keys.fee) },
    client,
    faucet,
    network,
    /** The deployed token contracts (the network's `tokens`). */
    tokens,
    tokenOf,
    /** The disperse contract (lib/chain/evm/disperse/Disperse.sol), approved by the hot wallet for every token above. */
    disperse,
    /** The subscription collector (lib/chain/evm/collector/SubscriptionCollector.sol): operator the gas wallet, admin `keys.collectorAdmin`. */
    collector,
    /** Deploys another ERC-20 (e.g. to check that its transfers are ignored). */
    deployToken: (name: string, decimals = 18, symbol = 'USDT') => deploy(name, decimals, symbol),
    setFrozen,
    mint,
    async tokenBalance(owner: Address, tokenAddress: Address = token): Promise<bigint> {
      return (await client.readContract({ address: tokenAddress, abi, functionName: 'balanceOf', args: [owner] })) as bigint;
    },
    mine: (blocks = 1) => client.mine({ blocks }),
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

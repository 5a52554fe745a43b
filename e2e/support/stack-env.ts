import { pbkdf2Sync } from 'node:crypto';
import { getContractAddress, type Hex } from 'viem';
import { HDKey, mnemonicToAccount, privateKeyToAddress } from 'viem/accounts';
import { DEV_MNEMONIC } from '../../lib/config/network-env';
import { CHAIN_SPECS, UNPREFIXED_RAIL, familyOf, splitRailId, type Asset, type ChainKey } from '../../lib/config/rails';
import { DEV_RAILS } from '../../lib/dev/dev-rails';
import { localSolanaEnv } from '../../lib/dev/local-solana-env';
import { planTronCollector, tronCollectorEnv } from '../../lib/dev/tron-collector';

/**
 * The e2e chain and worker, known before anything starts so the config can
 * hand the same environment to the stack and to both `next start` servers:
 * anvil on a fixed port, wallets derived like lib/testing/anvil.ts,
 * and the test USDT at the faucet's first contract address (its deploy is the
 * faucet's first transaction).
 */
export const ANVIL_PORT = Number(process.env.E2E_ANVIL_PORT ?? 8645);
export const STACK_PORT = Number(process.env.E2E_STACK_PORT ?? 3199);
// A new chain id per run (kept in the environment, which Playwright's workers and servers inherit): a database
// reused from an earlier run then never mistakes the fresh chain for a reorg of the old one.
process.env.E2E_CHAIN_ID ??= String(1_000_000 + Math.floor(Math.random() * 1_000_000));
export const CHAIN_ID = Number(process.env.E2E_CHAIN_ID);
export const EXCHANGE_PORT = Number(process.env.E2E_EXCHANGE_PORT ?? 8646);
/** The stack's mail catcher (maildev, as `npm run dev` starts it): specs read the e-mails at its web API. */
export const MAIL_PORTS = { smtp: Number(process.env.E2E_SMTP_PORT ?? 8648), web: Number(process.env.E2E_MAIL_WEB_PORT ?? 8649) };
export const EXCHANGE_KEY = 'e2e_sim_key';
export const EXCHANGE_SECRET = 'e2e_sim_secret_0123456789abcdef';

function devKey(i: number): Hex {
  const key = mnemonicToAccount(DEV_MNEMONIC, { accountIndex: 1, addressIndex: i }).getHdKey().privateKey!;
  return `0x${Buffer.from(key).toString('hex')}`;
}

export const STACK_KEYS = { faucet: devKey(0), gas: devKey(1), hot: devKey(2), fee: devKey(3) };
export const TOKEN_ADDRESS = getContractAddress({ from: privateKeyToAddress(STACK_KEYS.faucet), nonce: 0n });

/**
 * The TRON stand-in (devtools/tron-node/tron-node.ts) on a fixed port, with its chain id given (a new one per run,
 * like the anvil's) and 2 blocks to solidify, so a payment confirms within seconds at TRON's 3 s blocks. Its
 * wallets are the dev mnemonic's m/44'/195'/1'/0/i (issuer 0, gas 1, hot 2, other 4, the faucet), and its USDT is
 * the issuer's first contract on the engine: all known before it starts.
 */
export const TRON_PORT = Number(process.env.E2E_TRON_PORT ?? 8647);
process.env.E2E_TRON_CHAIN_ID ??= String(1_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
export const TRON_CHAIN_ID = Number(process.env.E2E_TRON_CHAIN_ID);
export const TRON_SOLIDIFY_DEPTH = 2;
function tronKey(i: number): Hex {
  const key = HDKey.fromMasterSeed(pbkdf2Sync(DEV_MNEMONIC, 'mnemonic', 2048, 64, 'sha512')).derive(`m/44'/195'/1'/0/${i}`).privateKey!;
  return `0x${Buffer.from(key).toString('hex')}`;
}
export const TRON_KEYS = { issuer: tronKey(0), gas: tronKey(1), hot: tronKey(2), faucet: tronKey(4) };
/** The stand-in's USDT in its 0x form (the setting takes T… or 0x). */
export const TRON_USDT_ADDRESS = getContractAddress({ from: privateKeyToAddress(TRON_KEYS.issuer), nonce: 0n });
/**
 * The subscription collector on the stand-in, deployed by the energy wallet (`gas`, its admin and operator) right
 * after the stand-in starts (e2e/support/stack.ts): its deploy is built from the chain id and the planning time
 * (lib/dev/tron-collector.ts), so its address is known here. The time is kept in the environment, as the chain ids are.
 */
process.env.E2E_TRON_COLLECTOR_PLANNED_AT ??= String(Date.now());
export const TRON_COLLECTOR = planTronCollector({
  chainId: TRON_CHAIN_ID,
  owner: { hex: `41${privateKeyToAddress(TRON_KEYS.gas).slice(2)}` },
  plannedAtMs: Number(process.env.E2E_TRON_COLLECTOR_PLANNED_AT),
});

/**
 * The Solana stand-in (devtools/solana-node) on a fixed port when a Solana rail is among the dev rails: 400 ms slots
 * as in `npm run dev`, finalized 8 slots behind (3.2 s, so a payment is credited within seconds), its fixed mints and
 * wallets (lib/dev/local-solana-env.ts, the env `npm run dev` sets).
 */
export const SOLANA_PORT = Number(process.env.E2E_SOLANA_PORT ?? 8650);
export const SOLANA_FINALIZED_DEPTH = 8;
export const SOLANA_ON = DEV_RAILS.some((r) => familyOf(splitRailId(r).chain) === 'solana');
const solanaEnv = (): Record<string, string> =>
  SOLANA_ON ? { ...localSolanaEnv('test', `http://127.0.0.1:${SOLANA_PORT}`), TEST_SOLANA_CONFIRMATIONS: String(SOLANA_FINALIZED_DEPTH) } : {};

/**
 * Every EVM network of the dev rails (lib/dev/dev-rails.ts) gets an anvil of its own, its tokens deployed by the faucet in
 * the rails' order at the rails table's decimals (so token i is the faucet's contract at nonce i): the e2e stack enables
 * the rails `npm run dev` does, and e2e/rail-matrix.spec.ts loops over them. The default rail's network is the anvil above.
 */
const railsOn = (chain: ChainKey): Asset[] =>
  DEV_RAILS.map(splitRailId)
    .filter((r) => r.chain === chain)
    .map((r) => r.token);
const evmNetworks = [...new Set(DEV_RAILS.map((r) => splitRailId(r).chain))].filter((c) => familyOf(c) === 'evm');
export const E2E_EVM_CHAINS = evmNetworks.map((chain, i) => {
  const assets =
    chain === UNPREFIXED_RAIL.chain ? [UNPREFIXED_RAIL.token, ...railsOn(chain).filter((a) => a !== UNPREFIXED_RAIL.token)] : railsOn(chain);
  const key = `E2E_${chain}_CHAIN_ID`;
  process.env[key] ??= chain === UNPREFIXED_RAIL.chain ? String(CHAIN_ID) : String(2_000_000 + i * 1_000_000 + Math.floor(Math.random() * 900_000));
  return {
    chain,
    port: chain === UNPREFIXED_RAIL.chain ? ANVIL_PORT : ANVIL_PORT + 10 + i,
    chainId: Number(process.env[key]),
    tokens: assets.map((asset, nonce) => ({
      asset,
      decimals: CHAIN_SPECS[chain].tokens[asset]!.decimals,
      address: getContractAddress({ from: privateKeyToAddress(STACK_KEYS.faucet), nonce: BigInt(nonce) }),
    })),
    // The subscription collector, deployed by startAnvil's faucet after each token's deploy and mint and the disperse
    // contract (lib/testing/anvil.ts, planAnvil): automatic collection is offered on every EVM rail of the stack.
    collector: getContractAddress({ from: privateKeyToAddress(STACK_KEYS.faucet), nonce: BigInt(2 * assets.length + 1) }),
  };
});
/** The collector's admin (allows pull destinations): the dev key lib/testing/anvil.ts deploys it with. */
export const COLLECTOR_ADMIN_KEY: Hex = devKey(5);

/** The variables of the EVM networks besides the default rail's (names as lib/dev/local-chain-env.ts writes them). */
function otherEvmEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of E2E_EVM_CHAINS) {
    out[`TEST_${c.chain}_COLLECTOR_ADDRESS`] = c.collector;
    out[`TEST_${c.chain}_COLLECTOR_ADMIN_PRIVATE_KEY`] = COLLECTOR_ADMIN_KEY;
    if (c.chain === UNPREFIXED_RAIL.chain) {
      for (const t of c.tokens.slice(1)) out[`TEST_${c.chain}_${t.asset}_ADDRESS`] = t.address;
      continue;
    }
    Object.assign(out, {
      [`TEST_${c.chain}_RPC_URL`]: `http://127.0.0.1:${c.port}`,
      [`TEST_${c.chain}_CHAIN_ID`]: String(c.chainId),
      [`TEST_${c.chain}_START_BLOCK`]: '0',
      // Seconds, not Polygon's 32 blocks: the screens need a paid invoice per rail.
      [`TEST_${c.chain}_CONFIRMATIONS`]: '2',
    });
    for (const t of c.tokens) out[`TEST_${c.chain}_${t.asset}_ADDRESS`] = t.address;
  }
  return out;
}

export function stackEnv(): Record<string, string> {
  return {
    TEST_RPC_URL: `http://127.0.0.1:${ANVIL_PORT}`,
    TEST_CHAIN_ID: String(CHAIN_ID),
    TEST_TOKEN_ADDRESS: TOKEN_ADDRESS,
    TEST_START_BLOCK: '0',
    TEST_CONFIRMATIONS: '2',
    TEST_DEPOSIT_MNEMONIC: DEV_MNEMONIC,
    TEST_GAS_WALLET_PRIVATE_KEY: STACK_KEYS.gas,
    TEST_FEE_WALLET_ADDRESS: privateKeyToAddress(STACK_KEYS.fee),
    TEST_HOT_WALLET_PRIVATE_KEY: STACK_KEYS.hot,
    TEST_FAUCET_PRIVATE_KEY: STACK_KEYS.faucet,
    // The dev stack's rails (lib/dev/dev-rails.ts): BSC, Ethereum and Polygon on anvils, USDT on TRON, USDC and USDT on Solana (the stand-ins).
    RAILS: DEV_RAILS.join(','),
    ...otherEvmEnv(),
    TEST_TRON_RPC_URL: `http://127.0.0.1:${TRON_PORT}`,
    TEST_TRON_CHAIN_ID: String(TRON_CHAIN_ID),
    TEST_TRON_START_BLOCK: '0',
    TEST_TRON_CONFIRMATIONS: String(TRON_SOLIDIFY_DEPTH),
    TEST_TRON_USDT_ADDRESS: TRON_USDT_ADDRESS,
    TEST_TRON_GAS_WALLET_PRIVATE_KEY: TRON_KEYS.gas,
    TEST_TRON_HOT_WALLET_PRIVATE_KEY: TRON_KEYS.hot,
    TEST_TRON_FAUCET_PRIVATE_KEY: TRON_KEYS.faucet,
    ...solanaEnv(),
    ...tronCollectorEnv('test', TRON_COLLECTOR.address, TRON_KEYS.gas),
    // Deliveries may reach the spec's receiver on loopback, and the 8-attempt schedule (38 h) shrinks to about 3 s.
    WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.0/8',
    WEBHOOK_RETRY_SCALE: '0.00002',
    // Test mode's exchange: the local FixedFloat-compatible simulator the stack starts.
    TEST_EXCHANGE_URL: `http://127.0.0.1:${EXCHANGE_PORT}`,
    TEST_EXCHANGE_API_KEY: EXCHANGE_KEY,
    TEST_EXCHANGE_API_SECRET: EXCHANGE_SECRET,
    // E-mails go to the stack's maildev (test-mode recipients on reserved domains are sent anyway).
    SMTP_URL: `smtp://127.0.0.1:${MAIL_PORTS.smtp}`,
    // The console's solvency page shows a run within seconds of the stack starting and of a payment.
    SOLVENCY_EVERY_SECONDS: '10',
  };
}

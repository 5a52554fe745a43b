import { sql, type SQL } from 'drizzle-orm';
import { isAddress, zeroAddress } from 'viem';
import { depositAddressPool, invoices } from '@/db/schema';
import { ApiError, type ErrorCode } from '@/lib/api/errors';
import { getNetworks, type Network } from '@/lib/chain/network';
import { CHAIN_SPECS, familyOf, type ChainFamily } from '@/lib/config/rails';
import { addressFamilyOf, addressProblem } from '@/lib/chain/address-rules';
import { accountBytes, ADDRESS_CODECS, storedForms } from '@/lib/chain/address-codecs';
import type { EvmAddress, StoredAddress, TronWireAddress, WireAddress } from '@/lib/chain/common/address-brand';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { SOLANA_ADDRESS_CODEC } from '@/lib/chain/solana/address-codec';
import { SolanaAddressError } from '@/lib/chain/solana/address';
import { EVM_ADDRESS_RULE } from '@/lib/chain/evm/address-rule';
import { TronAddressError } from '@/lib/chain/tron/address';
import { rowsOf, type Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { ourAddresses } from './our-addresses';
import { refuseBlacklisted } from './refuse-blacklisted';
import { refuseScreened } from './refuse-screened';
import { refuseScreenedByAdapters } from './refuse-screened-by-adapters';
import { refuseUnreceivable } from './refuse-unreceivable';

/**
 * Where money may be sent: the one module for withdrawals, refunds (merchant, payer proposals,
 * auto-refunds), sends-back of held payments and the withdrawal allow-list, on every network.
 * Refused, each with its own code (docs/withdrawals.md, "Destinations"):
 * - `invalid_address`: not 0x + 40 hex, a mixed-case address with a bad checksum, the zero address;
 * - `destination_own_wallet`: one of our wallets on that network (fee, gas, hot, faucet): it would pay ourselves;
 * - `destination_token_contract`: a token contract of that network: tokens sent to a contract are lost;
 * - `destination_deposit_address`: any deposit address of this gateway, issued to an invoice on any network
 *   or waiting in the pool (an address is the same on every EVM chain): it would come back as a payment;
 * - `destination_blacklisted`: on the token contract's freeze list, read from the chain (refuse-blacklisted.ts);
 * - `destination_screened`: on the OFAC SDN snapshot (refuse-screened.ts, lib/screening).
 */
export function refused(code: ErrorCode, path: string, message: string) {
  return new ApiError(code, `${path}: ${message}`, [{ path, message }]);
}

/** Format only: 0x + 40 hex, a valid checksum when mixed case, not the zero address. Returns the checksummed address. */
export function parseAddress(raw: string, path: string): EvmAddress {
  if (!EVM_ADDRESS_RULE.pattern.test(raw)) throw refused('invalid_address', path, `must be ${EVM_ADDRESS_RULE.shape}`);
  const mixedCase = raw.slice(2) !== raw.slice(2).toLowerCase() && raw.slice(2) !== raw.slice(2).toUpperCase();
  if (mixedCase && !isAddress(raw, { strict: true })) throw refused('invalid_address', path, 'has an invalid checksum (check for a typo)');
  const address = EVM_ADDRESS_CODEC.parse(raw.toLowerCase());
  if (address.toLowerCase() === zeroAddress) throw refused('invalid_address', path, 'must not be the zero address');
  return address;
}

/** A TRON destination: Base58Check `T…` with a valid checksum, not the zero address. Returns the `T…` form. */
export function parseTronDestination(raw: string, path: string): TronWireAddress {
  try {
    return TRON_ADDRESS_CODEC.parse(raw);
  } catch (err) {
    if (err instanceof TronAddressError) throw refused('invalid_address', path, err.message);
    throw err;
  }
}

/** A Solana destination: Base58 of 32 bytes, not the System Program. Format only: whether it can receive is the lane's (judgeSolanaDestination). */
export function parseSolanaDestination(raw: string, path: string): WireAddress<'solana'> {
  try {
    return SOLANA_ADDRESS_CODEC.parse(raw);
  } catch (err) {
    if (err instanceof SolanaAddressError) throw refused('invalid_address', path, err.message);
    throw err;
  }
}

/** Each family's destination parser: format, checksum, not the zero address; returns the wire form. */
const PARSE: { [F in ChainFamily]: (raw: string, path: string) => WireAddress<F> } = {
  evm: parseAddress,
  tron: parseTronDestination,
  solana: parseSolanaDestination,
};

/** Format only, before the network is known: by the family whose form it has (EVM's words when none). Returns the wire form. */
export function parseAnyAddress(raw: string, path: string): WireAddress {
  return PARSE[addressFamilyOf(raw) ?? 'evm'](raw, path);
}

/**
 * The address in the network's wire form (EIP-55 `0x…` or `T…`), format checks only. The shape is the family's
 * address rule, the one the dashboard's forms and the checkout check first, so both refuse with the same words.
 */
export function parseAddressOn(net: Pick<Network, 'chain'>, raw: string, path: string): WireAddress {
  const problem = addressProblem(net.chain, raw);
  if (problem) throw refused('invalid_address', path, problem);
  return PARSE[familyOf(net.chain)](raw, path);
}

/** The stored form of a wire address (invoices.deposit_address) in its own family: `41…` for `T…`, lower-case `0x…`. */
export const storedForm = (address: string): StoredAddress => ADDRESS_CODECS[addressFamilyOf(address) ?? 'evm'].storedForm(accountBytes(address));

function refuseOurs(net: Network, wire: WireAddress, path: string): void {
  const ours = ourAddresses(net);
  const name = CHAIN_SPECS[net.chain].name;
  // The 20 bytes every family shares: our wallets and contracts are compared in them.
  const address = accountBytes(wire);
  if (ours.wallets.has(address.toLowerCase())) throw refused('destination_own_wallet', path, `is one of this gateway's own wallets on ${name}`);
  if (ours.tokens.has(address.toLowerCase())) {
    throw refused('destination_token_contract', path, `is a token contract on ${name}, not a wallet: tokens sent there are lost`);
  }
}

/**
 * The checks that need no database, on the network the money would move on, the SDN screening included (`screen`
 * false only for a send-back created inside its sweep's credit transaction: the lane screens it before signing).
 * Returns the wire form (EIP-55 or `T…`).
 */
export function parseDestination(net: Network, raw: string, path = 'destinationAddress', screen = true): WireAddress {
  const address = parseAddressOn(net, raw, path);
  refuseOurs(net, address, path);
  if (screen) refuseScreened(familyOf(net.chain), address, path);
  return address;
}

/**
 * SQL that is true when the address is none of our deposit addresses (the single-statement withdrawal's guard).
 * Takes a wire address of any family and compares its 20 bytes (the family codecs), not its spelling: invoices
 * store an EVM address lower-case and a TRON one as `41…`, the pool EIP-55, and the same key holds both accounts, so
 * the `0x` form of a TRON deposit address (or the `T…` form of an EVM one) is a deposit address too (issue 42 §2).
 */
export function notDepositAddressSql(address: WireAddress): SQL {
  const bytes = accountBytes(address);
  const stored = sql.join(
    storedForms(bytes).map((f) => sql`${f}`),
    sql`, `,
  );
  // The pool holds the derivation's EIP-55 form (db/schema/invoices.ts), whatever network later claims it: only
  // accounts of its length can be in it (a Solana key's 32 bytes never are).
  const pooled =
    bytes.length === 2 + 2 * ADDRESS_CODECS.evm.byteLength
      ? sql`and not exists (select 1 from ${depositAddressPool} where ${depositAddressPool.address} = ${ADDRESS_CODECS.evm.wireForm(bytes)})`
      : sql``;
  return sql`not exists (select 1 from ${invoices} where ${invoices.depositAddress} in (${stored})) ${pooled}`;
}

/** Refuses one of our deposit addresses (issued or pooled, any network, in any family's form). */
export async function refuseDepositAddress(db: Db, address: WireAddress, path = 'destinationAddress'): Promise<void> {
  // Plain SQL: this runs on every withdrawal, and a builder query costs more CPU to assemble than to run.
  const [row] = rowsOf<{ ok: boolean }>(await db.execute(sql`select (${notDepositAddressSql(address)}) as ok`));
  if (!row!.ok)
    throw refused('destination_deposit_address', path, 'is a deposit address of this gateway: money sent there would come back as a payment');
}

/** Every check, on the network the money would move on (TRON: the USDT blacklist too). Returns the wire form (EIP-55 or `T…`). */
export async function checkDestination(db: Db, net: Network, raw: string, path = 'destinationAddress'): Promise<WireAddress> {
  const address = parseDestination(net, raw, path);
  await refuseDepositAddress(db, address, path);
  await refuseBlacklisted(net, address, path);
  await refuseUnreceivable(net, address, path);
  await refuseScreenedByAdapters(familyOf(net.chain), address, path);
  return address;
}

/**
 * The dashboard's check as the address field loses focus, on the rail the form has picked: format (that network's
 * family), ours, any deposit address. The TRON blacklist is read when the withdrawal or refund is made.
 */
export async function precheckDestination(db: Db, net: Network, raw: string, path = 'destinationAddress'): Promise<WireAddress> {
  const address = parseDestination(net, raw, path);
  await refuseDepositAddress(db, address, path);
  return address;
}

/**
 * Every check against every enabled network of the mode, for an address not tied to one network yet
 * (the allow-list, the dashboard's check as the field loses focus): ours or a token contract on any of them is refused.
 */
export async function checkDestinationOnAnyNetwork(db: Db, mode: Mode, raw: string, path = 'destinationAddress'): Promise<WireAddress> {
  // An address of one family can only be paid on that family's networks: checked against those.
  const address = parseAnyAddress(raw, path);
  const family = addressFamilyOf(address)!;
  for (const net of getNetworks(mode)) if (familyOf(net.chain) === family) refuseOurs(net, address, path);
  refuseScreened(family, address, path);
  await refuseDepositAddress(db, address, path);
  await refuseScreenedByAdapters(family, address, path);
  return address;
}

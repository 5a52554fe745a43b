import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import type { EvmAddress, StoredAddress, TronAddress, TronStoredAddress, TronWireAddress, WireAddress } from './common/address-brand';
import { EVM_ADDRESS_CODEC } from './evm/address-codec';
import { TRON_ADDRESS_CODEC } from './tron/address-codec';
import { freezeListCall, readEvmFreezeList } from './freeze-list';
import type { EvmNetwork, Network, TronNetwork } from './network';
import { transferData } from '@/lib/withdrawals/lane-helpers';
import type { TronBlockRef } from './tron/parse';
import { buildTrc20Transfer } from './tron/transactions';

/**
 * Issue 43 §2: addresses are branded per family and made only by the family's codec, so `tsc --noEmit` (which
 * checks this file) refuses a TRON address where an EVM one is expected and the reverse. Each `@ts-expect-error`
 * below fails the type check if the line under it ever compiles; the runtime assertions only keep vitest honest.
 */
const evm: EvmAddress = EVM_ADDRESS_CODEC.parse('0x8ba1f109551bd432803012645ac136ddd64dba72');
const tronWire: TronWireAddress = TRON_ADDRESS_CODEC.parse('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
const tronStored: TronStoredAddress = TRON_ADDRESS_CODEC.parseStored('41a614f803b6fd780986a42c78ec9c7f77e6ded13c');

function takesEvm(a: EvmAddress) {
  return a;
}
function takesTron(a: TronAddress) {
  return a;
}
function takesViem(a: Address) {
  return a;
}

describe('branded addresses (compile-time checks)', () => {
  it('refuses the other family at compile time and keeps the codec as the only maker', () => {
    // Type-checked, never run: a wrong call would throw at run time (viem cannot encode `T…`).
    const checks = () => {
      // An EVM address is viem's Address: no cast between the codec and viem.
      takesViem(evm);
      takesEvm(evm);
      takesTron(tronWire);
      takesTron(tronStored);

      // @ts-expect-error a TRON wire address where an EVM one is expected
      takesEvm(tronWire);
      // @ts-expect-error a TRON stored address where an EVM one is expected
      takesEvm(tronStored);
      // @ts-expect-error a TRON address cannot reach viem
      takesViem(tronWire);
      // @ts-expect-error an EVM address where a TRON one is expected
      takesTron(evm);
      // @ts-expect-error a string nobody parsed is no address of any family
      takesEvm('0x8ba1f109551bd432803012645ac136ddd64dba72');
      // @ts-expect-error a template-literal `0x…` is not enough: only the codec brands
      takesEvm('0x8ba1f109551bd432803012645ac136ddd64dba72' as `0x${string}`);
      // @ts-expect-error a `T…` string nobody parsed
      takesTron('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
      // @ts-expect-error wire and stored forms differ: a stored EVM address is not a wire one
      takesEvm(EVM_ADDRESS_CODEC.parseStored(evm));

      // The money path's own signatures: an ERC-20 transfer, the EVM freeze-list read, a TRC-20 transfer.
      transferData(evm, 1n);
      // @ts-expect-error an ERC-20 transfer to a TRON address
      transferData(tronWire, 1n);
      const net = { chain: 'ETHEREUM', token: 'USDT', tokenAddress: evm } as const;
      freezeListCall(net, evm);
      // @ts-expect-error the EVM freeze list read for a TRON address
      freezeListCall(net, tronStored);
      const ref: TronBlockRef = { number: 1, id: '00'.repeat(32), parentId: '00'.repeat(32), timestamp: 0 };
      const trc20 = { token: tronStored, from: tronStored, amount: 1n, feeLimitSun: 1, ref, lifetimeMs: 1 };
      void (() => buildTrc20Transfer({ ...trc20, to: tronWire }));
      // @ts-expect-error a TRC-20 transfer to an EVM address
      void (() => buildTrc20Transfer({ ...trc20, to: evm }));

      // Networks are a union by family (issue 43 §2): a TRON network is no EVM one, its contract is `T…`, and an
      // EVM-only field does not exist on it.
      const evmNet: EvmNetwork = { family: 'evm', mode: 'test', chain: 'ETHEREUM', token: 'USDT', chainId: 1, decimals: 6, confirmations: 1 };
      const tronNet: TronNetwork = { family: 'tron', mode: 'test', chain: 'TRON', token: 'USDT', chainId: 2, decimals: 6, confirmations: 1 };
      void readEvmFreezeList({ ...evmNet, rpcUrl: 'http://127.0.0.1' }, evm);
      // @ts-expect-error a TRON network where an EVM one is expected
      void readEvmFreezeList({ ...tronNet, rpcUrl: 'http://127.0.0.1' }, evm);
      freezeListCall({ ...evmNet, tokenAddress: evm }, evm);
      // @ts-expect-error a TRON network's contract (`T…`) in an EVM eth_call
      freezeListCall({ ...tronNet, tokenAddress: tronWire }, evm);
      // @ts-expect-error an EVM network holds its token contract in the EVM form only
      void ({ ...evmNet, tokenAddress: tronWire } satisfies EvmNetwork);
      // @ts-expect-error a TRON network holds its token contract in the TRON form only, never `0x`
      void ({ ...tronNet, tokenAddress: evm } satisfies TronNetwork);
      // @ts-expect-error a TRON network's fee wallet is a TRON address
      void ({ ...tronNet, feeWallet: evm } satisfies TronNetwork);
      // @ts-expect-error an EVM-only field (the gas wallet's floor in the coin) read on a TRON network
      void tronNet.gasWalletLow;
      // @ts-expect-error a TRON-only field read on an EVM network
      void evmNet.allowTrxBurn;
      const anyNet: Network = Math.random() < 2 ? evmNet : tronNet;
      // @ts-expect-error an EVM-only field read on a network of any family, before its family is known
      void anyNet.gasWalletLow;
      // @ts-expect-error any family's network is not an EVM one
      void readEvmFreezeList({ ...anyNet, rpcUrl: 'http://127.0.0.1' }, evm);

      // Any family's forms are unions of the families' brands.
      const any: WireAddress = Math.random() < 2 ? evm : tronWire;
      const stored: StoredAddress = tronStored;
      // @ts-expect-error any family's address is not an EVM one until its codec says so
      takesEvm(any);
      return [any, stored];
    };
    expect(typeof checks).toBe('function');
  });

  it('makes each family its own forms at run time', () => {
    expect(evm).toBe('0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    expect(tronWire).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(TRON_ADDRESS_CODEC.parseStored(tronWire)).toBe(tronStored);
    expect(() => TRON_ADDRESS_CODEC.parse(evm)).toThrow(/EVM/);
    expect(() => TRON_ADDRESS_CODEC.parseStored(evm)).toThrow(/EVM/);
    expect(() => EVM_ADDRESS_CODEC.parse(tronWire)).toThrow();
  });
});

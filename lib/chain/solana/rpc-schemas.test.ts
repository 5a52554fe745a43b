import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_INFO_VINES_JSON,
  LATEST_BLOCKHASH_2792,
  SIGNATURES_FOR_ADDRESS_VOTE,
  SIGNATURE_STATUSES_82,
  TOKEN_ACCOUNTS_BY_OWNER_JSON,
  TRANSACTION_430,
} from './fixtures/rpc-responses';
import { SOLANA_RPC_RESULTS } from './rpc-schemas';

/** Solana's documented answers (fixtures/rpc-responses.ts) parse with the schemas the adapter and the stand-in test use. */
describe('parsing documented Solana RPC responses', () => {
  it('reads getLatestBlockhash and getSignatureStatuses (an unknown signature is null)', () => {
    expect(SOLANA_RPC_RESULTS.getLatestBlockhash.parse(LATEST_BLOCKHASH_2792).value).toEqual({
      blockhash: 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N',
      lastValidBlockHeight: 3090,
    });
    const statuses = SOLANA_RPC_RESULTS.getSignatureStatuses.parse(SIGNATURE_STATUSES_82);
    expect(statuses.value).toEqual([{ slot: 48, confirmations: null, err: null, confirmationStatus: 'finalized' }, null]);
  });

  it('reads getAccountInfo with rentEpoch u64::MAX written as a bare number', () => {
    const info = SOLANA_RPC_RESULTS.getAccountInfo.parse(JSON.parse(ACCOUNT_INFO_VINES_JSON));
    expect(info.value).toMatchObject({ lamports: 88849814690250, owner: '11111111111111111111111111111111', data: ['', 'base58'] });
  });

  it('reads jsonParsed token accounts: the amount is an exact bigint of base units', () => {
    const accounts = SOLANA_RPC_RESULTS.getTokenAccountsByOwner.parse(JSON.parse(TOKEN_ACCOUNTS_BY_OWNER_JSON));
    const info = accounts.value[0]!.account.data.parsed.info;
    expect(info).toMatchObject({ owner: 'A1TMhSGzQxMr1TboBKtgixKz1sS6REASMxPo1qsyTSJd', state: 'initialized' });
    expect(info.tokenAmount.amount).toBe(420_000_000_000_000n);
    expect(info.tokenAmount.decimals).toBe(6);
  });

  it('reads getSignaturesForAddress and getTransaction (json encoding)', () => {
    expect(SOLANA_RPC_RESULTS.getSignaturesForAddress.parse(SIGNATURES_FOR_ADDRESS_VOTE)[0]).toMatchObject({
      slot: 114,
      memo: null,
      confirmationStatus: 'finalized',
    });
    const tx = SOLANA_RPC_RESULTS.getTransaction.parse(TRANSACTION_430)!;
    expect(tx.meta!.fee).toBe(5000);
    expect(tx.meta!.preBalances[0]! - tx.meta!.postBalances[0]!).toBe(5000);
    expect(tx.transaction.message.instructions[0]!.programIdIndex).toBe(4);
    expect(SOLANA_RPC_RESULTS.getTransaction.parse(null)).toBeNull();
  });

  it('refuses answers of another shape rather than defaulting', () => {
    expect(() =>
      SOLANA_RPC_RESULTS.getLatestBlockhash.parse({ context: { slot: 1 }, value: { blockhash: '0xabc', lastValidBlockHeight: 3 } }),
    ).toThrow();
    expect(() => SOLANA_RPC_RESULTS.getTokenAccountsByOwner.parse({ context: { slot: 1 }, value: [{ pubkey: 'x', account: {} }] })).toThrow();
    const floatAmount = TOKEN_ACCOUNTS_BY_OWNER_JSON.replace('"amount":"420000000000000"', '"amount":420000000000000');
    expect(() => SOLANA_RPC_RESULTS.getTokenAccountsByOwner.parse(JSON.parse(floatAmount))).toThrow();
  });
});

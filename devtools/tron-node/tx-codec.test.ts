import { describe, expect, it } from 'vitest';
import { CREATETRANSACTION, TRIGGER_TX } from '@/lib/chain/tron/fixtures/node-responses';
import { decodeTx } from './tx-codec';

describe('the stand-in hashes transactions as java-tron does', () => {
  it('re-serializes raw_data to the bytes and txID a real node produced', () => {
    for (const tx of [CREATETRANSACTION, TRIGGER_TX]) {
      const { txId, rawDataHex } = decodeTx({ ...tx, raw_data_hex: undefined });
      expect(rawDataHex).toBe(tx.raw_data_hex);
      expect(txId).toBe(tx.txID);
    }
  });
});

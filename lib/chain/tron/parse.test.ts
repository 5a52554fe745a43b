import { describe, expect, it } from 'vitest';
import {
  GETBLOCK_66987565,
  GETNOWBLOCK_66987627,
  RPC_BLOCK_0x3FE1C00,
  RPC_LOGS_0x3FE1CA0,
  TXINFO_01B4CDE4,
  TXINFOS_BLOCK_66987565,
} from './fixtures/node-responses';
import { isEmptyAnswer, parseRpcBlock, parseTransferLog, parseTxInfo, parseWalletBlock } from './parse';

/** Real java-tron answers (TRON's documentation, fixtures/node-responses.ts) parse as the adapter expects. */
describe('parsing real java-tron responses', () => {
  it('reads /wallet/getblock and /wallet/getnowblock blocks', () => {
    expect(parseWalletBlock(GETBLOCK_66987565)).toEqual({
      number: 66987565,
      id: '0000000003fe262d52bfa4b2814f816fd2e57af5b98a33d60d8630a03a908e0e',
      parentId: '0000000003fe262c85cd6b02033f4c3e5c1efa35de256a17bd906dc61fb1aeed',
      timestamp: 1777445121000,
      txIds: [],
    });
    const now = parseWalletBlock(GETNOWBLOCK_66987627);
    expect(now.number).toBe(66987627);
    // A block id starts with its own number: the parser checks it.
    expect(parseInt(now.id.slice(0, 16), 16)).toBe(now.number);
    expect(() => parseWalletBlock({ ...GETBLOCK_66987565, blockID: GETNOWBLOCK_66987627.blockID })).toThrow(/does not carry its number/);
  });

  it('refuses the empty answer java-tron gives for a block it does not have', () => {
    expect(isEmptyAnswer({})).toBe(true);
    expect(() => parseWalletBlock({})).toThrow();
  });

  it('reads a JSON-RPC block: TRON block id as hash, timestamp in seconds', () => {
    expect(parseRpcBlock(RPC_BLOCK_0x3FE1C00)).toEqual({
      number: 0x3fe1c00,
      id: '0000000003fe1c00462b498ddae67717e96c785078adb5ccb7279148916e6f97',
      parentId: '0000000003fe1bff062fa008dcd68f6ab2a96a25bc175df22a04baa0cd391573',
      timestamp: 0x69f18a5c * 1000,
    });
    expect(() => parseRpcBlock(null)).toThrow();
  });

  it('skips logs that are not TRC-20 Transfers', () => {
    expect(parseTransferLog(RPC_LOGS_0x3FE1CA0[0])).toBeNull();
  });

  it('decodes a Transfer log of the same shape into stored forms (41… addresses, ids without 0x)', () => {
    const real = RPC_LOGS_0x3FE1CA0[0]!;
    const transfer = {
      ...real,
      address: '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c',
      topics: [
        '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
        '0x000000000000000000000000dd791d6b49e190062d650e6a23c575510d35f2f9',
        '0x0000000000000000000000009ff8fc48fb114ccd5bbdc24a86f0c73082f08825',
      ],
      data: '0x0000000000000000000000000000000000000000000000000000000000bc4b20',
    };
    expect(parseTransferLog(transfer)).toEqual({
      token: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      txHash: '01b4cde4197b9d1a1ff09ef5d2b1d939d3ec2401b3f002ebd0802c0f30a6e4ca',
      logIndex: 0,
      blockNumber: 0x3fe1ca0,
      blockHash: '0000000003fe1ca05cf728c92ee79f5f2758c3e4e4ea88501826726880e8b81c',
      blockTimestamp: 0x697999ef,
      from: '41dd791d6b49e190062d650e6a23c575510d35f2f9',
      to: '419ff8fc48fb114ccd5bbdc24a86f0c73082f08825',
      value: 12_340_000n,
    });
  });

  it('reads transaction info of a contract call and of a TRX transfer', () => {
    expect(parseTxInfo(TXINFO_01B4CDE4)).toMatchObject({
      txId: '01b4cde4197b9d1a1ff09ef5d2b1d939d3ec2401b3f002ebd0802c0f30a6e4ca',
      blockNumber: 66985120,
      timestamp: 1777437762000,
      fee: 5_254_500n,
      contractRet: 'SUCCESS',
      ok: true,
      energyTotal: 44585,
    });
    const trx = parseTxInfo(TXINFOS_BLOCK_66987565[0]);
    expect(trx).toMatchObject({ ok: true, contractRet: 'SUCCESS', fee: 267_000n, energyTotal: 0 });
    const failed = parseTxInfo({
      ...TXINFO_01B4CDE4,
      result: 'FAILED',
      resMessage: Buffer.from('REVERT opcode executed').toString('hex'),
      receipt: { result: 'REVERT' },
    });
    expect(failed).toMatchObject({ ok: false, contractRet: 'REVERT', message: 'REVERT opcode executed' });
  });
});

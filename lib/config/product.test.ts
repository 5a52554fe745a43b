import { describe, expect, it } from 'vitest';
import { ALL_RAILS, parseRails } from './rails';
import { railsSentence } from './product';

describe('railsSentence', () => {
  it('names only the rails a deployment enables', () => {
    expect(railsSentence(parseRails(undefined))).toBe('USDT on BNB Smart Chain');
    expect(railsSentence(parseRails('BSC:USDC'))).toBe('USDT and USDC on BNB Smart Chain');
    expect(railsSentence(parseRails('ETHEREUM:USDC'))).toBe('USDT on BNB Smart Chain; USDC on Ethereum');
    expect(railsSentence(parseRails('ETHEREUM:USDT,ARBITRUM:USDT'))).toBe('USDT on BNB Smart Chain, Ethereum and Arbitrum One');
  });

  it('every rail: USDT on six networks (none on Base), USDC on six (none on TRON)', () => {
    expect(railsSentence(ALL_RAILS)).toBe(
      'USDT on BNB Smart Chain, Ethereum, Polygon PoS, Arbitrum One, TRON and Solana; USDC on BNB Smart Chain, Ethereum, Polygon PoS, Arbitrum One, Base and Solana',
    );
  });
});

import { z } from 'zod';

/** An EVM contract or account given in configuration: `0x` + 20 bytes in hex, kept as written (typed by its check, so no cast). */
export const evmEnvAddress = z.custom<`0x${string}`>(
  (v) => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v),
  'must be a 0x-prefixed 20-byte hex address',
);

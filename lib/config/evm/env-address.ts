import { z } from 'zod';

/** An EVM contract or account given in configuration: `0x` + 20 bytes in hex, kept as written. */
export const evmEnvAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');

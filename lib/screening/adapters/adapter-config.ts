import { isAddress } from 'viem';
import { z } from 'zod';
import { chainsOf, type ChainKey } from '@/lib/config/rails';
import { env, type Env } from '@/lib/env';
import type { ScreeningAdapter } from './adapter';
import { chainalysisAdapter } from './chainalysis';
import { sanctionsOracleAdapter } from './sanctions-oracle';
import { scoreUrlAdapter } from './score-url';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/** The adapters' configuration, checked as a whole (zod): a key is only ever sent over HTTPS in production. */
export const AdapterConfig = z
  .object({
    production: z.boolean(),
    timeoutMs: z.number().int().min(50).max(30_000),
    chainalysis: z.object({ url: z.string().url(), apiKey: z.string().min(8) }).optional(),
    scoreUrl: z.object({ url: z.string().url(), apiKey: z.string().min(1).optional(), threshold: z.number().min(0).max(100) }).optional(),
    oracle: z
      .object({
        address: z.string().refine((a) => isAddress(a, { strict: false }), 'SCREENING_ORACLE_ADDRESS must be an EVM contract address (0x + 40 hex)'),
        chains: z
          .array(
            z.enum(chainsOf('evm') as [string, ...string[]], {
              message: `SCREENING_ORACLE_CHAINS must name EVM networks: ${chainsOf('evm').join(', ')}`,
            }),
          )
          .optional(),
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    if (!c.production) return;
    if (c.chainalysis && !c.chainalysis.url.startsWith('https://'))
      ctx.addIssue({ code: 'custom', path: ['SCREENING_CHAINALYSIS_URL'], message: 'must be https:// in production (the API key travels with it)' });
    if (c.scoreUrl && !c.scoreUrl.url.startsWith('https://'))
      ctx.addIssue({ code: 'custom', path: ['SCREENING_SCORE_URL'], message: 'must be https:// in production' });
  });
export type AdapterConfig = z.infer<typeof AdapterConfig>;

export interface Adapters {
  timeoutMs: number;
  list: ScreeningAdapter[];
}

let cached: { from: Env; adapters: Adapters } | undefined;

/**
 * The adapters this process asks besides the offline list: none unless configured (the default, production
 * included). A bad combination throws with the variable's name, like lib/env.ts.
 */
export function configuredAdapters(): Adapters {
  const e = env();
  if (cached?.from === e) return cached.adapters;
  const parsed = AdapterConfig.safeParse({
    production: e.APP_ENV === 'production',
    timeoutMs: e.SCREENING_ADAPTER_TIMEOUT_MS,
    chainalysis: e.SCREENING_CHAINALYSIS_API_KEY ? { url: e.SCREENING_CHAINALYSIS_URL, apiKey: e.SCREENING_CHAINALYSIS_API_KEY } : undefined,
    scoreUrl: e.SCREENING_SCORE_URL
      ? { url: e.SCREENING_SCORE_URL, apiKey: e.SCREENING_SCORE_API_KEY, threshold: e.SCREENING_SCORE_THRESHOLD }
      : undefined,
    oracle: e.SCREENING_ORACLE_ADDRESS
      ? { address: e.SCREENING_ORACLE_ADDRESS, chains: e.SCREENING_ORACLE_CHAINS?.split(',').map((c) => c.trim().toUpperCase()) }
      : undefined,
  });
  if (!parsed.success) {
    // Messages only: the parsed input holds the keys.
    throw new Error(`Invalid screening adapter configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const c = parsed.data;
  const list: ScreeningAdapter[] = [];
  if (c.chainalysis) list.push(chainalysisAdapter(c.chainalysis));
  if (c.scoreUrl) list.push(scoreUrlAdapter(c.scoreUrl));
  if (c.oracle)
    list.push(sanctionsOracleAdapter({ address: EVM_ADDRESS_CODEC.parse(c.oracle.address), chains: c.oracle.chains as ChainKey[] | undefined }));
  const adapters = { timeoutMs: c.timeoutMs, list };
  cached = { from: e, adapters };
  return adapters;
}

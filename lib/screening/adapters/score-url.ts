import { z } from 'zod';
import { AdapterFailure, type ScreeningAdapter } from './adapter';
import { readJson } from './read-json';

/** The scoring service's answer: a risk score 0–100, and optionally its own verdict. */
const Answer = z.object({ score: z.number().finite().min(0).max(100), listed: z.boolean().optional() });

/**
 * A paid scoring service by URL (AMLBot-like, behind the operator's own proxy if its API differs): POST
 * `{family, address}` as JSON, `Authorization: Bearer <key>` when a key is set; the address is stopped when the
 * service says `listed: true` or the score reaches the threshold.
 */
export function scoreUrlAdapter(cfg: { url: string; apiKey?: string; threshold: number }): ScreeningAdapter {
  return {
    name: 'score_url',
    async check(family, wireAddress, signal) {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
      const body = await readJson(cfg.url, { method: 'POST', headers, body: JSON.stringify({ family, address: wireAddress }) }, signal);
      const parsed = Answer.safeParse(body);
      if (!parsed.success) throw new AdapterFailure('malformed answer');
      return parsed.data.listed === true || parsed.data.score >= cfg.threshold;
    },
  };
}

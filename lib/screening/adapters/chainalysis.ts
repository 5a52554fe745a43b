import { z } from 'zod';
import { AdapterFailure, type ScreeningAdapter } from './adapter';
import { readJson } from './read-json';

/** Chainalysis's sanctions API answer: the address's identifications, empty when it is on none of its lists. */
const Answer = z.object({
  identifications: z.array(z.object({ category: z.string().optional(), name: z.string().optional() }).passthrough()),
});

/**
 * Chainalysis's free sanctions screening API (`GET /api/v1/address/{address}`, `X-API-Key`): an address with any
 * identification is stopped. The key goes in a header, never in the URL (which traces record, cut to its origin).
 */
export function chainalysisAdapter(cfg: { url: string; apiKey: string }): ScreeningAdapter {
  const base = cfg.url.replace(/\/+$/, '');
  return {
    name: 'chainalysis',
    async check(_family, wireAddress, signal) {
      const body = await readJson(
        `${base}/api/v1/address/${encodeURIComponent(wireAddress)}`,
        { headers: { 'X-API-Key': cfg.apiKey, accept: 'application/json' } },
        signal,
      );
      const parsed = Answer.safeParse(body);
      if (!parsed.success) throw new AdapterFailure('malformed answer');
      return parsed.data.identifications.length > 0;
    },
  };
}

import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { events } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { AnvilChain } from './anvil';
import { call } from './app';

/** Shared steps of the chain-backed invoice tests: create, pay through the test helper, read back. */
export function invoiceHelpers(chain: () => AnvilChain) {
  return {
    async create(key: string, body: Record<string, unknown>) {
      const res = await call('POST', '/v1/invoices', { key, body });
      expect(res.status, res.text).toBe(201);
      return res.body;
    },
    async pay(key: string, id: string, amount: string) {
      const res = await call('POST', `/v1/test-helpers/invoices/${id}/pay`, { key, body: { amount } });
      expect(res.status, res.text).toBe(200);
      await chain().client.waitForTransactionReceipt({ hash: res.body.txHash as Hex });
      return res.body as { txHash: string; to: string };
    },
    async detail(key: string, id: string) {
      const res = await call('GET', `/v1/invoices/${id}`, { key });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
    async eventTypes(db: Db, id: string): Promise<string[]> {
      const rows = await db.select({ type: events.type }).from(events).where(eq(events.subjectId, id)).orderBy(events.createdAt, events.id);
      return rows.map((r) => r.type);
    },
  };
}

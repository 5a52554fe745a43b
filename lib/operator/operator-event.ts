import { operatorEvents } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';

export type OperatorEventType = 'solvency.shortfall' | 'solvency.recovered' | 'gas_wallet.below_floor' | 'gas_wallet.recovered';

/** Appends an operator event in the caller's transaction (the state change it reports commits with it). */
export async function writeOperatorEvent(tx: Db, type: OperatorEventType, subject: string, data: Record<string, unknown>) {
  await tx.insert(operatorEvents).values({ id: newId('operatorEvent'), type, subject, data });
}

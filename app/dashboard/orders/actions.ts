'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { cancelOrder, fulfillOrder } from '@/lib/storefront/orders';

export async function fulfillOrderAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('orders:manage');
    const o = await fulfillOrder(ctx.db, { id: String(id), ...ctx.owner });
    revalidatePath('/dashboard/orders');
    return o;
  });
}

export async function cancelOrderAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('orders:manage');
    const o = await cancelOrder(ctx.db, { id: String(id), ...ctx.owner });
    revalidatePath('/dashboard/orders');
    return o;
  });
}

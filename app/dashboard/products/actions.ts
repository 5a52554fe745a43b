'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createProduct, updateProduct } from '@/lib/storefront/products';
import { CreateProductBody, UpdateProductBody } from '@/lib/storefront/schemas';

// Products of the header's mode; tenant and mode come from the session, never from the form.

export async function createProductAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('products:manage');
    const p = await createProduct(ctx.db, ctx.owner, CreateProductBody.parse(input));
    revalidatePath('/dashboard/products');
    return p;
  });
}

/** Edit, archive (active: false) and restore. */
export async function updateProductAction(id: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('products:manage');
    const p = await updateProduct(ctx.db, { id: String(id), ...ctx.owner }, UpdateProductBody.parse(input));
    revalidatePath('/dashboard/products');
    return p;
  });
}

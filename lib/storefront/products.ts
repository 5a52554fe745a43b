import { and, count, desc, eq } from 'drizzle-orm';
import { products } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import { pageMeta } from '@/lib/api/schemas';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { CreateProductInput, UpdateProductInput } from './schemas';
import { productView } from './views';

type Owner = { tenantId: string; mode: Mode };

export async function getProductOrThrow(db: Db, where: Owner & { id: string }) {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, where.id), eq(products.tenantId, where.tenantId), eq(products.mode, where.mode)));
  if (!row) throw notFound('Product');
  return row;
}

export async function createProduct(db: Db, owner: Owner, input: CreateProductInput) {
  const [row] = await db
    .insert(products)
    .values({
      id: newId('product'),
      ...owner,
      name: input.name,
      description: input.description ?? null,
      price: input.price,
      imageUrl: input.imageUrl ?? null,
      active: input.active,
    })
    .returning();
  return productView(row!);
}

export async function updateProduct(db: Db, where: Owner & { id: string }, input: UpdateProductInput) {
  await getProductOrThrow(db, where);
  const [row] = await db
    .update(products)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(products.id, where.id), eq(products.tenantId, where.tenantId)))
    .returning();
  return productView(row!);
}

export async function listProducts(db: Db, owner: Owner, q: { page: number; limit: number; active?: 'true' | 'false' }) {
  const where = and(
    eq(products.tenantId, owner.tenantId),
    eq(products.mode, owner.mode),
    q.active === undefined ? undefined : eq(products.active, q.active === 'true'),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(desc(products.createdAt), desc(products.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { data: rows.map(productView), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}

'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { CreateProductBody } from '@/lib/storefront/schemas';
import { createProductAction, updateProductAction } from './actions';

interface Product {
  id: string;
  name: string;
  description: string | null;
  price: string;
  imageUrl: string | null;
  active: boolean;
}

/** Create and edit share one form and the API's zod schema; the server's refusal is shown field by field. */
function ProductForm({ product, onDone }: { product?: Product; onDone: () => void }) {
  const router = useRouter();
  const toast = useToast();
  const { errors, formError, busy, submit } = useFormSubmit();
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const text = (k: string) => String(f.get(k) ?? '').trim();
        const input = {
          name: text('name'),
          price: text('price'),
          description: text('description') || undefined,
          imageUrl: text('imageUrl') || undefined,
          active: f.get('active') === 'on',
        };
        const parsed = CreateProductBody.safeParse(input);
        const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () =>
          product
            ? updateProductAction(product.id, { ...input, description: input.description ?? null, imageUrl: input.imageUrl ?? null })
            : createProductAction(input),
        );
        if (!res) return;
        toast(product ? 'Product saved' : `Product “${res.data.name}” created`);
        onDone();
        router.refresh();
      }}
    >
      <FormError message={formError} />
      <Field id="p-name" label="Name" error={errors.name}>
        <input id="p-name" name="name" defaultValue={product?.name} required className={inputClass} />
      </Field>
      <Field id="p-price" label="Price (USDT)" error={errors.price} hint="At most 2 decimals.">
        <input id="p-price" name="price" inputMode="decimal" defaultValue={product?.price} required className={inputClass} />
      </Field>
      <Field id="p-description" label="Description" error={errors.description}>
        <textarea id="p-description" name="description" defaultValue={product?.description ?? ''} rows={3} className={`${inputClass} h-auto py-2`} />
      </Field>
      <Field id="p-image" label="Image URL" error={errors.imageUrl} hint="https only.">
        <input id="p-image" name="imageUrl" type="url" defaultValue={product?.imageUrl ?? ''} className={inputClass} />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" name="active" defaultChecked={product?.active ?? true} /> Active (shown on the store page)
      </label>
      <div className="flex justify-end pt-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : product ? 'Save product' : 'Create product'}
        </Button>
      </div>
    </form>
  );
}

export function ProductFormButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Add product</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Add product">
        <ProductForm onDone={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

export function ProductActions({ product }: { product: Product }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const { busy, run } = useFormSubmit();
  return (
    <span className="inline-flex gap-2">
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Edit
      </Button>
      <Button
        size="sm"
        variant="ghost"
        disabled={busy}
        onClick={async () => {
          const res = await run(() => updateProductAction(product.id, { active: !product.active }));
          if (!res.ok) return toast(res.error.message, 'error');
          toast(product.active ? 'Product archived' : 'Product restored');
          router.refresh();
        }}
      >
        {product.active ? 'Archive' : 'Restore'}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={`Edit ${product.name}`}>
        <ProductForm product={product} onDone={() => setOpen(false)} />
      </Dialog>
    </span>
  );
}

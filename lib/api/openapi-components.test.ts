import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaComponents } from './openapi-components';

describe('SchemaComponents', () => {
  it('puts named schemas once under components, refs from the root, unnamed ones inline', () => {
    const Item = z.object({ sku: z.string() }).meta({ id: 'TestItemC1' });
    const Cart = z.object({ items: z.array(Item), note: z.string().describe('Free text.') }).meta({ id: 'TestCartC1' });
    const c = new SchemaComponents();
    const cartRef = c.schema(Cart, 'output');
    const inline = c.schema(z.object({ first: Item, cart: Cart }), 'output');
    const schemas = c.build();
    expect(cartRef).toEqual({ $ref: '#/components/schemas/TestCartC1' });
    expect(inline).toMatchObject({
      type: 'object',
      properties: { first: { $ref: '#/components/schemas/TestItemC1' }, cart: { $ref: '#/components/schemas/TestCartC1' } },
    });
    expect(Object.keys(schemas)).toEqual(['TestCartC1', 'TestItemC1']);
    expect(schemas.TestCartC1).toMatchObject({
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/TestItemC1' } }, note: { description: 'Free text.' } },
    });
    expect(JSON.stringify(schemas)).not.toContain('$defs');
  });

  it('gives a named schema whose input differs (defaults) an <id>Input twin, and parents that reach it too', () => {
    const Opts = z.object({ size: z.number().default(1) }).meta({ id: 'TestOptsC2' });
    const Req = z.object({ opts: Opts }).meta({ id: 'TestReqC2' });
    const c = new SchemaComponents();
    const body = c.schema(Req, 'input');
    const res = c.schema(Req, 'output');
    const schemas = c.build();
    expect(body).toEqual({ $ref: '#/components/schemas/TestReqC2Input' });
    expect(res).toEqual({ $ref: '#/components/schemas/TestReqC2' });
    expect(schemas.TestReqC2Input!.properties).toEqual({ opts: { $ref: '#/components/schemas/TestOptsC2Input' } });
    expect(schemas.TestOptsC2Input!.required ?? []).not.toContain('size');
    expect(schemas.TestOptsC2!.required).toContain('size');
  });
});

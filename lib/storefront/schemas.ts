import { z } from 'zod';
import { NullableTimestamp, PageQuery, paged, Timestamp } from '@/lib/api/schemas';
import { ORDER_STATUSES } from '@/db/schema/storefront';
import { amountString } from '@/lib/invoices/amount';

const ImageUrl = z
  .string()
  .max(2048)
  .refine((u) => {
    try {
      return new URL(u).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an https URL');

export const CreateProductBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  price: amountString({ maxDecimals: 2, max: '1000000000', example: '19.99' }).describe('Unit price in USDT, at most 2 decimals.'),
  imageUrl: ImageUrl.optional(),
  active: z.boolean().default(true),
});
export type CreateProductInput = z.output<typeof CreateProductBody>;

export const UpdateProductBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).nullable().optional(),
    price: amountString({ maxDecimals: 2, max: '1000000000', example: '24.99' }).optional(),
    imageUrl: ImageUrl.nullable().optional(),
    active: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one field');
export type UpdateProductInput = z.output<typeof UpdateProductBody>;

export const ProductSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: z.string(),
    imageUrl: z.string().nullable(),
    active: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Product' });

export const ListProductsQuery = PageQuery.extend({
  active: z.enum(['true', 'false']).optional().describe('Only active (true) or archived (false) products.'),
});
export const ProductList = paged(ProductSchema);

export const CreateOrderBody = z.strictObject({
  items: z
    .array(z.strictObject({ productId: z.string().max(64), quantity: z.number().int().min(1).max(100) }))
    .min(1, 'must contain at least one item')
    .max(20),
  customerEmail: z.email().max(254),
});
export type CreateOrderInput = z.output<typeof CreateOrderBody>;

export const OrderItemSchema = z.object({
  productId: z.string(),
  name: z.string(),
  unitPrice: z.string(),
  quantity: z.number().int(),
  amount: z.string(),
});

export const OrderSchema = z
  .object({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    items: z.array(OrderItemSchema),
    total: z.string(),
    customerEmail: z.string(),
    invoiceId: z.string(),
    checkoutUrl: z
      .string()
      .describe(
        "Hosted checkout page of the order's invoice, without the payer's claim token: it shows the payment but takes no refund address (the token is in createOrder's response only).",
      ),
    cancelReason: z.string().nullable(),
    paidAt: NullableTimestamp,
    fulfilledAt: NullableTimestamp,
    cancelledAt: NullableTimestamp,
    createdAt: Timestamp,
  })
  .meta({ id: 'Order' });
export type OrderView = z.infer<typeof OrderSchema>;

/** POST /v1/orders: the order and, this once, the customer's checkout URL with the claim token. */
export const CreatedOrderSchema = OrderSchema.extend({
  checkoutUrl: z
    .string()
    .optional()
    .describe(
      "Shown once; carries the payer's secret claim token. Send the customer here (`/pay/<invoiceId>?claim=<token>`): with it they may give a refund address. " +
        'GET and list answers carry the URL without the token; absent from an idempotent replay of this request. See docs/invoices.md#the-payers-claim-token.',
    ),
}).meta({ id: 'CreatedOrder' });

export const ListOrdersQuery = PageQuery.extend({
  status: z.enum(ORDER_STATUSES).optional(),
});
export const OrderList = paged(OrderSchema);

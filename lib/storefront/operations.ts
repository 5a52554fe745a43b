import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import {
  CreateOrderBody,
  CreateProductBody,
  ListOrdersQuery,
  ListProductsQuery,
  OrderList,
  CreatedOrderSchema,
  OrderSchema,
  ProductList,
  ProductSchema,
  UpdateProductBody,
} from './schemas';

const products = 'Storefront products';
const orders = 'Storefront orders';

export const createProductOp = defineOperation({
  id: 'createProduct',
  method: 'POST',
  path: '/v1/products',
  scope: 'orders:manage',
  tag: products,
  summary: 'Create a product',
  body: CreateProductBody,
  example: { name: 'Pro plan (1 month)', price: '19.99', description: 'Monthly subscription' },
  response: ProductSchema,
  status: 201,
});

export const listProductsOp = defineOperation({
  id: 'listProducts',
  method: 'GET',
  path: '/v1/products',
  scope: 'orders:manage',
  tag: products,
  summary: 'List products, newest first',
  query: ListProductsQuery,
  response: ProductList,
});

export const getProductOp = defineOperation({
  id: 'getProduct',
  method: 'GET',
  path: '/v1/products/:id',
  scope: 'orders:manage',
  tag: products,
  summary: 'Get a product',
  params: { id: 'product' },
  query: z.strictObject({}),
  response: ProductSchema,
});

export const updateProductOp = defineOperation({
  id: 'updateProduct',
  method: 'PATCH',
  path: '/v1/products/:id',
  scope: 'orders:manage',
  tag: products,
  summary: 'Change a product (set active: false to take it off the store)',
  params: { id: 'product' },
  body: UpdateProductBody,
  example: { price: '24.99' },
  response: ProductSchema,
});

export const createOrderOp = defineOperation({
  id: 'createOrder',
  method: 'POST',
  path: '/v1/orders',
  scope: 'orders:manage',
  tag: orders,
  summary: 'Place an order (headless storefronts)',
  description:
    'Creates the order and its invoice (30 minutes to pay); send the customer to `checkoutUrl`. The public store page at /store/<slug> does the same.',
  body: CreateOrderBody,
  example: { items: [{ productId: 'prod_01J00000000000000000000000', quantity: 1 }], customerEmail: 'buyer@example.com' },
  response: CreatedOrderSchema,
  status: 201,
  // The claim token is shown once; a replay answers the order without checkoutUrl.
  secretFields: ['checkoutUrl'],
  replayWithoutSecrets: true,
  errors: ['invalid_amount', 'too_many_open_orders'],
});

export const listOrdersOp = defineOperation({
  id: 'listOrders',
  method: 'GET',
  path: '/v1/orders',
  scope: 'orders:manage',
  tag: orders,
  summary: 'List orders, newest first',
  query: ListOrdersQuery,
  response: OrderList,
});

export const getOrderOp = defineOperation({
  id: 'getOrder',
  method: 'GET',
  path: '/v1/orders/:id',
  scope: 'orders:manage',
  tag: orders,
  summary: 'Get an order',
  params: { id: 'order' },
  query: z.strictObject({}),
  response: OrderSchema,
});

export const fulfillOrderOp = defineOperation({
  id: 'fulfillOrder',
  method: 'POST',
  path: '/v1/orders/:id/fulfill',
  scope: 'orders:manage',
  tag: orders,
  summary: 'Mark a paid order fulfilled',
  description: 'PAID → FULFILLED, emits order.fulfilled. 409 invalid_state for other statuses.',
  params: { id: 'order' },
  response: OrderSchema,
  errors: ['invalid_state'],
});

export const cancelOrderOp = defineOperation({
  id: 'cancelOrder',
  method: 'POST',
  path: '/v1/orders/:id/cancel',
  scope: 'orders:manage',
  tag: orders,
  summary: 'Cancel an unpaid order',
  description: 'PENDING_PAYMENT → CANCELLED, emits order.cancelled. Paid orders cannot be cancelled (409).',
  params: { id: 'order' },
  response: OrderSchema,
  errors: ['invalid_state'],
});

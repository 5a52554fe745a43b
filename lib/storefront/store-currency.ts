import { DEFAULT_RAIL } from '@/lib/config/rails';

/** The rail store orders' invoices are paid on: the default rail (USDT on BSC); the store page names it. */
export const STORE_RAIL = DEFAULT_RAIL;

/** Products, orders and their invoices are priced and paid in the store rail's token. */
export const STORE_CURRENCY = STORE_RAIL.token;

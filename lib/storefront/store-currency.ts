import { DEFAULT_RAIL } from '@/lib/config/rails';

/** Products, orders and their invoices are priced and paid in the default rail's token (USDT on BSC). */
export const STORE_CURRENCY = DEFAULT_RAIL.token;

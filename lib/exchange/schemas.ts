import { z } from 'zod';
import { Decimal } from '@/lib/money';
import { Timestamp } from '@/lib/api/schemas';
import { CreateWithdrawalBody, WithdrawalSchema } from '@/lib/withdrawals/schemas';

export const CurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,20}$/, 'must be an exchange currency code such as USDTBSC or BTC')
  .describe('Exchange currency code (FixedFloat codes: USDTBSC = USDT on BNB Smart Chain, BTC, ETH, USDTTRC, ...).');

/** A positive amount as a JSON number (as the spec shows) or a decimal string; kept as an exact decimal string. */
export const ExchangeAmount = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number')])
  .transform((v, ctx) => {
    const d = new Decimal(v);
    if (!d.isFinite() || d.lte(0)) {
      ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
      return z.NEVER;
    }
    if (d.decimalPlaces() > 18 || d.gt('1e12')) {
      ctx.addIssue({ code: 'custom', message: 'at most 18 decimals and 1e12' });
      return z.NEVER;
    }
    return d.toFixed();
  })
  .describe('Amount in fromCcy (direction "from") or toCcy (direction "to"): a JSON number or decimal string.');

export const PairBody = z.strictObject({
  type: z.enum(['float', 'fixed']).describe('fixed: the rate is locked for the order; float: the market rate when the deposit confirms.'),
  fromCcy: CurrencyCode,
  toCcy: CurrencyCode,
  direction: z.enum(['from', 'to']).describe('from: amount is what is sent; to: amount is what the recipient receives.'),
  amount: ExchangeAmount,
});
export const OrderBody = PairBody.extend({
  toAddress: z.string().trim().min(1).max(128).describe('Destination address in toCcy.'),
  tag: z.string().trim().min(1).max(64).optional().describe('Memo / destination tag, for currencies that need one.'),
});
export type OrderInput = z.output<typeof OrderBody>;
/** The automatic withdrawal's body: an order plus the rail it is paid from (extensions, defaults BSC / USDT as for plain withdrawals). */
export const ExchangeWithdrawalBody = OrderBody.extend({
  chain: CreateWithdrawalBody.shape.chain.describe(
    "Extension: the network the gateway sends from (default BSC), among the enabled rails; fromCcy must be the exchange's code of this rail.",
  ),
  token: CreateWithdrawalBody.shape.token.describe('Extension: USDT (default) or USDC; debited from that balance.'),
});
export type ExchangeWithdrawalInput = z.output<typeof ExchangeWithdrawalBody>;
export const DetailsBody = z.strictObject({ id: z.string().trim().min(1).max(64), token: z.string().trim().min(1).max(128) });

const envelope = <T extends z.ZodType>(data: T, id: string) => z.object({ code: z.literal(0), msg: z.string(), data }).meta({ id });

export const CurrencyRecord = z.object({
  code: z.string(),
  coin: z.string(),
  network: z.string(),
  name: z.string(),
  send: z.boolean(),
  recv: z.boolean(),
});
export const CurrencyEnvelope = envelope(z.array(CurrencyRecord), 'ExchangeCurrencies');

const QuoteSide = z.object({ code: z.string(), coin: z.string(), network: z.string(), amount: z.string(), rate: z.string() });
export const PriceRecord = z.object({
  from: QuoteSide,
  to: QuoteSide,
  min: z.string().describe('Smallest amount for the pair, in the currency `direction` names.'),
  max: z.string(),
  errors: z.array(z.string()).describe('Why the pair cannot be exchanged as asked (LIMIT_MIN, LIMIT_MAX, OFFLINE_FROM, ...); empty when it can.'),
});
export const PriceEnvelope = envelope(PriceRecord, 'ExchangePrice');

const Leg = z.object({ code: z.string(), amount: z.string(), address: z.string(), tag: z.string().nullable() });
const Time = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
export const OrderRecord = z
  .object({
    id: z.string(),
    type: z.enum(['fixed', 'float']),
    email: z.string().nullable(),
    status: z.string(),
    time: z.object({ reg: Time, start: Time.nullable(), finish: Time.nullable(), update: Time.nullable(), expiration: Time.nullable() }),
    from: Leg,
    to: Leg,
    emergency: z.object({ status: z.array(z.string()), choice: z.string() }).nullable(),
    token: z.string(),
  })
  .meta({ id: 'ExchangeOrder' });
export const OrderEnvelope = envelope(OrderRecord, 'ExchangeOrderEnvelope');

export const AvailableSchema = z.object({ available: z.boolean() }).meta({ id: 'ExchangeAvailable' });

export const ExchangeWithdrawalResult = z
  .object({
    success: z.literal(true),
    data: z.object({
      withdrawal: WithdrawalSchema,
      exchangeOrder: OrderRecord.pick({ id: true, status: true, from: true, to: true, token: true }),
      txHash: z
        .string()
        .nullable()
        .describe('The token transfer to the exchange; null only if the hot wallet could not send yet (see withdrawal.pendingReason).'),
    }),
    meta: z.object({ timestamp: Timestamp }),
  })
  .meta({ id: 'ExchangeWithdrawalResult' });

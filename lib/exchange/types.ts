/** FixedFloat API v2 shapes, as the exchange sends them. */
export interface FfCurrency {
  code: string;
  coin: string;
  network: string;
  name: string;
  recv: boolean;
  send: boolean;
  tag: string | null;
}

export interface FfPriceSide {
  code: string;
  network: string;
  coin: string;
  amount: string;
  rate: string;
  precision: number;
  min: string;
  max: string;
  usd?: string;
}

export interface FfPrice {
  from: FfPriceSide;
  to: FfPriceSide;
  errors: string[];
}

export interface FfLeg {
  code: string;
  coin?: string;
  network?: string;
  amount: string;
  address: string;
  tag?: string | null;
  tx?: { id: string | null; amount: string | null; confirmations: number | null } | null;
}

export interface FfOrder {
  id: string;
  type: 'fixed' | 'float';
  email: string | null;
  status: 'NEW' | 'PENDING' | 'EXCHANGE' | 'WITHDRAW' | 'DONE' | 'EXPIRED' | 'EMERGENCY';
  time: { reg: number; start: number | null; finish: number | null; update: number | null; expiration?: number | null; left?: number | null };
  from: FfLeg;
  to: FfLeg;
  back?: FfLeg;
  emergency?: { status: string[]; choice: string; repeat: string };
  token: string;
}

export interface PairParams {
  type: 'fixed' | 'float';
  fromCcy: string;
  toCcy: string;
  direction: 'from' | 'to';
  /** A decimal string; sent to the exchange as a JSON number as FixedFloat expects. */
  amount: string;
}

export interface CreateParams extends PairParams {
  toAddress: string;
  tag?: string;
}

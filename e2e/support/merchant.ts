import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { createPublicClient, erc20Abi, formatUnits, http, type Address } from 'viem';
import { users } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { getDb } from '@/lib/db';
import { APP_PORTS } from '../../playwright.config';
import { signUpViaUi, uniqueEmail } from './dashboard';
import { ANVIL_PORT, TOKEN_ADDRESS } from './stack-env';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const chain = createPublicClient({ transport: http(`http://127.0.0.1:${ANVIL_PORT}`) });

/** The tenant of the merchant signed up with `email`. */
export async function merchantTenant(email: string) {
  const [u] = await (await getDb()).select().from(users).where(eq(users.email, email));
  return u!.tenantId!;
}

/** A test-mode admin key for the signed-up merchant, made the way `npm run gateway -- key:create` does. */
export async function merchantKey(email: string) {
  return (await createApiKey(await getDb(), { tenantId: await merchantTenant(email), mode: 'test', name: 'e2e', scopes: ['admin'] })).key;
}

/** A merchant signed up through the UI (the page stays signed in) with GET/POST helpers on its test key. */
export async function signedUpMerchant(page: Page, request: APIRequestContext, business: string, password: string) {
  const email = uniqueEmail('m');
  await signUpViaUi(page, { business, email, password });
  const auth = { authorization: `Bearer ${await merchantKey(email)}` };
  const json = async (path: string) => (await (await request.get(`${BASE}${path}`, { headers: auth })).json()) as Record<string, any>;
  const post = async (path: string, data: Record<string, unknown>) => {
    const res = await request.post(`${BASE}${path}`, { headers: auth, data });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return (await res.json()) as Record<string, any>;
  };
  return { json, post, tenantId: await merchantTenant(email) };
}

/** The e2e chain's USDT held by an address, in units. */
export const tokenHeld = async (who: Address) =>
  formatUnits(await chain.readContract({ address: TOKEN_ADDRESS, abi: erc20Abi, functionName: 'balanceOf', args: [who] }), 18);

import { ASSETS, CHAIN_SPECS, type RailKey } from './rails';

/** The product's name in page titles, the sign-in pages and authenticator apps: it takes more than one stablecoin. */
export const PRODUCT_NAME = 'Stablecoin Gateway';

const list = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * What a deployment accepts, in words, from its enabled rails (RAILS): "USDT on BNB Smart Chain" by default,
 * "USDT and USDC on BNB Smart Chain, Ethereum, ..." when every token runs on the same networks, else each
 * token with its own ("USDT on BNB Smart Chain; USDC on Ethereum"), so the landing and sign-up pages never
 * promise a rail the operator has not enabled.
 */
export function railsSentence(rails: readonly RailKey[]): string {
  const byToken = ASSETS.map((token) => ({
    token,
    networks: rails.filter((r) => r.token === token).map((r) => CHAIN_SPECS[r.chain].name),
  })).filter((t) => t.networks.length > 0);
  const same = byToken.every((t) => t.networks.join() === byToken[0]!.networks.join());
  if (same) return `${list(byToken.map((t) => t.token))} on ${list(byToken[0]!.networks)}`;
  return byToken.map((t) => `${t.token} on ${list(t.networks)}`).join('; ');
}

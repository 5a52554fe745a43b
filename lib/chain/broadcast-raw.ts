import type { Hex, PublicClient } from 'viem';

const ALREADY_SENT = /already known|known transaction|already imported|nonce too low|nonce has already been used/i;

/**
 * Broadcasts a recorded signed transaction. "Already in the pool or mined"
 * is not an error here: a resumed step re-sends what it recorded, and the
 * receipt decides what happened.
 */
export async function broadcastRaw(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.request({ method: 'eth_sendRawTransaction', params: [raw] });
  } catch (err) {
    if (!ALREADY_SENT.test(String((err as Error).message))) throw err;
  }
}

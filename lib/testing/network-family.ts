import type { Network, NetworkOf } from '@/lib/chain/network';
import type { ChainFamily } from '@/lib/config/rails';

/**
 * The network as the family a test set it up in (its family's fields and address brands); throws when it is
 * another family's or missing. Tests know the family of the network they read; product code reaches a family's
 * fields through its per-family table instead (lib/chain/network.ts, onFamily).
 */
export function networkOfFamily<F extends ChainFamily>(net: Network | undefined, family: F): NetworkOf<F> {
  if (!net) throw new Error(`no ${family} network`);
  if (net.family !== family) throw new Error(`${net.chain} is a ${net.family} network, not ${family}`);
  return net as NetworkOf<F>;
}

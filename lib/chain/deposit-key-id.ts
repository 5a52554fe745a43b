import { createHash, pbkdf2Sync } from 'node:crypto';
import { HDKey } from 'viem/accounts';

const ids = new Map<string, string>();

/** A stable, non-secret id of a deposit mnemonic (hash of its branch xpub), for the address pool. */
export function depositKeyId(mnemonic: string): string {
  let id = ids.get(mnemonic);
  if (!id) {
    const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
    const xpub = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0").publicExtendedKey;
    id = createHash('sha256').update(xpub).digest('hex').slice(0, 16);
    ids.set(mnemonic, id);
  }
  return id;
}

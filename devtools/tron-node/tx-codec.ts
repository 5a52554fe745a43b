import { recoverAddress } from 'viem';
import { utils } from 'tronweb';

/** A transaction in the JSON form of the HTTP API (`visible: false`: hex addresses). */
export interface TronTxJson {
  txID?: string;
  visible?: boolean;
  raw_data: {
    contract: { parameter: { value: Record<string, unknown>; type_url: string }; type: string; Permission_id?: number }[];
    ref_block_bytes: string;
    ref_block_hash: string;
    expiration: number;
    timestamp?: number;
    fee_limit?: number;
    data?: string;
  };
  raw_data_hex?: string;
  signature?: string[];
}

/**
 * What a node derives from a broadcast transaction: java-tron re-serializes `raw_data` into
 * protobuf bytes and hashes them (the client's `txID` and `raw_data_hex` are ignored), then
 * recovers each signature over that hash. TronWeb's own protobuf codec does the serializing here.
 */
export function decodeTx(tx: TronTxJson): { txId: string; rawDataHex: string; size: number } {
  const pb = utils.transaction.txJsonToPb(tx);
  const raw = pb.getRawData().serializeBinary() as Uint8Array;
  const txId = utils.transaction.txPbToTxID(pb).replace(/^0x/, '');
  // Bandwidth counts the whole Transaction message (raw_data + signatures), as BandwidthProcessor does.
  const sigBytes = (tx.signature ?? []).reduce((n, s) => n + 2 + s.replace(/^0x/, '').length / 2, 0);
  const size = raw.length + (raw.length < 128 ? 2 : 3) + sigBytes;
  return { txId, rawDataHex: Buffer.from(raw).toString('hex'), size };
}

/** The owner (`41…` hex) that signed `txId`, or null for a malformed signature. */
export async function recoverSigner(txId: string, signature: string): Promise<string | null> {
  const sig = signature.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{130}$/.test(sig)) return null;
  try {
    const addr = await recoverAddress({ hash: `0x${txId}`, signature: `0x${sig}` });
    return `41${addr.slice(2).toLowerCase()}`;
  } catch {
    return null;
  }
}

/** The `owner_address` of the transaction's (single) contract, as `41…` hex. */
export function ownerOf(tx: TronTxJson): string {
  const owner = String(tx.raw_data.contract[0]?.parameter.value.owner_address ?? '');
  return tx.visible ? Buffer.from(utils.crypto.decode58Check(owner) || []).toString('hex') : owner.toLowerCase();
}

import { explorerTxUrl } from '@/lib/dashboard/explorer';

/** A transaction hash, shortened, linked to its network's block explorer (local chains have none). */
export function TxLink({ chainId, hash }: { chainId: number; hash: string }) {
  const url = explorerTxUrl(chainId, hash);
  const short = `${hash.slice(0, 10)}…${hash.slice(-8)}`;
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className="font-mono text-xs text-indigo-600 hover:underline" title={hash}>
      {short}
    </a>
  ) : (
    <span className="font-mono text-xs" title={`${hash} (local chain: no explorer)`}>
      {short}
    </span>
  );
}

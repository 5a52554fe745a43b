import { AdapterFailure } from './adapter';

/**
 * One HTTP read of an adapter: the JSON body of a 2xx answer. Every other outcome is an AdapterFailure with a
 * reason of our own (the request's URL and headers carry the API key, so neither goes into an error or a log).
 */
export async function readJson(url: string, init: RequestInit, signal: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal, redirect: 'error', cache: 'no-store' });
  } catch {
    throw new AdapterFailure(signal.aborted ? 'timeout' : 'unreachable');
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new AdapterFailure(`http ${res.status}`);
  }
  try {
    return await res.json();
  } catch {
    throw new AdapterFailure(signal.aborted ? 'timeout' : 'malformed answer');
  }
}

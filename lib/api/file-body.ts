import { z } from 'zod';

/** A streamed download answered by a `produces` operation (CSV statements). */
export interface FileBody {
  stream: ReadableStream<Uint8Array>;
  filename: string;
}

/** The `response` of a `produces` operation: the handler's FileBody, never parsed as JSON. */
export const fileBody = z.custom<FileBody>((v) => typeof v === 'object' && v !== null && 'stream' in v && 'filename' in v);

/** The success answer of a download: the stream as an attachment, with the request's headers (request id, rate limit). */
export function fileResponse(body: FileBody, contentType: string, headers: Headers): Response {
  headers.set('Content-Type', `${contentType}; charset=utf-8`);
  headers.set('Content-Disposition', `attachment; filename="${body.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
  return new Response(body.stream, { status: 200, headers });
}

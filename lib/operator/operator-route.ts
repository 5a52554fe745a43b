import { baseHeaders, errorResponse, jsonResponse } from '@/lib/api/response';
import { getDb, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { observed } from '@/lib/metrics/observe-request';
import { authorizeOperator } from './authorize-operator';

/** A GET route of /api/operator: operator token or support session, JSON like /v1 (request id, error shape). */
export function operatorRoute(route: string, handler: (db: Db, req: Request) => Promise<unknown>) {
  return observed(route, async (req: Request) => {
    const requestId = newId('request');
    const headers = baseHeaders(requestId);
    try {
      await authorizeOperator(req);
      return jsonResponse(200, JSON.stringify(await handler(await getDb(), req)), headers);
    } catch (err) {
      return errorResponse(err, requestId, headers, { route });
    }
  });
}

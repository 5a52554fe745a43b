import { buildOpenApiDocument } from '@/lib/api/openapi';
import { OPERATIONS } from '@/lib/operations';
import { WEBHOOK_EVENTS } from '@/lib/events/webhook-docs';

// Public: the API reference needs no key.
export const dynamic = 'force-static';

export function GET() {
  return Response.json(buildOpenApiDocument(OPERATIONS, WEBHOOK_EVENTS));
}

import { buildOpenApiDocument } from '@/lib/api/openapi';

// Public: the API reference needs no key.
export const dynamic = 'force-static';

export function GET() {
  return Response.json(buildOpenApiDocument());
}

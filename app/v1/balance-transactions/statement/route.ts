import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getStatementOp } from '@/lib/statements/operations';
import { statementCsv } from '@/lib/statements/statement-csv';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getStatementOp, async ({ db, auth, query }) => statementCsv(db, auth, query)),
});

import { ApiError } from '@/lib/api/errors';
import { consoleAccess } from '@/lib/console/access';
import { getSignedInStaff } from '@/lib/console/context';
import { env } from '@/lib/env';
import { bearerMatches } from '@/lib/http/bearer';

/**
 * The operator's JSON routes (/api/operator/*): OPERATOR_TOKEN as a bearer token (monitoring scripts), or
 * the session of a support user (the console). Anything else is a 401 (no credential) or 403 (a merchant's
 * session); tenant API keys never open them.
 */
export async function authorizeOperator(req: Request): Promise<void> {
  if (bearerMatches(req, env().OPERATOR_TOKEN)) return;
  if (req.headers.get('authorization')) throw new ApiError('invalid_api_key', 'Invalid operator token.');
  // No cookie, no session to look up.
  if (!req.headers.get('cookie')) throw new ApiError('invalid_api_key', 'An operator token or a support session is required.');
  const staff = await getSignedInStaff();
  const access = consoleAccess(staff?.user);
  if (access === 'sign-in') throw new ApiError('invalid_api_key', 'An operator token or a support session is required.');
  if (access === 'forbidden') throw new ApiError('forbidden', 'For the gateway operator and support staff only.');
}

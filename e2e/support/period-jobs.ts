import { getDb } from '@/lib/db';
import { sendEmails } from '@/lib/email/send-emails';
import { resetEnvCache } from '@/lib/env';
import { runCollection } from '@/lib/subscriptions/collect/run-collection';
import { runBilling } from '@/lib/subscriptions/run-billing';
import { stackEnv } from './stack-env';

/**
 * The subscription jobs of the stack's worker (lib/jobs/registry.ts), run from the spec at a test clock instead of the
 * wall clock, for one tenant: billing (a period's invoice), collection (its pull, or the e-mail instead) and the
 * outbox (a message released at the test clock waits for it: the worker's own run at the wall clock would not send it).
 * The worker keeps running its own at the wall clock; the spec's runs are what makes a period due.
 */
export function periodJobs(tenantId: string) {
  // The spec process gets the environment the stack and the app servers have (the rails, their collectors, SMTP).
  Object.assign(process.env, stackEnv(), { APP_ENV: 'test' });
  resetEnvCache();
  return {
    bill: async (now: Date) => runBilling(await getDb(), { now, tenantId }),
    collect: async (now: Date) => runCollection(await getDb(), { now, tenantId }),
    sendMail: async (now: Date) => sendEmails(await getDb(), { now, tenantId }),
  };
}

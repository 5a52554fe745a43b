import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { clientIp } from './client-ip';
import { verifyCredentials } from './verify-credentials';

// Outside production only: lets `next start` in tests and dev run without configuring a secret.
const DEV_AUTH_SECRET = 'development-only-auth-secret-not-for-production-use';

/** The sign-in refusal reason travels in `code` (invalid, totp_required, no_tenant, throttled:<seconds>). */
class SignInRefused extends CredentialsSignin {
  constructor(code: string) {
    super();
    this.code = code;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const e = env();
  const maxAge = Math.round(e.SESSION_MAX_AGE_HOURS * 3600);
  return {
    secret: e.AUTH_SECRET ?? DEV_AUTH_SECRET,
    trustHost: true,
    session: { strategy: 'jwt', maxAge },
    jwt: { maxAge },
    pages: { signIn: '/sign-in' },
    logger: {
      // Refused sign-ins are expected traffic, not server errors; nothing here ever includes the credentials.
      error(error) {
        if ((error as { type?: string }).type === 'CredentialsSignin') return;
        console.error(error);
      },
      warn() {},
    },
    providers: [
      Credentials({
        credentials: { email: {}, password: {}, code: {} },
        async authorize(credentials, request) {
          const db = await getDb();
          const outcome = await verifyCredentials(db, credentials, {
            ip: clientIp(request.headers),
            userAgent: request.headers.get('user-agent') ?? undefined,
          });
          if (!outcome.ok) throw new SignInRefused(outcome.reason === 'throttled' ? `throttled:${outcome.retryAfterSeconds}` : outcome.reason);
          // The JWT carries only the session row id; who and which tenant are read from the database per request.
          return { id: outcome.sessionId };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user?.id) token.sid = user.id;
        return token;
      },
      session({ session, token }) {
        return { ...session, sid: token.sid as string | undefined };
      },
    },
  };
});

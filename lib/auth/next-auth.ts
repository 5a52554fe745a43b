import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { clientIp } from '@/lib/http/client-ip';
import { authSecret, signInWithGrant } from './sign-in-grant';
import { verifyCredentials } from './verify-credentials';

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
    secret: authSecret(),
    trustHost: true,
    // Production serves only HTTPS: session cookies are Secure (and __Secure- prefixed) whatever the proxy says.
    useSecureCookies: e.APP_ENV === 'production',
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
        credentials: { email: {}, password: {}, code: {}, grant: {} },
        async authorize(credentials, request) {
          const db = await getDb();
          const meta = { ip: clientIp(request.headers), userAgent: request.headers.get('user-agent') ?? undefined };
          // A grant (issued by our own sign-up or invitation action) stands in for the password just hashed.
          const outcome =
            typeof credentials.grant === 'string' && credentials.grant !== ''
              ? await signInWithGrant(db, credentials.grant, meta)
              : await verifyCredentials(db, credentials, meta);
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

/** Whose dashboard session next-auth would read from the cookie: the matrix test's mock of next-auth reads it. */
export const currentSession = { sid: null as string | null };

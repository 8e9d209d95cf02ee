/** The rate limits every bench server lifts: the bench would otherwise measure 429s. */
export const LIFTED_LIMITS = {
  RATE_LIMIT_REST_PER_MINUTE: '1000000000',
  RATE_LIMIT_UNAUTH_PER_MINUTE: '1000000000',
} as const;

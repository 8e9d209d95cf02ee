import pino from 'pino';

/** Structured logs. Authorization headers and secrets are never passed to the logger. */
export const createLogger = (level: string) =>
  pino({ level, base: undefined, redact: { paths: ['req.headers.authorization', '*.secret', '*.key'], censor: '[redacted]' } });

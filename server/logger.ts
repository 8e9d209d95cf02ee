import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';

/** A request object, should one be logged: without its credentials. */
const withoutCredentials = (req: { headers?: Record<string, unknown> }) =>
  req?.headers
    ? {
        ...req,
        headers: {
          ...req.headers,
          authorization: req.headers.authorization === undefined ? undefined : '[redacted]',
          cookie: undefined,
        },
      }
    : req;

/**
 * An error as logged, down its cause chain: type, message, code and stack frames. A database error
 * gives its SQL text and SQLSTATE only: never the query's parameters (drizzle's message and stack
 * carry them), PostgreSQL's message, detail or where (they quote values: a patient's name, an email),
 * so no personal data reaches the logs through a failed query. The same holds whatever wraps it: an
 * error with a database error down its cause chain (a TRPCError copies drizzle's message) logs no
 * message of its own, and any message loses a `params:` tail.
 */
export function errorForLog(err: unknown, depth = 0): unknown {
  if (typeof err !== 'object' || err === null) return err;
  const e = err as {
    constructor?: { name?: string };
    message?: unknown;
    stack?: unknown;
    code?: unknown;
    severity?: unknown;
    query?: unknown;
    cause?: unknown;
    constraint?: unknown;
    table?: unknown;
    column?: unknown;
  };
  const out: Record<string, unknown> = { type: e.constructor?.name ?? 'Error' };
  if (typeof e.query === 'string')
    Object.assign(out, { message: 'database query failed', sql: e.query.slice(0, 2000) });
  else if (typeof e.severity === 'string')
    Object.assign(out, {
      message: 'database error',
      code: e.code,
      constraint: e.constraint,
      table: e.table,
      column: e.column,
    });
  else
    Object.assign(out, {
      message: fromDatabase(e.cause) ? 'wraps a database error (see cause)' : withoutParams(e.message),
      ...(e.code !== undefined ? { code: e.code } : {}),
    });
  // Frames only: the stack's first line repeats the message.
  if (typeof e.stack === 'string')
    out.stack = e.stack
      .split('\n')
      .filter((l) => /^\s+at /.test(l))
      .join('\n');
  if (e.cause !== undefined && depth < 5) out.cause = errorForLog(e.cause, depth + 1);
  return out;
}

/** Whether a database error (drizzle's, with its query; or the driver's, with a severity) is down the chain. */
function fromDatabase(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 5) return false;
  const e = err as { query?: unknown; severity?: unknown; cause?: unknown };
  return typeof e.query === 'string' || typeof e.severity === 'string' || fromDatabase(e.cause, depth + 1);
}

/** A message without the statement parameters some libraries append ("…\nparams: Ada,Lovelace,…"). */
const withoutParams = (message: unknown) =>
  typeof message === 'string' ? message.replace(/\s*params:[\s\S]*$/, ' [parameters removed]') : message;

const BATCH_BYTES = 65_536;
const FLUSH_MS = 1000;

/**
 * pino's asynchronous destination (sonic-boom), fed whole batches of lines. Given line by line, sonic-boom
 * measures its whole pending buffer again on every write (Buffer.byteLength of a growing concatenation,
 * which flattens it); joining the lines here and handing over 4 KiB at a time measured 3–7% more
 * throughput on the single read with a line per request (2.6 µs less of the main thread per request,
 * alternate rounds). 64 KiB rather than 4: each write is a task for libuv's thread pool, and the
 * process's CPU per line (thread pool included) fell from 1.6 to 1.1 µs (a line is ~200 bytes,
 * so at most a second's lines wait, as before). sonic-boom still does the writing (partial writes,
 * EAGAIN, the synchronous flush when the process exits).
 */
const atExit: (() => void)[] = [];
const beforeExit: (() => void)[] = [];

/** Process hooks registered once, however many loggers a process makes. */
function onExit(exit: () => void, before: () => void) {
  if (atExit.length === 0) {
    // Batches go to sonic-boom before its own exit hooks write what it holds (whichever runs first,
    // nothing is lost: the synchronous flush here covers both).
    process.on('beforeExit', () => beforeExit.forEach((f) => f()));
    process.on('exit', () => atExit.forEach((f) => f()));
  }
  atExit.push(exit);
  beforeExit.push(before);
}

/** Where a logger's lines go: pino writes through it, and so does the request line (requestLines). */
interface Destination {
  write(line: string): void;
  flush(done?: (err?: Error) => void): void;
}
const destinations = new WeakMap<Logger, Destination>();

function batchedStdout(): Destination {
  const sonic = pino.destination({ dest: 1, sync: false, minLength: 0, maxWrite: BATCH_BYTES });
  let lines: string[] = [];
  let size = 0;
  const drain = () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    size = 0;
    sonic.write(text);
  };
  setInterval(drain, FLUSH_MS).unref();
  onExit(() => {
    drain();
    try {
      sonic.flushSync();
    } catch {
      // stdout is gone (a closed pipe): there is nowhere left to write to.
    }
  }, drain);
  return {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= BATCH_BYTES) drain();
    },
    flush(done?: (err?: Error) => void) {
      drain();
      sonic.flush(done);
    },
  };
}

/**
 * Structured logs to stdout. Secrets are never passed to the logger (request lines carry ids only); a
 * `req`, should one be logged, loses its Authorization and Cookie headers, and an `err` its data
 * (errorForLog), through serializers, which run only when a line has one (pino's path redaction ran on every line: 9% of a GET's throughput).
 * Lines are written asynchronously in 64 KiB batches, at least every second and when the process exits.
 */
export function createLogger(level: string): Logger {
  if (level === 'silent') return pino({ level });
  const destination = batchedStdout();
  const logger = pino({ level, serializers: { req: withoutCredentials, err: errorForLog } }, destination);
  destinations.set(logger, destination);
  return logger;
}

/** Writes one answered request's line: its X-Request-Id, method, path (no query), status, milliseconds and key id. */
export type RequestLineWriter = (
  requestId: string,
  method: string,
  path: string,
  status: number,
  ms: number,
  key: number | undefined,
) => void;

const SAFE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;
/** A string as JSON: as it is when nothing in it needs escaping (ids, most paths), else JSON.stringify's. */
const jsonString = (s: string) => (SAFE.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * The request line, the one line written for every request, formatted here rather than by pino: its
 * fields are fixed, so the line is one template (the same fields pino writes: level, time, pid,
 * hostname, msg), with no bindings, serializers or object walk per request.
 *
 * Sampling (LOG_SAMPLE_RATE below 1): a successful read (GET or HEAD answered < 400) is written with
 * that probability, its line saying `sampleRate` so counts can be scaled back; an error answer and any
 * write are always written, and at LOG_LEVEL=debug or trace every request is. Null when the logger
 * writes no info lines.
 */
export function requestLines(logger: Logger, sampleRate = 1): RequestLineWriter | null {
  if (!logger.isLevelEnabled('info')) return null;
  const destination = destinations.get(logger);
  const rate = logger.isLevelEnabled('debug') ? 1 : sampleRate;
  if (!destination) {
    // A logger made elsewhere (pino's own destination): the same fields through pino.
    return (requestId, method, path, status, ms, key) => {
      if (rate < 1 && status < 400 && (method === 'GET' || method === 'HEAD') && !(Math.random() < rate)) return;
      logger.info({ requestId, method, path, status, ms, key, ...(rate < 1 ? { sampleRate: rate } : {}) }, 'request');
    };
  }
  const head = `{"level":30,"time":`;
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"requestId":"`;
  const tail = rate < 1 ? `,"sampleRate":${rate},"msg":"request"}\n` : `,"msg":"request"}\n`;
  return (requestId, method, path, status, ms, key) => {
    if (rate < 1 && status < 400 && (method === 'GET' || method === 'HEAD') && !(Math.random() < rate)) return;
    destination.write(
      head +
        Date.now() +
        bindings +
        requestId +
        `","method":${jsonString(method)},"path":${jsonString(path)},"status":${status},"ms":${ms}` +
        (key === undefined ? '' : `,"key":${key}`) +
        tail,
    );
  };
}

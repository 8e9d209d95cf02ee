import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './support/spawn';

/** Runs support/log-lines.ts with stdout to a pipe and returns its parsed lines. */
function run(env: Record<string, string>) {
  const out = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'server/test/support/log-lines.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(out.status).toBe(0);
  return out.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('logger (lines batched to stdout)', () => {
  it.each(['exit', 'natural'])('every line reaches stdout, in order, when the process ends (%s)', (how) => {
    const lines = run({ LINES: '20000', EXIT: how });
    expect(lines).toHaveLength(20000);
    expect(lines.slice(1).map((l) => l.i)).toEqual(Array.from({ length: 19999 }, (_, k) => k + 1));
    expect(lines[1]).toMatchObject({ level: 30, msg: 'line', i: 1 });
    expect(typeof lines[1].time).toBe('number');
  });

  it('a few lines written just before process.exit are not lost', () => {
    expect(run({ LINES: '3', EXIT: 'exit' }).map((l) => l.msg)).toEqual(['with credentials', 'line', 'line']);
  });

  it('a logged request loses its Authorization and Cookie headers', () => {
    const [first] = run({ LINES: '1', EXIT: 'natural' });
    const text = JSON.stringify(first);
    expect(text).not.toContain('secret');
    expect(first.req).toMatchObject({ headers: { authorization: '[redacted]', host: 'a' } });
  });
});

describe('errors in the log', () => {
  it('a failed query is logged with its SQL text and code, never its parameters or the values it quotes, whatever wraps it', () => {
    const out = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'server/test/support/log-db-error.ts')],
      { cwd: root, env: process.env, encoding: 'utf8' },
    );
    expect(out.status, out.stderr).toBe(0);
    const lines = out.stdout.split('\n').filter(Boolean);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
      'request failed',
      'portal request failed',
      'tool failed',
      'job failed',
      'webhook delivery failed',
    ]);
    const line = JSON.parse(lines[0]) as { level: number; msg: string; err: { sql?: string; stack: string } };
    expect(line).toMatchObject({ level: 50, msg: 'request failed' });
    expect(JSON.stringify(line.err)).toMatch(/"code":"(23505|SQLITE_CONSTRAINT_UNIQUE)"/);
    // PostgreSQL's errors come wrapped by drizzle with the query (and, unless left out, its parameters).
    if (process.env.DATABASE_URL?.startsWith('postgres')) expect(line.err.sql).toMatch(/^insert into "users"/);
    expect(line.err.stack).toMatch(/^\s+at /);
    // Whatever wraps the database error, and a message copied from it, the values sent are in no line.
    for (const l of lines)
      for (const value of ['ada.secret', 'Ada Secretname', '999999999']) expect(l).not.toContain(value);
  });
});

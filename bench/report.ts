/** The results table: printed to stdout, written to bench/RESULTS.md and to docs/benchmarks.md's `## Benchmarks`. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Row {
  scenario: string;
  server: 'app' | 'baseline' | 'bare';
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  /** e.g. "app/baseline 43%" or "page 1000 / page 1 = 1.1x". */
  compare?: string;
  target?: string;
  /** undefined when the row has no target. */
  pass?: boolean;
}

// autocannon reports whole milliseconds; the sequential client measures fractions.
const ms = (v: number) => (Number.isInteger(v) ? String(v) : v < 10 ? v.toFixed(2) : v.toFixed(1));
const verdict = (r: Row) => (r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL');
const HEAD = ['scenario', 'server', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'comparison', 'target', 'result'];
const cells = (r: Row) => [
  r.scenario,
  r.server,
  String(r.connections),
  r.rps.toFixed(0),
  ms(r.p50),
  ms(r.p99),
  r.compare ?? '',
  r.target ?? '',
  verdict(r),
];

export function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.availableParallelism()} CPUs (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.type()} ${os.release()}`;
}

export function printTable(rows: Row[]): void {
  const table = [HEAD, ...rows.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const line = (l: string[]) =>
    l.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(`\n${line(HEAD)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of rows) console.log(line(cells(r)));
}

export function markdown(rows: Row[], notes: string[]): string {
  const out = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.`,
    '',
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map((_, i) => (i >= 2 && i <= 5 ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).join(' | ')} |`),
    '',
    ...notes.map((n) => `- ${n}`),
  ];
  return `${out.join('\n')}\n`;
}

/** Replaces docs/benchmarks.md from the `## Benchmarks` line to the end; touches nothing above it. */
export function writeResults(root: string, body: string): void {
  fs.writeFileSync(
    path.join(root, 'bench', 'RESULTS.md'),
    `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.ts).\n\n${body}`,
  );
  const readme = path.join(root, 'docs', 'benchmarks.md');
  const text = fs.readFileSync(readme, 'utf8');
  const at = text.search(/^## Benchmarks[ \t]*$/m);
  if (at < 0) return console.warn('docs/benchmarks.md has no "## Benchmarks" section; left it alone');
  fs.writeFileSync(
    readme,
    `${text.slice(0, at)}## Benchmarks\n\nWritten by \`npm run bench\` (\`BENCH_SECONDS\` shortens each run, \`BENCH_ONLY=e,f\` runs some scenarios without writing results, \`-- --fresh\` rebuilds the data); the same table is in bench/RESULTS.md.\n\n${body}`,
  );
}

/**
 * The benches' PostgreSQL: one data directory kept between runs (data/bench/pg-scale), a database per
 * dataset, started on a free port with durability off (the data is rebuilt from scratch if lost).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * PostgreSQL's own cache, sized as a production server's would be (a quarter of this 24 GiB machine)
 * rather than the 128 MB default: this VM's host reclaims the page cache behind the datasets (13.8 GiB
 * cached fell to 5.4 GiB between two runs), and every read that missed 128 MB then went to the disk,
 * doubling the everyday rows' times from one run to the next.
 */
const SHARED_BUFFERS = process.env.BENCH_PG_SHARED_BUFFERS ?? '6GB';

/** A PostgreSQL data directory kept between runs (data/bench/pg-scale), started on a free port. */
export function keptPostgres(ROOT: string, db: string): { url: string; stop(): void } {
  const dir = path.join(ROOT, 'data', 'bench', 'pg-scale');
  const script = `set -e
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as=(); if [ "$(id -u)" = 0 ]; then id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres; as=(runuser -u postgres --); fi
mkdir -p "${dir}"
# data/ is private (0700, db/private-files.ts): the postgres user may pass through it, not list or read it.
if [ "$(id -u)" = 0 ]; then chown postgres "${dir}"; chmod o+x "${path.dirname(path.dirname(dir))}" "${path.dirname(dir)}"; fi
[ -f "${dir}/data/PG_VERSION" ] || "\${as[@]}" "$bin/initdb" -D "${dir}/data" -U clinic --auth=trust -E UTF8 --locale=C --lc-ctype=C.UTF-8 >/dev/null
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
"\${as[@]}" "$bin/pg_ctl" -D "${dir}/data" -l "${dir}/log" -w -o "-p $port -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_wal_size=4GB -c maintenance_work_mem=512MB -c shared_buffers=\${SHARED_BUFFERS}" start >/dev/null
"$bin/psql" -h 127.0.0.1 -p $port -U clinic -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1 || "$bin/createdb" -h 127.0.0.1 -p $port -U clinic --template=template0 --lc-collate=C --lc-ctype=C.UTF-8 "$DB"
echo "$port $bin"`;
  const [port, bin] = execFileSync('bash', ['-c', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DB: db, SHARED_BUFFERS: SHARED_BUFFERS },
  })
    .trim()
    .split(' ');
  const as = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  return {
    url: `postgres://clinic@127.0.0.1:${port}/${db}`,
    stop: () =>
      void execFileSync(
        as[0] ?? `${bin}/pg_ctl`,
        [...as.slice(1), ...(as.length ? [`${bin}/pg_ctl`] : []), '-D', `${dir}/data`, '-m', 'fast', 'stop'],
        { stdio: 'ignore' },
      ),
  };
}

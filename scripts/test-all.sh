#!/usr/bin/env bash
# Everything CI runs: installs what the tests need when missing (npm packages; Debian's postgresql,
# pgbouncer and chromium), then typecheck, lint (ESLint and Prettier's check), the whole vitest suite on
# SQLite, then side by side: the suite on a throwaway PostgreSQL server, again through PgBouncer in
# transaction pooling (how production deployments pool), and its Citus files on a three-node cluster; then
# the browser tests; last the SQLite suite split in two halves plus a quick-start smoke test on Node 22 and 24.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# Each stage's wall time, printed with the closing line (CI has 90 minutes; the suite aims under 45).
STAGES=()
stage_started=$SECONDS
stage_name=""
stage() {
  [ -n "$stage_name" ] && STAGES+=("$(printf '%5ss  %s' $((SECONDS - stage_started)) "$stage_name")")
  stage_name="$1"
  stage_started=$SECONDS
  [ -n "$1" ] && echo "== $1"
  return 0
}

# Debian's packages the stages need, installed up front in one go (the stages run side by side later,
# and two apt-get runs at once would fight over dpkg's lock).
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]} (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

stage "typecheck"
npx tsc --noEmit -p .
stage "lint"
npx eslint . --max-warnings 0
npx prettier --check . --log-level warn

RESULTS=$(mktemp -d /tmp/clinic-results.XXXXXX)
# The closing line CI reads. A skipped test fails the run unless its title (or its group's) says why, as "(only on X)".
summary() {
  node -e '
    const fs = require("fs"); let p = 0, f = 0, s = 0; const unexplained = [];
    for (const file of process.argv.slice(1)) {
      const r = JSON.parse(fs.readFileSync(file, "utf8"));
      if (r.stats) { p += r.stats.expected; f += r.stats.unexpected + r.stats.flaky; s += r.stats.skipped; if (r.stats.skipped) unexplained.push(`${file}: skipped browser tests`); continue; }
      p += r.numPassedTests; f += r.numFailedTests;
      for (const t of (r.testResults ?? []).flatMap((x) => x.assertionResults)) {
        if (!["skipped", "pending", "todo"].includes(t.status)) continue;
        s++;
        if (!/\(only on [^)]+\)/.test(t.fullName)) unexplained.push(t.fullName);
      }
    }
    for (const t of unexplained) console.log(`skipped without a reason in its title: ${t}`);
    console.log(`\ntotal: ${p} passed, ${f + unexplained.length} failed, ${s} skipped`);
    process.exit(f + unexplained.length ? 1 : 0);' "$RESULTS"/*.json
}

# The portal's production build, before the browser tests and the quick start use it.
stage "build (next build and the compiled server)"
npm run -s build >/dev/null

stage "tests on SQLite"
DATABASE_URL= npx vitest run --reporter=default --reporter=json --outputFile.json="$RESULTS/sqlite.json"

# On a database server the files run one at a time (vitest.config.ts), and importing the server afresh for
# each was 255 of 1,052 s: those files share their worker's modules (--no-isolate). The files that install
# process-wide hooks (metrics, traces) or read a once-per-process cache (the changelog) still get a fresh
# process each, in a second run.
ISOLATED=(metrics metrics.surfaces tracing tracing.surfaces tracing.shutdown deprecation changelog)
server_suite() { # <results name> <database url>: the whole suite on a database server
  DATABASE_URL="$2" npx vitest run --no-isolate $(printf -- "--exclude=server/test/%s.test.ts " "${ISOLATED[@]}") \
    --reporter=default --reporter=json --outputFile.json="$RESULTS/$1.json"
  DATABASE_URL="$2" npx vitest run $(printf "server/test/%s.test.ts " "${ISOLATED[@]}") \
    --reporter=default --reporter=json --outputFile.json="$RESULTS/$1-isolated.json"
}

# The database suites run one file at a time and leave part of the CPU idle (waiting on the server and
# on timers). Each has a server of its own (its own throwaway PostgreSQL or Citus cluster): they run side
# by side, each into a log printed when all end.
pg_stage() {
  source scripts/pg-temp.sh
  pg_temp_start "$PG_BIN"
  trap pg_temp_stop EXIT
  server_suite postgres "$PG_TEMP_URL"
}

# Its own PostgreSQL server, not the direct stage's: the events feed holds fresh events back while an
# older transaction of the server is in flight, whichever database it is in.
pgbouncer_stage() {
  source scripts/pg-temp.sh
  pg_temp_start "$PG_BIN"
  pg_bouncer_start
  trap 'pg_bouncer_stop; pg_temp_stop' EXIT
  DATABASE_POOLER=transaction server_suite pgbouncer "$PG_BOUNCER_URL"
}

# A Citus cluster (a coordinator and two workers on loopback, scripts/citus-temp.sh), the run's database
# distributed by clinic (`clinic citus distribute`, in global-setup.ts): the layout and router-query tests
# (every route of one clinic on one shard), the plan tests (the worker's plan of the shard read through
# Citus's wrapper), and the conformance files (issue 40; what else differs there is in docs/operations.md).
CITUS_FILES=(citus.layout citus.routes routes.security tenancy.security list-engine list-embeds list-total patients
  appointments availability billing files idempotency platform.happy platform.error api-keys care-plans
  transactions.isolation webhooks.delivery events.feed events.feed.resume events.catalogue sync.mirror patients.deleted
  db.catalog sweeps partitions jobs.scheduler list-plans list-order.index list.filter-indexes list.everyday-plans
  list.range-first list.deep-offset list.deep-offsets list.indexes-needed follows.plan jobs.missed portal.requests portal.webhooks
  keys.restricted)
citus_stage() {
  source scripts/citus-temp.sh
  citus_temp_start "$PG_BIN"
  trap citus_temp_stop EXIT
  DATABASE_URL="$CITUS_URL" CITUS_WORKERS="$CITUS_WORKERS" npx vitest run --no-isolate \
    $(printf "server/test/%s.test.ts " "${CITUS_FILES[@]}") \
    --reporter=default --reporter=json --outputFile.json="$RESULTS/citus.json"
}

# browser_half <n>: half n of the browser spec files (playwright --shard), with a server, port, SQLite
# database, mail server and output folder of its own (playwright.config.ts derives them from E2E_PORT).
browser_half() {
  E2E_BUILT=1 E2E_PORT=$((3897 + 102 * $1)) E2E_OUTPUT_DIR="test-results/half-$1" \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/browser-$1.json" npx playwright test --shard="$1/2" --reporter=list,json
}
browser_half_1() { browser_half 1; }
browser_half_2() { browser_half 2; }

# beside <title> <function> ...: runs each function in the background, its output in a log of its own;
# when all have ended, prints the logs in order, adds each one's wall time to STAGES, and fails if any failed.
beside() {
  local titles=() pids=() i failed=() group_started=$SECONDS
  while [ $# -gt 0 ]; do
    titles+=("$1")
    local log="$RESULTS/stage-${#titles[@]}.log"
    ( started=$SECONDS; set +e; export CLINIC_TEST_CACHE_DIR="node_modules/.vite/stage-$2"
      ( set -e; "$2" ) >"$log" 2>&1; rc=$?
      echo "$((SECONDS - started))" >"$log.seconds"; exit $rc ) &
    pids+=($!)
    shift 2
  done
  echo "== side by side: $(IFS=,; echo "${titles[*]}" | sed 's/,/; /g')"
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${titles[$i]}"); done
  for i in "${!titles[@]}"; do
    local log="$RESULTS/stage-$((i + 1)).log"
    printf '\n== %s\n' "${titles[$i]}"
    cat "$log"
    STAGES+=("$(printf '%5ss    %s' "$(cat "$log.seconds")" "${titles[$i]}")")
  done
  STAGES+=("$(printf '%5ss  the %s stages above, side by side' $((SECONDS - group_started)) ${#titles[@]})")
  if [ ${#failed[@]} -gt 0 ]; then
    printf '\nfailed: %s\n' "${failed[@]}"
    return 1
  fi
}

stage ""
beside "tests on PostgreSQL" pg_stage \
  "tests on PostgreSQL behind PgBouncer (transaction pooling)" pgbouncer_stage \
  "tests on Citus (coordinator and two workers)" citus_stage

# Not beside the database suites: there the pages answered slowly enough to time out (5 of 74 failed,
# 34 min). Two halves side by side instead: 544 s and 377 s, against 19.8 min for all of them on one server.
stage ""
beside "browser tests: half 1 of 2 (Debian's Chromium)" browser_half_1 \
  "browser tests: half 2 of 2" browser_half_2

# The other Node LTS lines people deploy on, on official builds from the npm registry: the quick start on
# each, and the SQLite suite split between them (half the files on 22, the other half on 24). Both load
# better-sqlite3 13 (db/sqlite-driver.ts), so every file runs once on that driver and on a newer Node;
# PostgreSQL and the browser stay on the machine's Node to keep CI short.
source scripts/node-lts.sh
shard=0
for major in 22 24; do
  bin=$(node_lts_bin "$major")
  shard=$((shard + 1))
  stage "tests on SQLite (half $shard of 2) and the quick start, Node $("$bin/node" --version)"
  PATH="$bin:$PATH" DATABASE_URL= node node_modules/vitest/vitest.mjs run --shard="$shard/2" --reporter=default --reporter=json --outputFile.json="$RESULTS/sqlite-node$major.json"
  PATH="$bin:$PATH" bash scripts/demo-smoke.sh
  echo '{"numPassedTests":1,"numFailedTests":0}' > "$RESULTS/demo-smoke-node$major.json"
done
stage ""
printf '\n== time by stage\n'
printf '%s\n' "${STAGES[@]}"
summary

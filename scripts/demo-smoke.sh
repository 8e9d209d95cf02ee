#!/usr/bin/env bash
# The README's quick start on the Node.js that is first on PATH, as a newcomer would try it: create and
# seed the demo clinic on a fresh SQLite file, serve the built app (compiled, as `npm start`), then ping and
# make keyed requests.
# Needs a production build (.next); exits non-zero on the first step that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .next/BUILD_ID ] || NEXT_TELEMETRY_DISABLED=1 node node_modules/next/dist/bin/next build >/dev/null
# The compiled server and CLI, as `npm run demo` runs them (a second or so with esbuild).
node scripts/build-server.mjs >/dev/null

work=$(mktemp -d /tmp/clinic-smoke.XXXXXX)
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
export DATABASE_URL="$work/demo.db" FILES_DIR="$work/files" PORT="$port" LOG_LEVEL=warn NEXT_TELEMETRY_DISABLED=1
server=
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "demo smoke on Node $(node --version): $1" >&2; exit 1; }

node bin/clinic.mjs demo >"$work/demo.out" 2>"$work/demo.err" || { cat "$work/demo.err" >&2; fail 'seeding the demo clinic failed'; }
key=$(grep -o 'cpk_[A-Za-z0-9_]*' "$work/demo.out" | head -1)
[ -n "$key" ] || fail 'the demo printed no API key'

NODE_ENV=production node scripts/start.mjs >"$work/server.log" 2>&1 &
server=$!
api() { curl -s -o "$work/body" -w '%{http_code}' -H 'Host: demo.neptune.localhost' "$@"; }
for _ in $(seq 1 120); do
  [ "$(api "http://127.0.0.1:$port/v3/api/ping" 2>/dev/null)" = 200 ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; fail 'the server exited'; }
  sleep 0.5
done
grep -q '"pong":true' "$work/body" || fail 'GET /ping did not answer {"pong":true}'
[ "$(api -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v3/api/me")" = 200 ] || fail "GET /me: $(cat "$work/body")"
grep -q '"name":"Demo Physiotherapy"' "$work/body" || fail "GET /me named no demo clinic: $(cat "$work/body")"
[ "$(api -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v3/api/patients?page_size=5")" = 200 ] || fail "GET /patients: $(cat "$work/body")"
node -e 'const b=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); if(!(b.meta.total>0&&b.data.length===5)) process.exit(1)' "$work/body" || fail "GET /patients listed no seeded patients: $(cat "$work/body")"
[ "$(api -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d '{"first_name":"Smoke","last_name":"Test"}' "http://127.0.0.1:$port/v3/api/patients")" = 201 ] || fail "POST /patients: $(cat "$work/body")"
echo "demo smoke on Node $(node --version): passed (seed, serve, ping, GET /me, GET /patients, POST /patients)"

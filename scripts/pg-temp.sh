# Sourced: starts a throwaway PostgreSQL server (initdb into a temp dir, pg_ctl on a free port) and
# sets PG_TEMP_URL; pg_temp_stop stops it and removes the directory. initdb refuses to run as root,
# so the server runs as the postgres user when we are root.
pg_temp_start() {
  local bin="$1"
  PG_TEMP_DIR=$(mktemp -d /tmp/clinic-pg.XXXXXX)
  PG_TEMP_PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  local as=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$PG_TEMP_DIR"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$PG_TEMP_DIR/data" -U clinic --auth=trust -E UTF8 --no-locale >/dev/null
  "${as[@]}" "$bin/pg_ctl" -D "$PG_TEMP_DIR/data" -l "$PG_TEMP_DIR/log" -w \
    -o "-p $PG_TEMP_PORT -k $PG_TEMP_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
  "$bin/createdb" -h 127.0.0.1 -p "$PG_TEMP_PORT" -U clinic clinic
  PG_TEMP_BIN="$bin"
  PG_TEMP_AS=("${as[@]}")
  export PG_TEMP_URL="postgres://clinic@127.0.0.1:$PG_TEMP_PORT/clinic"
  echo "PostgreSQL on port $PG_TEMP_PORT"
}

pg_temp_stop() {
  [ -n "${PG_TEMP_DIR:-}" ] || return 0
  "${PG_TEMP_AS[@]}" "$PG_TEMP_BIN/pg_ctl" -D "$PG_TEMP_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TEMP_DIR"
  PG_TEMP_DIR=
}

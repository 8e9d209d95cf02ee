# Sourced: starts a throwaway PostgreSQL server (initdb into a temp dir, pg_ctl on a free port) and
# sets PG_TEMP_URL; pg_temp_stop stops it and removes the directory. initdb refuses to run as root,
# so the server runs as the postgres user when we are root.
pg_temp_start() {
  local bin="$1"
  PG_TEMP_DIR=$(mktemp -d /tmp/clinic-pg.XXXXXX)
  PG_TEMP_PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  local as=()
  if [ "$(id -u)" = 0 ]; then
    # Stages side by side may both find it missing: the second useradd fails, and the user is there.
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres 2>/dev/null || id postgres >/dev/null
    chown postgres "$PG_TEMP_DIR"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$PG_TEMP_DIR/data" -U clinic --auth=trust -E UTF8 --locale=C --lc-ctype=C.UTF-8 >/dev/null
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

# Sourced after pg_temp_start: PgBouncer in transaction pooling in front of the throwaway server (Debian's
# pgbouncer, installed when missing), the way production deployments pool; sets PG_BOUNCER_URL.
# Any database name is passed through (tests create databases of their own).
pg_bouncer_start() {
  if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
    echo "== installing pgbouncer (Debian package)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
  fi
  local bin; bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
  local port; port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  local dir="$PG_TEMP_DIR/bouncer"
  mkdir -p "$dir"
  printf '"clinic" ""\n' > "$dir/users.txt"
  cat > "$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$PG_TEMP_PORT user=clinic
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 60
max_db_connections = 150
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
  [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
  "${PG_TEMP_AS[@]}" "$bin" -d -q "$dir/pgbouncer.ini"
  for _ in $(seq 50); do [ -f "$dir/pgbouncer.pid" ] && break; sleep 0.1; done
  PG_BOUNCER_PID_FILE="$dir/pgbouncer.pid"
  export PG_BOUNCER_URL="postgres://clinic@127.0.0.1:$port/clinic"
  echo "PgBouncer (transaction pooling) on port $port"
}

pg_bouncer_stop() {
  [ -n "${PG_BOUNCER_PID_FILE:-}" ] && [ -f "$PG_BOUNCER_PID_FILE" ] && kill "$(cat "$PG_BOUNCER_PID_FILE")" 2>/dev/null || true
  PG_BOUNCER_PID_FILE=
}

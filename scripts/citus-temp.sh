# Sourced: starts a throwaway Citus cluster on loopback (a coordinator and two workers, each its own
# PostgreSQL 15 server in a temp dir) and sets CITUS_URL (the coordinator's `clinic` database, with the
# extension on every node and the workers registered); citus_temp_stop stops it and removes the
# directory. Citus is not in Debian's packages: it is installed from ../shared/citus (a build of 13.0.5
# for Debian's PostgreSQL 15) when missing, or from `postgresql-15-citus-13.0` where that package is
# reachable. Like pg-temp.sh, the servers run as the postgres user when we are root.
citus_install() {
  local bin="$1"
  [ -f "$("$bin/pg_config" --pkglibdir)/citus.so" ] && return 0
  local here; here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local shared="$here/../shared/citus/install.sh"
  if [ -f "$shared" ]; then
    echo "== installing Citus 13.0.5 (shared/citus)"
    PG_CONFIG="$bin/pg_config" bash "$shared" >/dev/null
  else
    echo "== installing Citus (Debian package postgresql-15-citus-13.0)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15-citus-13.0 >/dev/null
  fi
}

citus_free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# citus_node_sql PORT DB SQL: a statement on one node, as the clinic superuser.
citus_node_sql() {
  "$CITUS_BIN/psql" -h 127.0.0.1 -p "$1" -U clinic -d "$2" -v ON_ERROR_STOP=1 -qtAc "$3"
}

citus_temp_start() {
  local bin="$1"
  citus_install "$bin"
  CITUS_BIN="$bin"
  CITUS_DIR=$(mktemp -d /tmp/clinic-citus.XXXXXX)
  CITUS_AS=()
  if [ "$(id -u)" = 0 ]; then
    # Stages side by side may both find it missing: the second useradd fails, and the user is there.
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres 2>/dev/null || id postgres >/dev/null
    chown postgres "$CITUS_DIR"
    CITUS_AS=(runuser -u postgres --)
  fi
  CITUS_PORTS=()
  local name port
  for name in coordinator worker1 worker2; do
    port=$(citus_free_port)
    CITUS_PORTS+=("$port")
    "${CITUS_AS[@]}" "$bin/initdb" -D "$CITUS_DIR/$name" -U clinic --auth=trust -E UTF8 --locale=C --lc-ctype=C.UTF-8 >/dev/null
    # Each database with the extension keeps a maintenance worker: room for the databases tests make.
    "${CITUS_AS[@]}" "$bin/pg_ctl" -D "$CITUS_DIR/$name" -l "$CITUS_DIR/$name.log" -w \
      -o "-p $port -k $CITUS_DIR -c listen_addresses=127.0.0.1 -c shared_preload_libraries=citus -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c max_worker_processes=64 -c citus.max_cached_conns_per_worker=4" start >/dev/null &
  done
  wait
  citus_database clinic
  export CITUS_URL="postgres://clinic@127.0.0.1:${CITUS_PORTS[0]}/clinic"
  export CITUS_WORKERS="127.0.0.1:${CITUS_PORTS[1]},127.0.0.1:${CITUS_PORTS[2]}"
  echo "Citus: coordinator on port ${CITUS_PORTS[0]}, workers on ${CITUS_PORTS[1]} and ${CITUS_PORTS[2]}"
}

# citus_database NAME: a database on every node with the extension, the workers registered in it (13.0
# does not propagate CREATE DATABASE).
citus_database() {
  local db="$1" port
  for port in "${CITUS_PORTS[@]}"; do
    "$CITUS_BIN/createdb" -h 127.0.0.1 -p "$port" -U clinic "$db"
    citus_node_sql "$port" "$db" 'CREATE EXTENSION citus'
  done
  citus_node_sql "${CITUS_PORTS[0]}" "$db" "SELECT citus_set_coordinator_host('127.0.0.1', ${CITUS_PORTS[0]})" >/dev/null
  for port in "${CITUS_PORTS[@]:1}"; do
    citus_node_sql "${CITUS_PORTS[0]}" "$db" "SELECT citus_add_node('127.0.0.1', $port)" >/dev/null
  done
}

citus_temp_stop() {
  [ -n "${CITUS_DIR:-}" ] || return 0
  local name
  for name in coordinator worker1 worker2; do
    "${CITUS_AS[@]}" "$CITUS_BIN/pg_ctl" -D "$CITUS_DIR/$name" -m immediate stop >/dev/null 2>&1 || true
  done
  rm -rf "$CITUS_DIR"
  CITUS_DIR=
}

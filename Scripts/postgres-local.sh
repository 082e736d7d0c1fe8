#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the ledger's tests (Tests/PurchaseLedgerTests), from Debian's
# packages: installs postgresql when missing, makes a cluster under /tmp owned by the postgres user (the server
# refuses to run as root), starts it on 127.0.0.1, and prints the URL the tests read from LEDGER_TEST_POSTGRESQL.
#
#   eval "$(bash Scripts/postgres-local.sh start)"   installs, starts, exports LEDGER_TEST_POSTGRESQL and LEDGER_TEST_PGCTL
#   bash Scripts/postgres-local.sh stop              stops the server it started (start again keeps its data)
#   bash Scripts/postgres-local.sh remove            stops it and deletes its data
#
# Port: $LEDGER_PG_PORT (default 54329). Authentication: trust, loopback only. fsync stays on (the default): the
# durability tests kill processes, not the machine, but the store's settings are the ones production runs.
set -euo pipefail

port=${LEDGER_PG_PORT:-54329}
data=/tmp/jwsverify-ledger-pg-$port

find_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$dir" ] || [ ! -x "$dir/pg_ctl" ]; then
    echo "Installing: postgresql" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
  echo "$dir"
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "${1:-start}" in
  start)
    bin=$(find_bin)
    if ! as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
      # A cluster made before is started again with its data (a test restarts a server it stopped).
      if [ ! -f "$data/PG_VERSION" ]; then
        rm -rf "$data"
        mkdir -p "$data"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$data"
        as_postgres "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
      fi
      as_postgres "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$data -c max_connections=100" \
        start >/dev/null
    fi
    echo "export LEDGER_TEST_POSTGRESQL='postgresql://postgres@127.0.0.1:$port/postgres'"
    echo "export LEDGER_TEST_PGCTL='$bin/pg_ctl -D $data'"
    ;;
  stop)
    bin=$(find_bin)
    as_postgres "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
    ;;
  remove)
    bin=$(find_bin)
    as_postgres "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$data"
    ;;
  *)
    echo "usage: $0 start|stop|remove" >&2
    exit 64
    ;;
esac

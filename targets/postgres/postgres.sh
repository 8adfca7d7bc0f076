#!/bin/sh
# A fresh PostgreSQL 15 cluster in the foreground, the same script on the host and as the container's command:
# initdb in a new folder under $PG_DIR (default /var/tmp), then postgres as the postgres user on $PGPORT (5432),
# listening on $PG_LISTEN (127.0.0.1; the image: *). Trust authentication, for the loopback and the server's own
# subnets only (pg_hba samenet): a benchmark's scratch database, reached only from this host or containers on its
# networks. SIGTERM/SIGINT stop it (fast shutdown) and the folder is removed, whatever happens.
# PostgreSQL's defaults are kept (fsync and synchronous_commit on, as the study's postgres image had them).
set -eu
BIN=/usr/lib/postgresql/15/bin
port=${PGPORT:-5432}
listen=${PG_LISTEN:-127.0.0.1}
base=${PG_DIR:-/var/tmp}
exec 2>&1 # one log: the readiness line is PostgreSQL's own
[ -d "$base" ] && [ -w "$base" ] || { echo "postgres.sh: PG_DIR '$base' is not a writable folder"; exit 2; }
# postgres refuses to run as root: as the postgres user the package made (setpriv execs: $! is postgres itself, so the
# SIGINT below reaches it; a function or subshell run with & would be a shell that ignores SIGINT)
as_postgres=
[ "$(id -u)" != 0 ] || as_postgres="setpriv --reuid=postgres --regid=postgres --init-groups"
dir=$(mktemp -d "$base/envbench-postgres.XXXXXX")
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -INT "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 143' TERM INT
[ "$(id -u)" != 0 ] || chown postgres: "$dir"
$as_postgres "$BIN/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C >/dev/null
echo "host all all samenet trust" >> "$dir/data/pg_hba.conf"
$as_postgres "$BIN/postgres" -D "$dir/data" -p "$port" -k "$dir" -c listen_addresses="$listen" &
pid=$!
wait "$pid"

#!/bin/bash
# DayTrader's database: one PostgreSQL on the host (Debian's), a database per tenant, so the database is the same
# for bare metal and containers and never the bottleneck (the paper kept it on another server).
#
# It is a cluster of EnvBench's own, `15/envbench` (Debian's pg_createcluster, port 5433): the host's own clusters
# (such as 15/main) and their postgresql.conf / pg_hba.conf are never touched. What the host gains is written down in
# $DB_STATE/host-changes before it is made, and `restore` puts the host back as it was (the cluster dropped with its
# configuration, data and log; the package, when db.sh installed it, removed).
#
# Network: the cluster listens on 127.0.0.1 (bare metal, host-network containers) and on the Docker bridge's gateway
# address (docker0, e.g. 172.17.0.1): a container on the bridge reaches the host itself there, so DayTrader's
# database traffic stays between the host and containers EnvBench made. pg_hba.conf admits those two networks only.
#
# Usage:
#   db.sh up                      make (once) and start the cluster; prints its port
#   db.sh create NAME             database and role daytrader_NAME (password "daytrader"), empty; idempotent
#   db.sh rebuild NAME URL [USERS QUOTES]
#                                 through the DayTrader at URL (e.g. http://127.0.0.1:18080) using daytrader_NAME:
#                                 sets maxUsers/maxQuotes (default 200/400), then config?action=buildDBTables and
#                                 config?action=buildDB: fresh tables, users uid:0.., quotes s:0..
#   db.sh drop NAME               drops database and role daytrader_NAME
#   db.sh orders NAME             prints how many orders daytrader_NAME holds (a rebuild puts back buildDB's own few)
#   db.sh restore                 puts the host back as `host-changes` says (also after a crash)
#   db.sh status                  the cluster's state and its databases
# Environment: DB_PORT (5433), DAYTRADER_PG_CLUSTER (envbench), DAYTRADER_DB_STATE (/var/lib/envbench/daytrader-db):
# another cluster and state folder (the tests' own, so they never drop the one in use).
#
# Commands that make, start or drop something hold the cluster's lock (/run/lock/envbench-daytrader-db-VERSION-CLUSTER.lock):
# tenants are set up at once, and two starts of one cluster at the same moment fail one of them.
set -euo pipefail
PG_VERSION=${DAYTRADER_PG_VERSION:-15}
CLUSTER=${DAYTRADER_PG_CLUSTER:-envbench}
PORT=${DB_PORT:-5433}
DB_STATE=${DAYTRADER_DB_STATE:-/var/lib/envbench/daytrader-db}
CHANGES=$DB_STATE/host-changes
PASSWORD=daytrader
HERE=$(cd "$(dirname "$0")" && pwd)

log() { echo "[envbench daytrader-db] $*" >&2; }
die() { log "error: $*"; exit 1; }

# the cluster's lock, on descriptor 9 until unlock or exit; the server pg_ctlcluster starts must not inherit it
LOCK=/run/lock/envbench-daytrader-db-$PG_VERSION-$CLUSTER.lock
LOCKED=
lock() {
  [ -z "$LOCKED" ] || return 0
  mkdir -p "$(dirname "$LOCK")"
  exec 9>>"$LOCK"
  flock -w 300 9 || die "another db.sh has held $LOCK for 5 minutes; see what holds it: fuser -v $LOCK"
  LOCKED=1
}
unlock() { [ -z "$LOCKED" ] || { exec 9>&-; LOCKED=; }; }

# a host change, written down before it is made (one line each: what restore undoes)
note() { mkdir -p "$DB_STATE"; grep -qxF "$1" "$CHANGES" 2>/dev/null || echo "$1" >> "$CHANGES"; }

as_postgres() { runuser -u postgres -- "$@"; }
psql_admin() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" -d postgres "$@"; }

bridge_gateway() { ip -4 -o addr show docker0 2>/dev/null | awk '{split($4, a, "/"); print a[1]; exit}'; }

check_name() {
  [[ "${1:-}" =~ ^[a-z0-9_]{1,40}$ ]] || die "NAME '${1:-}' must be 1 to 40 of a-z, 0-9, _ (the database is daytrader_NAME)"
}

cluster_exists() { pg_lsclusters -h 2>/dev/null | awk -v v="$PG_VERSION" -v c="$CLUSTER" '$1 == v && $2 == c' | grep -q .; }
cluster_online() { pg_lsclusters -h 2>/dev/null | awk -v v="$PG_VERSION" -v c="$CLUSTER" '$1 == v && $2 == c {print $4}' | grep -q online; }

up() {
  [ "$(id -u)" = 0 ] || die "run as root: it makes and starts a PostgreSQL cluster"
  lock
  if ! command -v pg_createcluster >/dev/null; then
    note "package postgresql"
    log "apt-get install postgresql"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >/dev/null \
      || die "apt-get install postgresql failed"
  fi
  local gw listen
  gw=$(bridge_gateway)
  listen=127.0.0.1${gw:+,$gw}
  if ! cluster_exists; then
    note "cluster $PG_VERSION/$CLUSTER"
    log "pg_createcluster $PG_VERSION $CLUSTER --port $PORT (listening on $listen)"
    pg_createcluster "$PG_VERSION" "$CLUSTER" --port "$PORT" >/dev/null
  fi
  local conf=/etc/postgresql/$PG_VERSION/$CLUSTER
  # our cluster's own configuration (rewritten every time, so a new bridge address is picked up)
  cat > "$conf/conf.d/envbench.conf" <<CONF
# EnvBench's DayTrader cluster (targets/daytrader/db.sh): loopback and the Docker bridge's gateway only
listen_addresses = '$listen'
max_connections = 400
shared_buffers = 128MB
# a benchmark's scratch data: commits need not wait for the disk (the paper's database was never the bottleneck)
synchronous_commit = off
CONF
  local hba="$conf/pg_hba.conf" subnet
  subnet=$(ip -4 route show dev docker0 proto kernel 2>/dev/null | awk '{print $1; exit}')
  {
    echo "# EnvBench's DayTrader cluster: the local superuser by socket, tenants by password from loopback and the bridge"
    echo "local all postgres peer"
    echo "host all all 127.0.0.1/32 scram-sha-256"
    [ -z "$subnet" ] || echo "host all all $subnet scram-sha-256"
  } > "$hba"
  if cluster_online; then
    # listen_addresses needs a restart; pg_hba a reload
    if [ "$(psql_admin -At -c 'show listen_addresses')" != "$listen" ]; then pg_ctlcluster "$PG_VERSION" "$CLUSTER" restart 9>&-
    else pg_ctlcluster "$PG_VERSION" "$CLUSTER" reload; fi
  else
    pg_ctlcluster "$PG_VERSION" "$CLUSTER" start 9>&- || { tail -20 "/var/log/postgresql/postgresql-$PG_VERSION-$CLUSTER.log" >&2; die "the cluster did not start"; }
  fi
  log "PostgreSQL $PG_VERSION/$CLUSTER online on $listen port $PORT"
  echo "$PORT"
}

create() {
  check_name "${1:-}"
  local db=daytrader_$1
  lock
  cluster_online || up >/dev/null
  if [ -z "$(psql_admin -At -c "select 1 from pg_roles where rolname = '$db'")" ]; then
    psql_admin -c "create role $db login password '$PASSWORD'"
  fi
  if [ -z "$(psql_admin -At -c "select 1 from pg_database where datname = '$db'")" ]; then
    psql_admin -c "create database $db owner $db"
  fi
  # DayTrader's buildDBTables runs the DDL's DROP TABLEs in one transaction: on PostgreSQL the first DROP of a
  # missing table aborts it. So the tables are made here once, with the WAR's own DDL (its DROPs fail alone here).
  if [ -z "$(psql_admin -d "$db" -At -c "select 1 from pg_tables where tablename = 'accountejb'")" ]; then
    local ddl=$HERE/dist/webapps/daytrader/dbscripts/postgre/Table.ddl
    [ -f "$ddl" ] || die "no $ddl: assemble DayTrader first (targets/daytrader/assemble.sh, or ./envbench setup)"
    grep -v '^#' "$ddl" | PGPASSWORD=$PASSWORD psql -X -q -h 127.0.0.1 -p "$PORT" -U "$db" -d "$db" >/dev/null 2>&1 || true
    [ -n "$(psql_admin -d "$db" -At -c "select 1 from pg_tables where tablename = 'accountejb'")" ] \
      || die "the DDL $ddl made no tables in $db"
  fi
  log "database $db ready (role $db)"
}

drop() {
  check_name "${1:-}"
  local db=daytrader_$1
  lock
  cluster_online || { log "cluster not running: nothing to drop"; return 0; }
  psql_admin -c "drop database if exists $db with (force)" -c "drop role if exists $db"
  log "dropped $db"
}

# one GET of DayTrader's config servlet; its page must say the step succeeded
config_step() { # URL query what-the-page-must-contain
  local page
  page=$(curl -fsS --max-time 300 "$1/daytrader/config?$2") || die "GET $1/daytrader/config?$2 failed"
  grep -q -- "$3" <<<"$page" || { echo "$page" | sed 's/<[^>]*>//g' | grep -v '^\s*$' | tail -15 >&2; die "config?$2 did not report '$3'"; }
}

rebuild() {
  check_name "${1:-}"
  local url=${2:?"db.sh rebuild NAME URL [USERS QUOTES]: give the DayTrader's base URL, e.g. http://127.0.0.1:18080"}
  local users=${3:-200} quotes=${4:-400} t0=$SECONDS
  create "$1"
  unlock   # the tenants' rebuilds go through their own DayTrader at once
  config_step "$url" "action=updateConfig&MaxUsers=$users&MaxQuotes=$quotes" "DayTrader Configuration"
  config_step "$url" "action=buildDBTables" "DayTrader tables successfully created"
  config_step "$url" "action=buildDB" "DayTrader Database Built - ${users}users created"
  log "daytrader_$1 rebuilt through $url: $users users, $quotes quotes in $((SECONDS - t0)) s"
}

orders() {
  check_name "${1:-}"
  cluster_online || die "the cluster is not running: db.sh up"
  psql_admin -d "daytrader_$1" -At -c "select count(*) from orderejb"
}

restore() {
  lock
  [ -f "$CHANGES" ] || { log "nothing to restore (no $CHANGES)"; return 0; }
  if grep -qx "cluster $PG_VERSION/$CLUSTER" "$CHANGES" && cluster_exists; then
    # only a cluster db.sh noted it made is dropped: one that was there before is not EnvBench's
    log "pg_dropcluster --stop $PG_VERSION $CLUSTER"
    pg_dropcluster --stop "$PG_VERSION" "$CLUSTER"
  fi
  # pg_dropcluster leaves the files it did not make: our conf.d/envbench.conf, and so its folders
  local conf=/etc/postgresql/$PG_VERSION/$CLUSTER
  if grep -qx "cluster $PG_VERSION/$CLUSTER" "$CHANGES" && ! cluster_exists; then
    rm -f "$conf/conf.d/envbench.conf"
    rmdir "$conf/conf.d" "$conf" 2>/dev/null || true
  fi
  if grep -qx "package postgresql" "$CHANGES"; then
    log "apt-get remove postgresql (db.sh installed it)"
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -q postgresql >/dev/null || true
  fi
  rm -f "$CHANGES"
  rmdir "$DB_STATE" 2>/dev/null || true
  log "host restored"
}

status() {
  pg_lsclusters
  cluster_online && psql_admin -At -c "select datname from pg_database where datname like 'daytrader\_%'" || true
}

cmd=${1:-}; shift || true
case "$cmd" in
  up) up ;;
  create) create "$@" ;;
  rebuild) rebuild "$@" ;;
  drop) drop "$@" ;;
  orders) orders "$@" ;;
  restore) restore ;;
  status) status ;;
  *) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

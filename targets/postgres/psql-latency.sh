#!/bin/bash
# Study 002's client: psql runs INSERTS single-row INSERTs (default 1000), then SELECTS single-row SELECTs (10000),
# each statement its own round trip and its own transaction (psql -f sends them one by one), against
# $ENVBENCH_TARGET_HOST:$ENVBENCH_TARGET_PORT (the runner sets them for the place the client runs in). Each phase is
# timed as the study timed it, with bash's time (the wall clock, and the user and system CPU of psql itself), and
# printed as one line:  psql insert statements=1000 elapsed_s=1.234 user_s=0.012 sys_s=0.034
# The same script and the same psql build (bookworm's postgresql-client-15) run on the host and in the image.
set -euo pipefail
inserts=${1:-1000}
selects=${2:-10000}
[[ "$inserts" =~ ^[1-9][0-9]*$ && "$selects" =~ ^[1-9][0-9]*$ ]] \
  || { echo "psql-latency.sh: give the number of INSERTs and of SELECTs, e.g. psql-latency.sh 1000 10000" >&2; exit 2; }
# the psql binary itself, not Debian's /usr/bin/psql wrapper (a Perl script that would be timed with it)
PSQL=/usr/lib/postgresql/15/bin/psql
export PGHOST=${ENVBENCH_TARGET_HOST:-127.0.0.1} PGPORT=${ENVBENCH_TARGET_PORT:-5432} PGUSER=postgres PGDATABASE=postgres
export PGOPTIONS='-c client_min_messages=warning' # no NOTICE for the DROP TABLE IF EXISTS of a fresh cluster
work=$(mktemp -d "${TMPDIR:-/tmp}/envbench-psql.XXXXXX")
trap 'rm -rf "$work"' EXIT
# the study's table: one int column (a primary key, so a SELECT finds its row without reading the table)
seq 1 "$inserts" | awk '{ print "INSERT INTO latency VALUES (" $1 ");" }' > "$work/insert.sql"
seq 0 $((selects - 1)) | awk -v n="$inserts" '{ print "SELECT n FROM latency WHERE n = " ($1 % n) + 1 ";" }' > "$work/select.sql"
psql() { "$PSQL" -X -q -v ON_ERROR_STOP=1 "$@"; }
psql -c 'DROP TABLE IF EXISTS latency' -c 'CREATE TABLE latency (n integer PRIMARY KEY)' >/dev/null
TIMEFORMAT='%3R %3U %3S'
for phase in insert select; do
  count=$inserts; [ "$phase" = insert ] || count=$selects
  { time psql -f "$work/$phase.sql" > /dev/null 2> "$work/$phase.err"; } 2> "$work/$phase.time" \
    || { cat "$work/$phase.err" >&2; exit 1; }
  read -r real user sys < "$work/$phase.time"
  echo "psql $phase statements=$count elapsed_s=$real user_s=$user sys_s=$sys"
done

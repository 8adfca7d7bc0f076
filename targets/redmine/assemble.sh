#!/bin/bash
# Makes study 000's seed data once, into targets/redmine/dist/seed.sql (not in git): a fresh MariaDB (mariadb.sh, an
# empty database), Redmine's migrations and its default data (English), then seed.rb (the admin's password, the REST
# API, the project envbench), dumped with mariadb-dump. mariadb.sh loads this very dump at every start, on the host
# and in the db container, so every run of every placement starts from the same data. Run by scripts/images.sh
# (./envbench setup) after the host's packages are in; rebuilt only when this script, mariadb.sh, redmine.sh, seed.rb
# or the host's redmine/mariadb-server versions change (dist/.assembled holds the hash). About 20 s.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DIST=$HERE/dist
log() { echo "[envbench redmine] $*" >&2; }
hash=$( (cat "$HERE/assemble.sh" "$HERE/mariadb.sh" "$HERE/redmine.sh" "$HERE/seed.rb"
         dpkg-query -W -f='${Package}=${Version}\n' redmine mariadb-server) | sha256sum | cut -c1-16)
if [ -s "$DIST/seed.sql" ] && [ "$(cat "$DIST/.assembled" 2>/dev/null)" = "$hash" ]; then log "seed up to date ($hash)"; exit 0; fi
log "making the seed data (migrations, default data, admin, project envbench)"
mkdir -p "$DIST"
work=$(mktemp -d)
port=$(ruby -rsocket -e 's = TCPServer.new("127.0.0.1", 0); puts s.addr[1]; s.close')
db=
cleanup() { if [ -n "$db" ]; then kill -TERM "$db" 2>/dev/null || true; wait "$db" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT
DB_PORT=$port DB_SEED=none "$HERE/mariadb.sh" > "$work/db.log" 2>&1 &
db=$!
for _ in $(seq 1 300); do grep -q 'envbench: database ready' "$work/db.log" && break; kill -0 "$db" || break; sleep 0.1; done
grep -q 'envbench: database ready' "$work/db.log" || { cat "$work/db.log" >&2; log "MariaDB did not start"; exit 1; }
cp "$HERE/seed.rb" "$work/seed.rb"; chmod 755 "$work"; chmod 644 "$work/seed.rb"   # www-data reads it
export DB_PORT=$port REDMINE_LANG=en REDMINE_ADMIN_PASSWORD=${REDMINE_ADMIN_PASSWORD:-envbench-admin}
# SCHEMA=/dev/null: as Debian's postinst, no schema.rb dump into the read-only /usr/share/redmine/db
{ SCHEMA=/dev/null "$HERE/redmine.sh" bundle exec rake db:migrate \
  && "$HERE/redmine.sh" bundle exec rake redmine:load_default_data \
  && "$HERE/redmine.sh" bundle exec rails runner "$work/seed.rb"; } > "$work/redmine.log" 2>&1 \
  || { tail -30 "$work/redmine.log" >&2; log "Redmine's setup failed"; exit 1; }
grep 'envbench seed:' "$work/redmine.log" >&2
mariadb-dump --no-defaults -h127.0.0.1 -P"$port" -uredmine -penvbench --single-transaction --skip-dump-date redmine \
  > "$DIST/seed.sql.part"
mv "$DIST/seed.sql.part" "$DIST/seed.sql"
echo "$hash" > "$DIST/.assembled"
log "seed ready: $(wc -c < "$DIST/seed.sql") bytes in $DIST/seed.sql"

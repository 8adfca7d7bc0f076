#!/bin/sh
# Study 000's application: Debian bookworm's Redmine 5.0 under Puma (Debian's puma package) in the foreground, the same
# script on the host and as the app service's container command. Each start makes a Redmine instance of its own
# (Debian's multi-instance layout: /usr/share/redmine/instances/NAME = /var/lib/redmine/NAME, selected by
# REDMINE_INSTANCE) named envbench-XXXXXX, with its database.yml pointing at $DB_HOST:$DB_PORT (the db service: its
# name on the environment's network, or 127.0.0.1 on the host), its secret key, log and tmp; it is removed when
# Redmine stops, so nothing of a run is left on the host. Puma: $PUMA_THREADS threads (default 8) in one process
# (or in each of $PUMA_WORKERS forked workers),
# on $LISTEN_ADDRESS (comma-separated; 127.0.0.1, the image: 0.0.0.0) port $PORT (3000).
# With arguments, runs them in that instance instead of Puma (assemble.sh: redmine.sh bundle exec rake db:migrate).
set -eu
port=${PORT:-3000}
listen=${LISTEN_ADDRESS:-127.0.0.1}
threads=${PUMA_THREADS:-8}
instances=/var/lib/redmine
exec 2>&1
dir=$(mktemp -d "$instances/envbench-XXXXXX")
instance=$(basename "$dir")
. "$(cd "$(dirname "$0")" && pwd)/scratch.sh"
mkdir -p "$dir/config" "$dir/log" "$dir/files" "$dir/public/plugin_assets" "$dir/tmp/pids" "$dir/tmp/cache"
cat > "$dir/config/database.yml" <<YML
production:
  adapter: mysql2
  database: redmine
  host: ${DB_HOST:-127.0.0.1}
  port: ${DB_PORT:-3306}
  username: redmine
  password: ${DB_PASSWORD:-envbench}
  encoding: utf8mb4
  pool: $((threads + 2))
YML
ruby -rsecurerandom -e 'puts SecureRandom.hex(32)' > "$dir/config/secret_key.txt"
# Debian's Redmine runs as www-data (its files and tmp are www-data's); Puma from Redmine's folder, its config.ru
[ "$(id -u)" != 0 ] || chown -R www-data: "$dir"
as_www=
[ "$(id -u)" != 0 ] || as_www="setpriv --reuid=www-data --regid=www-data --init-groups"
cd /usr/share/redmine
export REDMINE_INSTANCE=$instance RAILS_ENV=production HOME=$dir
if [ $# -gt 0 ]; then $as_www "$@" & pid=$!; wait "$pid"; status=$?; pid=; exit $status; fi
# one --bind per address of $LISTEN_ADDRESS (comma-separated: 127.0.0.1, and the Docker bridge's when a container needs it)
binds=
for a in $(echo "$listen" | tr ',' ' '); do binds="$binds --bind tcp://$a:$port"; done
# PUMA_WORKERS (default 0): Puma's cluster mode, that many forked Ruby processes, each with its threads (one Ruby
# process runs on one core at a time: the interpreter's lock)
workers=
[ "${PUMA_WORKERS:-0}" = 0 ] || workers="--workers $PUMA_WORKERS"
$as_www puma --environment production $binds $workers --threads "$threads:$threads" \
  --pidfile "$dir/tmp/pids/puma.pid" config.ru &
pid=$!
wait "$pid"

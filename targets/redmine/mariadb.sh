#!/bin/sh
# Study 000's database: a fresh MariaDB (Debian bookworm's mariadb-server) in the foreground, the same script on the
# host and as the db service's container command. Every start: mariadb-install-db into a new folder under $DB_DIR
# (default /var/tmp), mariadbd on $DB_PORT (3306) listening on $DB_LISTEN (comma-separated; 127.0.0.1, the image:
# 0.0.0.0), the user redmine (password $DB_PASSWORD) for the database redmine, which is loaded from $DB_SEED (a dump made once by
# assemble.sh: Redmine's schema, its default data, the admin and one project). So every run starts from the very
# same data, in every placement. Prints "envbench: database ready" once the seed is in. SIGTERM/SIGINT stop it and
# the folder is removed, whatever happens. DB_SEED=none: an empty database redmine (assemble.sh makes the seed so).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=${DB_PORT:-3306}
listen=${DB_LISTEN:-127.0.0.1}
base=${DB_DIR:-/var/tmp}
seed=${DB_SEED:-$here/dist/seed.sql}
password=${DB_PASSWORD:-envbench}
exec 2>&1
[ -d "$base" ] && [ -w "$base" ] || { echo "mariadb.sh: DB_DIR '$base' is not a writable folder"; exit 2; }
[ "$seed" = none ] || [ -r "$seed" ] || { echo "mariadb.sh: no seed dump at '$seed'; ./envbench setup makes it (targets/redmine/assemble.sh)"; exit 2; }
dir=$(mktemp -d "$base/envbench-mariadb.XXXXXX")
chmod 755 "$dir"
user=$(id -un)
[ "$(id -u)" != 0 ] || { user=mysql; chown mysql: "$dir"; }
. "$here/scratch.sh"
mariadb-install-db --user="$user" --datadir="$dir/data" --auth-root-authentication-method=socket \
  --skip-test-db >"$dir/install.log" 2>&1 || { cat "$dir/install.log"; exit 1; }
# --no-defaults: none of the host's /etc/mysql settings; what differs from MariaDB's defaults is said here
/usr/sbin/mariadbd --no-defaults --user="$user" --datadir="$dir/data" --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" \
  --port="$port" --bind-address="$listen" --skip-name-resolve --character-set-server=utf8mb4 \
  --log-error="$dir/error.log" &
pid=$!
i=0
until mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; do
  i=$((i + 1)); [ $i -lt 300 ] && kill -0 "$pid" 2>/dev/null || { cat "$dir/error.log"; exit 1; }
  sleep 0.1
done
mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot <<SQL
CREATE DATABASE redmine CHARACTER SET utf8mb4;
CREATE USER 'redmine'@'%' IDENTIFIED BY '$password';
GRANT ALL ON redmine.* TO 'redmine'@'%';
SQL
[ "$seed" = none ] || mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot redmine < "$seed"
echo "envbench: database ready on $listen:$port (seed: $seed)"
wait "$pid"

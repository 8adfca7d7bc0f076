#!/bin/sh
# Study 001's database tier: a fresh MariaDB (Debian bookworm's mariadb-server) in the foreground, the same script on
# the host and as the db service's container command. Every start: mariadb-install-db into a new folder under
# $DB_DIR (default /var/tmp: on the host, or the container's copy-on-write layer unless a volume is mounted there),
# mariadbd on $DB_PORT (3306) listening on $DB_LISTEN (comma-separated; 127.0.0.1, the image: 0.0.0.0), the database
# isucon for the user isucon (password $DB_PASSWORD) with the ISUCON4 qualifier's two tables: users ($USERS of them,
# isucon-user-N with password pw-N) and an empty login_log. So every run starts from the very same data, in every
# placement. Tuned as the study's team tuned MySQL for a qualifier whose data fits in memory: the redo log is written
# at each commit and flushed to disk once a second (innodb_flush_log_at_trx_commit=2), so a login's INSERT does not
# wait for the disk. Prints "envbench: database ready" once the seed is in. SIGTERM/SIGINT stop it and the folder is
# removed, whatever happens.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
port=${DB_PORT:-3306}
listen=${DB_LISTEN:-127.0.0.1}
base=${DB_DIR:-/var/tmp}
password=${DB_PASSWORD:-envbench}
users=${USERS:-1000}
exec 2>&1
[ -d "$base" ] && [ -w "$base" ] || { echo "mariadb.sh: DB_DIR '$base' is not a writable folder"; exit 2; }
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
  --innodb-flush-log-at-trx-commit=2 --log-error="$dir/error.log" &
pid=$!
i=0
until mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; do
  i=$((i + 1)); [ $i -lt 300 ] && kill -0 "$pid" 2>/dev/null || { cat "$dir/error.log"; exit 1; }
  sleep 0.1
done
mariadb --no-defaults --socket="$dir/mysqld.sock" -uroot <<SQL
CREATE DATABASE isucon CHARACTER SET utf8mb4;
CREATE USER 'isucon'@'%' IDENTIFIED BY '$password';
GRANT ALL ON isucon.* TO 'isucon'@'%';
USE isucon;
CREATE TABLE users (
  id BIGINT PRIMARY KEY AUTO_INCREMENT,
  login VARCHAR(255) NOT NULL UNIQUE,
  password_hash CHAR(64) NOT NULL,
  salt VARCHAR(255) NOT NULL
) ENGINE=InnoDB;
CREATE TABLE login_log (
  id BIGINT PRIMARY KEY AUTO_INCREMENT,
  created_at DATETIME NOT NULL,
  user_id BIGINT,
  login VARCHAR(255) NOT NULL,
  ip VARCHAR(255) NOT NULL,
  succeeded TINYINT NOT NULL,
  KEY user_id (user_id, succeeded, id),
  KEY ip (ip, succeeded, id)
) ENGINE=InnoDB;
SET SESSION max_recursive_iterations = $users;
INSERT INTO users (login, password_hash, salt)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $users)
  SELECT CONCAT('isucon-user-', i), SHA2(CONCAT('pw-', i, ':salt-', i), 256), CONCAT('salt-', i) FROM n;
SQL
echo "envbench: database ready on $listen:$port ($users users)"
wait "$pid"

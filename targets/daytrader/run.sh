#!/bin/bash
# Starts DayTrader 2.1.7 (Direct mode) on Tomcat 9 in the foreground, on $PORT. The same script runs as the
# bare-metal host process and as the container's command: the same Tomcat, webapp and JVM settings in both.
# Each instance gets its own CATALINA_BASE under $STATE (conf, work, temp); the assembled Tomcat and webapp
# (dist/, see assemble.sh) are shared and only read.
#   PORT               port to listen on (default 8080)
#   LISTEN_ADDRESS     address to listen on (default 0.0.0.0; the bare-metal recipe sets 127.0.0.1)
#   STATE              writable folder for this instance's CATALINA_BASE (default: a new temporary folder)
#   DAYTRADER_HEAP_MB  Java heap, -Xms = -Xmx (default 192)
#   DAYTRADER_THREADS  Tomcat's request threads (default 200)
#   DAYTRADER_JAVA_OPTS more JVM options (default: -XX:+UseG1GC, named so that a container limited to one CPU,
#                      which the JVM would give the serial collector, keeps the collector bare metal has here)
#   DB_HOST            PostgreSQL's address; "auto" (the image's default): 127.0.0.1 when something listens on
#                      127.0.0.1:$DB_PORT (bare metal, host network), else the default gateway, which on a Docker
#                      bridge is the host itself (see db.sh: the cluster listens there too)
#   DB_PORT            (default 5433: EnvBench's own cluster, db.sh)
#   DB_NAME, DB_USER   the tenant's database and role (default daytrader_default for both; db.sh makes them)
#   DB_PASSWORD        (default daytrader)
#   DB_POOL            JDBC connections of the instance (default 16)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DIST=${DAYTRADER_DIST:-$here/dist}
PORT=${PORT:-8080}
LISTEN_ADDRESS=${LISTEN_ADDRESS:-0.0.0.0}
STATE=${STATE:-$(mktemp -d /tmp/envbench-daytrader.XXXXXX)}
DB_PORT=${DB_PORT:-5433}
DB_NAME=${DB_NAME:-daytrader_default}
DB_USER=${DB_USER:-$DB_NAME}
DB_PASSWORD=${DB_PASSWORD:-daytrader}
DB_POOL=${DB_POOL:-16}

[ -f "$DIST/tomcat/bin/catalina.sh" ] && [ -d "$DIST/webapps/daytrader" ] \
  || { echo "run.sh: no assembled DayTrader in $DIST; run ./envbench setup (or targets/daytrader/assemble.sh)" >&2; exit 2; }

listening() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
if [ "${DB_HOST:-auto}" = auto ]; then
  if listening 127.0.0.1 "$DB_PORT"; then DB_HOST=127.0.0.1
  else DB_HOST=$(ip -4 route show default | awk '{print $3; exit}'); fi
  [ -n "$DB_HOST" ] || { echo "run.sh: DB_HOST=auto found neither 127.0.0.1:$DB_PORT nor a default gateway" >&2; exit 2; }
fi

base=$STATE/catalina-base
mkdir -p "$base/conf" "$base/temp" "$base/work" "$base/logs"
cp "$DIST/tomcat/conf/web.xml" "$DIST/tomcat/conf/catalina.properties" "$DIST/tomcat/conf/context.xml" "$base/conf/"
cp "$here/logging.properties" "$base/conf/"
sed -e "s|@PORT@|$PORT|g" -e "s|@ADDRESS@|$LISTEN_ADDRESS|g" -e "s|@WEBAPPS@|$DIST/webapps|g" \
    -e "s|@MAX_THREADS@|${DAYTRADER_THREADS:-200}|g" "$here/server.xml.template" > "$base/conf/server.xml"

echo "run.sh: DayTrader on $LISTEN_ADDRESS:$PORT, database $DB_NAME at $DB_HOST:$DB_PORT, heap ${DAYTRADER_HEAP_MB:-192} MB, base $base"
export CATALINA_HOME=$DIST/tomcat CATALINA_BASE=$base CATALINA_TMPDIR=$base/temp
heap=${DAYTRADER_HEAP_MB:-192}m
export CATALINA_OPTS="-Xms$heap -Xmx$heap ${DAYTRADER_JAVA_OPTS:--XX:+UseG1GC} -Djava.security.egd=file:/dev/./urandom \
 -Ddaytrader.db.host=$DB_HOST -Ddaytrader.db.port=$DB_PORT -Ddaytrader.db.name=$DB_NAME \
 -Ddaytrader.db.user=$DB_USER -Ddaytrader.db.password=$DB_PASSWORD -Ddaytrader.db.pool=$DB_POOL"
# catalina.sh run execs the JVM: it becomes this process, so SIGTERM reaches Tomcat (a clean stop)
exec "$CATALINA_HOME/bin/catalina.sh" run

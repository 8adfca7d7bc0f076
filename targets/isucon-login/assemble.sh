#!/bin/bash
# Compiles study 001's login app (app/LoginApp.java) with the host's javac for Java 17 and fetches MariaDB's JDBC
# driver from Maven Central, into targets/isucon-login/dist/ (not in git). The same dist/ runs on the host (app.sh)
# and is copied into the image (Dockerfile), so bare metal and container run the very same jar.
#   dist/login-app.jar            the app (no dependency but the JDK)
#   dist/mariadb-java-client.jar  org.mariadb.jdbc:mariadb-java-client (no dependency of its own)
# The download (mvn dependency:copy, the only online step) is cached in ${ENVBENCH_CACHE:-~/.cache/envbench}/isucon-login;
# dist/ is rebuilt only when this script, the app's source or the driver's version changes (dist/.assembled: the hash).
# Usage: assemble.sh [--check]   (--check: exit 1 when dist/ is missing or stale, build nothing)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${ENVBENCH_CACHE:-$HOME/.cache/envbench}/isucon-login
DIST=$HERE/dist
DRIVER_VERSION=3.5.6
DRIVER=org.mariadb.jdbc:mariadb-java-client:$DRIVER_VERSION:jar

log() { echo "[envbench isucon-login] $*" >&2; }

recipe_hash() { (cat "$HERE/assemble.sh" "$HERE/app/LoginApp.java"; echo "$DRIVER") | sha256sum | cut -c1-16; }

up_to_date() { [ -f "$DIST/.assembled" ] && [ "$(cat "$DIST/.assembled")" = "$(recipe_hash)" ]; }

if [ "${1:-}" = "--check" ]; then up_to_date; exit; fi
if up_to_date; then log "dist up to date ($(recipe_hash))"; exit 0; fi
command -v javac >/dev/null || { log "javac is missing: install a JDK 17 (apt-get install openjdk-17-jdk-headless)"; exit 1; }
driver=$CACHE/downloads/mariadb-java-client-$DRIVER_VERSION.jar
if [ ! -s "$driver" ]; then
  command -v mvn >/dev/null || { log "mvn is missing: install maven (apt-get install maven)"; exit 1; }
  mkdir -p "$CACHE/downloads"
  log "mvn dependency:copy $DRIVER (Maven Central)"
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy -Dartifact="$DRIVER" \
      -DoutputDirectory="$CACHE/downloads" >"$CACHE/mvn.log" 2>&1 \
    || { tail -20 "$CACHE/mvn.log" >&2; log "could not fetch $DRIVER from Maven Central (see $CACHE/mvn.log)"; exit 1; }
  [ -s "$driver" ] || { log "mvn did not write $driver"; exit 1; }
fi
work=$(mktemp -d "$HERE/.dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/classes"
javac --release 17 -d "$work/classes" "$HERE/app/LoginApp.java"
jar --create --file "$work/login-app.jar" -C "$work/classes" .
rm -rf "$work/classes"
cp "$driver" "$work/mariadb-java-client.jar"
recipe_hash > "$work/.assembled"
rm -rf "$DIST"
mv "$work" "$DIST"
trap - EXIT
log "ready: $(du -sh "$DIST" | cut -f1) in $DIST"

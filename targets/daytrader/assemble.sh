#!/bin/bash
# Assembles DayTrader 2.1.7's web module on Tomcat 9, in Direct (JDBC) mode, from Maven Central only, into
# targets/daytrader/dist/ (not in git). The same tree runs on the host (run.sh) and is copied into the image
# (Dockerfile), so bare metal and container run the very same Tomcat and webapp.
#   dist/tomcat           Tomcat (CATALINA_HOME): bin/ and lib/ (+ the PostgreSQL driver), no sample webapps
#   dist/webapps/daytrader  DayTrader's web.war, unpacked, with the EAR's jars, openjpa and commons-logging in
#                         WEB-INF/lib, web.xml without its EJB/JMS/web-service references, and META-INF/context.xml
#                         declaring jdbc/TradeDataSource (PostgreSQL; host, port, database from run.sh)
# Downloads (mvn dependency:copy, the only online step) are cached in ${ENVBENCH_CACHE:-~/.cache/envbench}/daytrader;
# dist/ is rebuilt only when this script, context.xml or a version changes (dist/.assembled holds the hash).
# Usage: assemble.sh [--check]   (--check: exit 1 when dist/ is missing or stale, build nothing)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${ENVBENCH_CACHE:-$HOME/.cache/envbench}/daytrader
DIST=$HERE/dist

DAYTRADER=org.apache.geronimo.daytrader:daytrader-ear:2.1.7:ear
TOMCAT_VERSION=9.0.98
TOMCAT=org.apache.tomcat:tomcat:$TOMCAT_VERSION:zip
OPENJPA=org.apache.openjpa:openjpa:1.2.2:jar
COMMONS_LOGGING=commons-logging:commons-logging:1.2:jar
# the Java EE APIs the web module's classes name (Tomcat has none of them): exceptions, interfaces, annotations
EE_APIS=(org.apache.geronimo.specs:geronimo-ejb_3.0_spec:1.0.1:jar org.apache.geronimo.specs:geronimo-jms_1.1_spec:1.1.1:jar
  org.apache.geronimo.specs:geronimo-jpa_3.0_spec:1.1.1:jar org.apache.geronimo.specs:geronimo-jta_1.1_spec:1.1.1:jar)
POSTGRESQL=org.postgresql:postgresql:42.7.4:jar
ARTIFACTS=("$DAYTRADER" "$TOMCAT" "$OPENJPA" "$COMMONS_LOGGING" "${EE_APIS[@]}" "$POSTGRESQL")

log() { echo "[envbench daytrader] $*" >&2; }

recipe_hash() { (cat "$HERE/assemble.sh" "$HERE/context.xml"; printf '%s\n' "${ARTIFACTS[@]}") | sha256sum | cut -c1-16; }

# group:artifact:version:type -> the file mvn dependency:copy writes
file_of() { local IFS=:; set -- $1; echo "$CACHE/downloads/$2-$3.$4"; }

fetch() {
  mkdir -p "$CACHE/downloads"
  local a
  for a in "${ARTIFACTS[@]}"; do
    [ -s "$(file_of "$a")" ] && continue
    log "mvn dependency:copy $a (Maven Central)"
    # no -o: the one step of setup that goes online, for these artifacts only; no transitive dependencies
    mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy -Dartifact="$a" \
        -DoutputDirectory="$CACHE/downloads" >"$CACHE/mvn.log" 2>&1 \
      || { tail -20 "$CACHE/mvn.log" >&2; log "could not fetch $a from Maven Central (see $CACHE/mvn.log)"; exit 1; }
    [ -s "$(file_of "$a")" ] || { log "mvn did not write $(file_of "$a")"; exit 1; }
  done
}

# web.xml of Direct mode: the EJB, JMS and web-service references go (Tomcat has no EJB container, JMS broker or
# JAX-RPC); the data source's resource-ref stays, answered by context.xml; metadata-complete: no annotation scan
# (the EJB ping servlets carry @EJB, which Tomcat would try to inject)
direct_web_xml() {
  perl -0777 -i -pe '
    s{\s*<ejb-ref>.*?</ejb-ref>}{}gs;
    s{\s*<message-destination-ref>.*?</message-destination-ref>}{}gs;
    s{\s*<service-ref>.*?</service-ref>}{}gs;
    s{\s*<resource-ref>(?:(?!</resource-ref>).)*?jms/.*?</resource-ref>}{}gs;
    s{<web-app }{<web-app metadata-complete="true" };
  ' "$1"
  ! grep -q -E '<(ejb-ref|message-destination-ref|service-ref)>|jms/' "$1" || { log "web.xml still has EJB/JMS references"; exit 1; }
  grep -q 'jdbc/TradeDataSource' "$1" || { log "web.xml lost jdbc/TradeDataSource"; exit 1; }
}

assemble() {
  local work ear
  work=$(mktemp -d "$HERE/.dist.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  log "assembling Tomcat $TOMCAT_VERSION + DayTrader 2.1.7 (Direct mode) into $DIST"
  unzip -q "$(file_of "$TOMCAT")" -d "$work"
  mv "$work/apache-tomcat-$TOMCAT_VERSION" "$work/tomcat"
  rm -rf "$work/tomcat/webapps" "$work/tomcat/bin/"*.bat "$work/tomcat/logs" "$work/tomcat/temp" "$work/tomcat/work"
  cp "$(file_of "$POSTGRESQL")" "$work/tomcat/lib/"     # the data source's driver: Tomcat's class loader
  ear=$work/ear; mkdir -p "$ear" "$work/webapps/daytrader"
  unzip -q "$(file_of "$DAYTRADER")" -d "$ear"
  unzip -q "$ear/web.war" -d "$work/webapps/daytrader"
  mkdir -p "$work/webapps/daytrader/WEB-INF/lib" "$work/webapps/daytrader/META-INF"
  cp "$ear"/*.jar "$(file_of "$OPENJPA")" "$(file_of "$COMMONS_LOGGING")" "$work/webapps/daytrader/WEB-INF/lib/"
  for a in "${EE_APIS[@]}"; do cp "$(file_of "$a")" "$work/webapps/daytrader/WEB-INF/lib/"; done
  rm -rf "$ear"
  direct_web_xml "$work/webapps/daytrader/WEB-INF/web.xml"
  cp "$HERE/context.xml" "$work/webapps/daytrader/META-INF/context.xml"
  chmod +x "$work/tomcat/bin/"*.sh
  recipe_hash > "$work/.assembled"
  rm -rf "$DIST"
  mv "$work" "$DIST"
  trap - EXIT
  log "ready: $(du -sh "$DIST" | cut -f1) in $DIST"
}

up_to_date() { [ -f "$DIST/.assembled" ] && [ "$(cat "$DIST/.assembled")" = "$(recipe_hash)" ]; }

if [ "${1:-}" = "--check" ]; then up_to_date; exit; fi
if up_to_date; then log "dist up to date ($(recipe_hash))"; exit 0; fi
command -v mvn >/dev/null || { log "mvn is missing: install maven (apt-get install maven)"; exit 1; }
fetch
assemble

#!/bin/sh
# Starts nginx in the foreground serving $SITE on $PORT. The same script runs
# as the bare-metal host process and as the container's command, so both
# environments run the same nginx with the same configuration.
#   PORT   port to listen on (default 8080)
#   SITE   folder with the static pages (default: ./site next to this script)
#   STATE  writable folder for the rendered config, pid and temp files
set -eu
here=$(cd "$(dirname "$0")" && pwd)
PORT=${PORT:-8080}
SITE=${SITE:-$here/site}
STATE=${STATE:-$(mktemp -d /tmp/envbench-nginx.XXXXXX)}
case "$SITE" in /*) ;; *) SITE="$here/$SITE" ;; esac
mkdir -p "$STATE"
sed -e "s|@PORT@|$PORT|g" -e "s|@SITE@|$SITE|g" -e "s|@STATE@|$STATE|g" \
    "$here/nginx.conf.template" > "$STATE/nginx.conf"
exec nginx -p "$STATE" -c "$STATE/nginx.conf" -g 'daemon off;'

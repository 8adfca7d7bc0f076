# Sourced by mariadb.sh, app.sh and nginx.sh (on the host and in the image): the server runs in the background as
# $pid, and whatever way the script ends (its server exits, SIGTERM, SIGINT) the server is stopped and the script's
# scratch folder $dir removed, so nothing of a start is left. Set dir before sourcing; set pid when the server starts.
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

#!/bin/sh
# Runs bonnie++ once in a fresh folder under $BONNIE_DIR (default /data), removed afterwards whatever happens,
# and prints its CSV line (quiet mode: the human-readable table goes to stderr). Arguments go to bonnie++,
# e.g. bonnie.sh -s 1024 -r 512 -n 64 -f. The same script runs on the host and in the container.
set -eu
dir=${BONNIE_DIR:-/data}
[ -d "$dir" ] && [ -w "$dir" ] || { echo "bonnie.sh: BONNIE_DIR '$dir' is not a writable folder" >&2; exit 2; }
scratch=$(mktemp -d "$dir/envbench-bonnie.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
trap 'exit 143' TERM INT
# -u root: bonnie++ refuses to run as root without it; -q: CSV on stdout; -m: the place's name in the CSV
bonnie++ -d "$scratch" -u root -q -m "${ENVBENCH_ENVIRONMENT:-$(hostname)}" "$@"

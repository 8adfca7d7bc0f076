#!/bin/bash
# Builds EnvBench's local images without any registry:
#   envbench/base:latest      debootstrap'd Debian bookworm + targets/base/packages.txt
#   envbench/<target>-packages:latest  the base + targets/<target>/packages.txt (only for a target that has one),
#                             each package and its dependencies pinned to the very version the host holds
#   envbench/<target>:latest  one per targets/<target>/Dockerfile, FROM the base, or FROM its -packages image (after
#                             its assemble.sh, if any, which makes what both the host process and the image run:
#                             targets/daytrader/dist)
# Each image is labelled with the hash of its recipe and rebuilt only when it changes.
# The same packages are installed on the host, so bare metal runs the same versions: the base's and those of the
# targets built, no more; what the host did not hold before is recorded, and its services are disabled (systemd).
# Before it builds an image it says which, why (what changed since the image was built: a file of the recipe, a
# pinned package's version, the image it is built FROM) and about how long (the last build of it, else a guess).
# Usage: images.sh [--no-versions | --only-missing | --check] [TARGET...]   (no TARGET: all)
#   --no-versions   skip listing the package versions afterwards
#   --only-missing  build only the images that do not exist; an outdated one is said, not rebuilt (the controller asks)
#   --check         build and install nothing: print a line per image that would be built,
#                   IMAGE<TAB>HASH<TAB>WHY<TAB>ESTIMATE (HASH "-" when it depends on an image rebuilt first)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${ENVBENCH_CACHE:-$HOME/.cache/envbench}
MIRROR=${ENVBENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${ENVBENCH_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
LABEL_HASH=io.envbench.recipe-hash

log() { echo "[envbench images] $*" >&2; }

list_packages() { grep -v '^\s*#' "$1" | grep -v '^\s*$' | tr '\n' ' '; } # a packages.txt -> its names
base_packages() { list_packages "$ROOT/targets/base/packages.txt"; }
target_packages() { [ ! -f "$ROOT/targets/$1/packages.txt" ] || list_packages "$ROOT/targets/$1/packages.txt"; }
# a packages.env (VAR=VALUE lines, '#' comments): set while apt-get installs that target's packages, host and image
target_env() { [ ! -f "$ROOT/targets/$1/packages.env" ] || list_packages "$ROOT/targets/$1/packages.env"; }
all_env() { for d in "$ROOT"/targets/*/packages.env; do [ -f "$d" ] && list_packages "$d"; done; }
# the base's packages and those of the targets named (the images being built)
host_packages_for() { base_packages; for t in "$@"; do target_packages "$t"; done; }
# what EnvBench itself installed on the host, one package a line: only these does `./envbench clean --host-packages` remove
INSTALLED_RECORD="$CACHE/host-packages-installed.txt"
HOST_STAMP="$CACHE/host-packages-current.txt"   # the packages installed since apt and dpkg last changed

recipe_hash() { # files... -> short sha256 over names (relative to the checkout, so every clone agrees) and contents
  (for f in "$@"; do echo "== ${f#"$ROOT"/}"; cat "$f"; done) | sha256sum | cut -c1-16
}

image_hash() { docker image inspect -f "{{ index .Config.Labels \"$LABEL_HASH\" }}" "$1" 2>/dev/null | grep -v "^<no value>$" || true; }

# --- what an image is built from, and why it would be built ------------------------------------------------------
# A recipe's manifest (KEY VALUE lines: a file and its digest, a pinned package and its version, the image it is built
# FROM and that image's id) is kept in $RECIPES under its hash whenever it is computed, so that when an image's hash
# label no longer matches, the manifest of the hash it was built from says what changed.
RECIPES="$CACHE/recipes"
MODE=build # build | only-missing | check

file_digest() { sha256sum "$1" | cut -c1-16; }

keep_manifest() { # HASH < manifest
  mkdir -p "$RECIPES"
  cat > "$RECIPES/$1.txt.part" && mv "$RECIPES/$1.txt.part" "$RECIPES/$1.txt"
}

# OLD NEW manifest files -> what changed, in a line: "nginx.conf.template changed, libssl3 3.0.11 -> 3.0.13, ..."
manifest_changes() {
  awk 'function shown(k) { sub(/^listed:/, "package ", k); sub(/^pkg:/, "package ", k); return k }
       NR == FNR { old[$1] = substr($0, length($1) + 2); next }
       { key = $1; now = substr($0, length($1) + 2); seen[key] = 1
         if (!(key in old)) out[n++] = shown(key) " added"
         else if (old[key] != now) {
           if (key ~ /^FROM:/) out[n++] = substr(key, 6) " rebuilt"
           else if (key ~ /^pkg:/) out[n++] = substr(key, 5) " " old[key] " -> " now
           else out[n++] = key " changed"
         } }
       END { for (k in old) if (!(k in seen)) out[n++] = shown(k) " removed"
             for (i = 0; i < n && i < 5; i++) printf "%s%s", (i ? ", " : ""), out[i]
             if (n > 5) printf ", and %d more", n - 5 }' "$1" "$2"
}

# TAG HASH -> why TAG must be built ("" when its label is HASH: up to date); the manifest for HASH is in $RECIPES
why_build() {
  local tag=$1 hash=$2 built changes
  built=$(image_hash "$tag")
  if [ -z "$built" ]; then
    if docker image inspect "$tag" >/dev/null 2>&1; then echo "it has no recipe label (not built by EnvBench)"
    else echo "no image yet"; fi
    return
  fi
  [ "$built" != "$hash" ] || return 0
  if [ -f "$RECIPES/$built.txt" ] && [ -f "$RECIPES/$hash.txt" ]; then
    changes=$(manifest_changes "$RECIPES/$built.txt" "$RECIPES/$hash.txt")
    echo "its recipe changed: ${changes:-the same files, another hash}"
  else
    echo "its recipe changed (built from $built, now $hash; what changed is not known: built before EnvBench kept recipes)"
  fi
}

# KIND NAME -> about how long its build takes: the last build of it, else a guess for its kind
estimate() {
  local kind=$1 name=$2 s
  if [ -f "$RECIPES/$name.seconds" ]; then s=$(cat "$RECIPES/$name.seconds")
  else case $kind in base) s=300 ;; packages) s=150 ;; *) s=30 ;; esac; fi
  if [ "$s" -lt 90 ]; then echo "about $s s"; else echo "about $(( (s + 30) / 60 )) min"; fi
}

# TAG HASH WHY ESTIMATE -> whether to build now, having said so; in check mode the line for the caller instead
announce() {
  local tag=$1 hash=$2 why=$3 est=$4
  case $MODE in
    check) printf '%s\t%s\t%s\t%s\n' "$tag" "$hash" "$why" "$est"; return 1 ;;
    only-missing)
      if [ "$why" != "no image yet" ]; then
        log "$tag is out of date ($why): not rebuilt now; the controller asks before a run that needs it, or ./envbench setup rebuilds it"
        return 1
      fi ;;
  esac
  log "building $tag: $why ($est)"
}

decide() { # TAG HASH WHY ESTIMATE -> 0 to build now; TAG counts as rebuilt when it is (or, checking, would be)
  if announce "$@"; then REBUILT[$1]=1; return 0; fi
  [ "$MODE" != check ] || REBUILT[$1]=1
  return 1
}

timed() { # NAME command... -> runs it, keeping how long it took for the next estimate
  local name=$1 t0=$SECONDS; shift
  "$@" || return $?
  mkdir -p "$RECIPES"; echo $((SECONDS - t0)) > "$RECIPES/$name.seconds"
}

# whether an image is (or, in check mode, would be) rebuilt in this invocation: what is built FROM it follows
declare -A REBUILT=()

plan_base() { # -> 0 when the base is to be built now
  local hash why
  hash=$(recipe_hash "$ROOT/targets/base/packages.txt" <(declare -f build_base base_packages list_packages))
  { echo "targets/base/packages.txt $(file_digest "$ROOT/targets/base/packages.txt")"
    echo "scripts/images.sh:build_base $(declare -f build_base base_packages list_packages | sha256sum | cut -c1-16)"
    base_packages | tr ' ' '\n' | { grep -v '^$' || true; } | sed 's/^/listed:/; s/$/ yes/'
  } | keep_manifest "$hash"
  why=$(why_build envbench/base:latest "$hash")
  [ -n "$why" ] || { [ "$MODE" = check ] || log "base image up to date ($hash)"; return 1; }
  local est; est=$(estimate base base)
  [ ! -s "$CACHE/base-$hash.tar" ] || est="about 20 s (from the cached tarball)"
  decide envbench/base:latest "$hash" "$why" "$est"
}

packages_manifest() { # NAME PINS -> its manifest
  echo "$2" | { grep -v '^$' || true; } | sed 's/^\([^=]*\)=\(.*\)$/pkg:\1 \2/'
  echo "env $(target_env "$1")"
  echo "scripts/images.sh $(file_digest "$ROOT/scripts/images.sh")"
  echo "FROM:envbench/base:latest $(docker image inspect -f '{{.Id}}' envbench/base:latest 2>/dev/null)"
}

plan_packages() { # NAME -> 0 when its -packages image is to be built now
  local name=$1 tag=envbench/$1-packages:latest pins hash why
  if [ -n "${REBUILT[envbench/base:latest]:-}" ]; then
    decide "$tag" - "envbench/base:latest is rebuilt first" "$(estimate packages "$name-packages")"
    return
  fi
  pins=$(host_pins $(target_packages "$name"))
  hash=$(echo "$pins $(target_env "$name")" | recipe_hash "$ROOT/scripts/images.sh" /dev/stdin <(docker image inspect -f '{{.Id}}' envbench/base:latest))
  packages_manifest "$name" "$pins" | keep_manifest "$hash"
  why=$(why_build "$tag" "$hash")
  [ -n "$why" ] || { [ "$MODE" = check ] || log "$tag up to date ($hash)"; return 1; }
  decide "$tag" "$hash" "$why" "$(estimate packages "$name-packages")"
}

plan_target() { # NAME FROM -> 0 when its image is to be built now
  local name=$1 from=$2 dir="$ROOT/targets/$1" tag=envbench/$1:latest hash why f
  if [ -n "${REBUILT[$from]:-}" ]; then
    decide "$tag" - "$from is rebuilt first" "$(estimate target "$name")"
    return
  fi
  hash=$(recipe_hash $(find "$dir" -type f | sort) <(docker image inspect -f '{{.Id}}' "$from"))
  { for f in $(find "$dir" -type f | sort); do echo "${f#"$ROOT"/} $(file_digest "$f")"; done
    echo "FROM:$from $(docker image inspect -f '{{.Id}}' "$from" 2>/dev/null)"
  } | keep_manifest "$hash"
  why=$(why_build "$tag" "$hash")
  [ -n "$why" ] || { [ "$MODE" = check ] || log "$tag up to date ($hash)"; return 1; }
  decide "$tag" "$hash" "$why" "$(estimate target "$name")"
}

installed_now() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 2>/dev/null | awk '$1 == "ii" { print $2 }' | sort -u; }

install_host_packages() { # targets...
  # install or upgrade to the candidate version, as the base does, so both hold the same builds; the targets' own
  # packages too (each target runs bare on this host); their images are then pinned to what the host got. Only the
  # targets being built: a launch for nginx installs nothing of Redmine's.
  local packages before; packages=$(host_packages_for "$@")
  mkdir -p "$CACHE"
  if host_packages_current $packages; then
    log "host packages as installed last ($HOST_STAMP): $packages"
    return 0
  fi
  before=$(installed_now)
  log "apt-get install on the host: $packages"
  # no service of these packages may start on the host (mariadb-server's, postgresql's): EnvBench starts its own
  # instances. A policy-rc.d that refuses starts is put in place for the install when the host has none, and removed.
  (
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\n# EnvBench: no service starts while its packages install (scripts/images.sh)\nexit 101\n' > /usr/sbin/policy-rc.d
      chmod +x /usr/sbin/policy-rc.d
      trap 'rm -f /usr/sbin/policy-rc.d' EXIT
    fi
    env $(all_env) DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null && env $(all_env) DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages >/dev/null; } \
      || { log "apt-get install $packages failed on the host"; exit 1; }
  ) || exit 1
  record_and_quiet_new_packages "$before"
  # what this install and the still-current ones before it covered, written once dpkg's database has its result
  { [ ! -f "$HOST_STAMP" ] || cat "$HOST_STAMP"; printf '%s\n' $packages; } | sort -u > "$HOST_STAMP.part"
  mv "$HOST_STAMP.part" "$HOST_STAMP"
}

# apt-get takes most of a second even with nothing to do, and every ./envbench run comes here: it is skipped when
# each package was installed (or upgraded to its candidate) by this script since apt's lists and dpkg's database last
# changed. An apt-get update, or anyone's install or removal, makes the next call run apt-get again, so a newer
# candidate is still installed as before; a stale record is dropped.
host_packages_current() { # packages... -> 0 when the record covers them and is newer than apt's and dpkg's state
  [ -f "$HOST_STAMP" ] || return 1
  if [ -n "$(find /var/lib/dpkg/status /var/lib/apt/lists -maxdepth 1 -newer "$HOST_STAMP" -print -quit 2>/dev/null)" ]; then
    rm -f "$HOST_STAMP"
    return 1
  fi
  [ -z "$(comm -23 <(printf '%s\n' "$@" | sort -u) "$HOST_STAMP")" ]
}

# Packages this install added are recorded (for clean --host-packages), and their services neither run nor start at
# boot: EnvBench starts its own instances, on loopback, when a run needs them (nginx on port 80, MariaDB, PostgreSQL
# would otherwise stay enabled on a machine with systemd).
record_and_quiet_new_packages() { # the installed list before
  local added unit
  added=$(comm -13 <(echo "$1") <(installed_now))
  [ -n "$added" ] || return 0
  { [ ! -f "$INSTALLED_RECORD" ] || cat "$INSTALLED_RECORD"; echo "$added"; } | sort -u > "$INSTALLED_RECORD.part"
  mv "$INSTALLED_RECORD.part" "$INSTALLED_RECORD"
  log "installed on the host: $(echo $added | wc -w) packages (recorded in $INSTALLED_RECORD)"
  [ -d /run/systemd/system ] || return 0
  for unit in $(echo "$added" | xargs -r dpkg -L 2>/dev/null | grep -E '^/(usr/)?lib/systemd/system/[^/@]+\.(service|socket)$' | xargs -r -n1 basename | sort -u); do
    if systemctl is-enabled --quiet "$unit" 2>/dev/null || systemctl is-active --quiet "$unit" 2>/dev/null; then
      log "disabling $unit (its package was installed just now): EnvBench starts its own when a run needs it"
      systemctl disable --now "$unit" >/dev/null 2>&1 || log "could not disable $unit"
    fi
  done
}

host_pins() { # package names -> NAME=VERSION of each package of their dependency closure that the host holds
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances "$@" \
    | grep -v '^[ <]' | sed 's/:any$//' | sort -u \
    | { xargs dpkg-query -W -f='${db:Status-Abbrev} ${Package}=${Version}\n' 2>/dev/null || true; } \
    | awk '$1 == "ii" { print $2 }' | sort -u
}

added_versions() { # IMAGE -> NAME=VERSION of every package the image holds that the base does not (the same version)
  comm -13 <(docker run --rm --label io.envbench.managed=true envbench/base:latest \
               dpkg-query -W -f='${Package}=${Version}\n' | sort) \
           <(docker run --rm --label io.envbench.managed=true "$1" dpkg-query -W -f='${Package}=${Version}\n' | sort)
}

build_target_packages() {
  # A target's own packages (targets/NAME/packages.txt): an image of its own FROM the base, so the base stays small.
  # The very same versions as the host: every package of their dependency closure that the host holds is installed at
  # the host's version (NAME=VERSION, downgrades allowed), from Debian's mirror; then every package the image added
  # to the base is checked against the host's dpkg database, and any difference fails the build.
  local name=$1 packages pins hash tag context differ
  packages=$(target_packages "$name")
  tag=envbench/$name-packages:latest
  if ! plan_packages "$name"; then return; fi
  pins=$(host_pins $packages)
  # Debian's mirror keeps only the newest build of each package, so the host's closure is first brought up to it
  # (a library the host got long ago would not be found there); both then hold the mirror's versions of today
  log "apt-get update and upgrade on the host of the $(echo "$pins" | wc -l) packages $name's packages need"
  apt-get update -q >/dev/null
  env $(target_env "$name") DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends --only-upgrade \
    $(echo "$pins" | cut -d= -f1) >"$CACHE/$name-host-upgrade.log" 2>&1 \
    || { tail -20 "$CACHE/$name-host-upgrade.log" >&2; log "the host's upgrade failed"; exit 1; }
  pins=$(host_pins $packages)
  hash=$(echo "$pins $(target_env "$name")" | recipe_hash "$ROOT/scripts/images.sh" /dev/stdin <(docker image inspect -f '{{.Id}}' envbench/base:latest))
  packages_manifest "$name" "$pins" | keep_manifest "$hash"
  context=$(mktemp -d)
  echo "$pins" > "$context/pins.txt"
  echo "$(target_env "$name")" > "$context/env.txt"
  cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM envbench/base:latest
COPY pins.txt env.txt /tmp/
# no service may start during the build (policy-rc.d); the host's versions, exactly
RUN printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d \
 && apt-get update -q && env $(cat /tmp/env.txt) DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      --allow-downgrades $(cat /tmp/pins.txt) \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/pins.txt /tmp/env.txt /usr/sbin/policy-rc.d
DOCKERFILE
  log "docker build $tag: $packages ($(echo "$pins" | wc -l) packages pinned to the host's versions)"
  timed "$name-packages" docker build -q --label "$LABEL_HASH=$hash" --label "io.envbench.image=$name-packages" -t "$tag" "$context" \
    >"$CACHE/$name-packages.log" 2>&1 || { tail -20 "$CACHE/$name-packages.log" >&2; rm -rf "$context"; exit 1; }
  rm -rf "$context"
  differ=$(added_versions "$tag" | while IFS== read -r pkg version; do
             [ "$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)" = "$version" ] || echo "$pkg=$version"
           done)
  if [ -n "$differ" ]; then
    docker image rm -f "$tag" >/dev/null
    log "$tag would not hold the host's versions of: $differ (the host: apt-get update && apt-get upgrade, then setup again)"
    exit 1
  fi
}

build_base() {
  local hash tag tarball rootfs
  # over the list and this function only: a change elsewhere in this script (targets' images) keeps the base
  hash=$(recipe_hash "$ROOT/targets/base/packages.txt" <(declare -f build_base base_packages list_packages))
  tag=envbench/base:latest
  if [ "$(image_hash $tag)" = "$hash" ]; then log "base image up to date ($hash)"; return; fi
  mkdir -p "$CACHE"
  tarball="$CACHE/base-$hash.tar"
  if [ ! -s "$tarball" ]; then
    rootfs=$(mktemp -d "$CACHE/rootfs.XXXXXX")
    log "debootstrap bookworm into $rootfs (about a minute)"
    debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
      || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
    cat > "$rootfs/etc/apt/sources.list" <<SRC
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
SRC
    # no service may start inside the chroot
    printf '#!/bin/sh\nexit 101\n' > "$rootfs/usr/sbin/policy-rc.d"; chmod +x "$rootfs/usr/sbin/policy-rc.d"
    mount -t proc proc "$rootfs/proc"
    log "installing into the base: $(base_packages)"
    chroot "$rootfs" /bin/sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get -y -q upgrade \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(base_packages) \
      && apt-get clean && rm -rf /var/lib/apt/lists/*" >"$CACHE/chroot-install.log" 2>&1 \
      || { tail -20 "$CACHE/chroot-install.log" >&2; exit 1; }
    umount -l "$rootfs/proc"
    rm -f "$rootfs/usr/sbin/policy-rc.d"
    tar --numeric-owner -C "$rootfs" -cf "$tarball.part" .
    mv "$tarball.part" "$tarball"
    rm -rf "$rootfs"
    find "$CACHE" -maxdepth 1 -name 'base-*.tar' ! -name "base-$hash.tar" -delete
  fi
  log "docker import $tag"
  docker import -c "LABEL $LABEL_HASH=$hash" -c "LABEL io.envbench.image=base" -c 'CMD ["/bin/bash"]' \
    "$tarball" "$tag" >/dev/null
}

build_target() {
  local name=$1 dir="$ROOT/targets/$1" hash tag
  [ -f "$dir/Dockerfile" ] || { log "targets/$name has no Dockerfile"; exit 1; }
  # a target assembled from downloads (daytrader): its assemble.sh makes the tree the host process runs and the
  # image copies (cached: nothing is done when it is up to date); the image's hash then covers what it made
  if [ -x "$dir/assemble.sh" ] && [ "$MODE" != check ]; then "$dir/assemble.sh"; fi
  local from=envbench/base:latest
  if [ -f "$dir/packages.txt" ]; then
    if [ "$MODE" = check ]; then plan_packages "$name" || true; else build_target_packages "$name"; fi
    from=envbench/$name-packages:latest
  fi
  tag=envbench/$name:latest
  if ! plan_target "$name" "$from"; then return 0; fi
  hash=$(recipe_hash $(find "$dir" -type f | sort) <(docker image inspect -f '{{.Id}}' "$from"))
  log "docker build $tag FROM $from"
  timed "$name" docker build -q --build-arg "BASE=$from" --label "$LABEL_HASH=$hash" --label "io.envbench.image=$name" -t "$tag" "$dir" >/dev/null
}

all_targets() { for d in "$ROOT"/targets/*/Dockerfile; do basename "$(dirname "$d")"; done; }

main() {
  # --no-versions: only build what changed (before each ./envbench run); setup lists the versions
  local versions=1
  case "${1:-}" in
    --no-versions) versions=0; shift ;;
    --only-missing) versions=0; MODE=only-missing; shift ;;
    --check) MODE=check; shift ;;
  esac
  # --base-only: the base image and its host packages, no target (a run whose file does not read yet)
  local targets=("$@")
  if [ "${1:-}" = "--base-only" ]; then targets=(); elif [ ${#targets[@]} -eq 0 ]; then targets=($(all_targets)); fi
  if [ "$MODE" = check ]; then
    docker version >/dev/null 2>&1 || { log "Docker does not answer: which images are up to date cannot be told"; exit 3; }
    plan_base || true
    for t in "${targets[@]}"; do build_target "$t"; done
    return 0
  fi
  install_host_packages "${targets[@]}"
  if plan_base; then timed base build_base; fi
  for t in "${targets[@]}"; do build_target "$t"; done
  # older builds of our images, now untagged; only EnvBench's labelled images are pruned
  docker image prune -f --filter "label=io.envbench.image" >/dev/null
  [ "$versions" = 1 ] || return 0
  local q='${Package}=${Version} '
  log "host:          $(dpkg-query -W -f="$q" $(base_packages))"
  log "envbench/base: $(docker run --rm --label io.envbench.managed=true envbench/base:latest dpkg-query -W -f="$q" $(base_packages))"
  for t in "${targets[@]}"; do
    [ -f "$ROOT/targets/$t/packages.txt" ] || continue
    log "host ($t):     $(dpkg-query -W -f="$q" $(target_packages "$t"))"
    log "envbench/$t: $(docker run --rm --label io.envbench.managed=true "envbench/$t:latest" dpkg-query -W -f="$q" $(target_packages "$t"))"
  done
}
main "$@"

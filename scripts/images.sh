#!/bin/bash
# Builds EnvBench's local images without any registry:
#   envbench/base:latest      debootstrap'd Debian bookworm + targets/base/packages.txt
#   envbench/<target>:latest  one per targets/<target>/Dockerfile, FROM the base (after its assemble.sh, if any,
#                             which makes what both the host process and the image run: targets/daytrader/dist)
# Each image is labelled with the hash of its recipe and rebuilt only when it changes.
# The same packages are installed on the host, so bare metal runs the same versions.
# Usage: images.sh [--no-versions] [TARGET...]   (--no-versions: skip listing the package versions)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${ENVBENCH_CACHE:-$HOME/.cache/envbench}
MIRROR=${ENVBENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${ENVBENCH_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
LABEL_HASH=io.envbench.recipe-hash

log() { echo "[envbench images] $*" >&2; }

base_packages() { grep -v '^\s*#' "$ROOT/targets/base/packages.txt" | grep -v '^\s*$' | tr '\n' ' '; }

recipe_hash() { # files... -> short sha256 over names (relative to the checkout, so every clone agrees) and contents
  (for f in "$@"; do echo "== ${f#"$ROOT"/}"; cat "$f"; done) | sha256sum | cut -c1-16
}

image_hash() { docker image inspect -f "{{ index .Config.Labels \"$LABEL_HASH\" }}" "$1" 2>/dev/null || true; }

install_host_packages() {
  # install or upgrade to the candidate version, as the base does, so both hold the same builds
  log "apt-get install on the host: $(base_packages)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(base_packages) >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $(base_packages) >/dev/null; } \
    || { log "apt-get install $(base_packages) failed on the host"; exit 1; }
}

build_base() {
  local hash tag tarball rootfs
  hash=$(recipe_hash "$ROOT/targets/base/packages.txt" "$ROOT/scripts/images.sh")
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
  if [ -x "$dir/assemble.sh" ]; then "$dir/assemble.sh"; fi
  hash=$(recipe_hash $(find "$dir" -type f | sort) <(docker image inspect -f '{{.Id}}' envbench/base:latest))
  tag=envbench/$name:latest
  if [ "$(image_hash "$tag")" = "$hash" ]; then log "$tag up to date ($hash)"; return; fi
  log "docker build $tag"
  docker build -q --label "$LABEL_HASH=$hash" --label "io.envbench.image=$name" -t "$tag" "$dir" >/dev/null
}

all_targets() { for d in "$ROOT"/targets/*/Dockerfile; do basename "$(dirname "$d")"; done; }

main() {
  # --no-versions: only build what changed (before each ./envbench run); setup lists the versions
  local versions=1
  if [ "${1:-}" = "--no-versions" ]; then versions=0; shift; fi
  install_host_packages
  build_base
  local targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=($(all_targets))
  for t in "${targets[@]}"; do build_target "$t"; done
  # older builds of our images, now untagged; only EnvBench's labelled images are pruned
  docker image prune -f --filter "label=io.envbench.image" >/dev/null
  [ "$versions" = 1 ] || return 0
  local q='${Package}=${Version} '
  log "host:          $(dpkg-query -W -f="$q" $(base_packages))"
  log "envbench/base: $(docker run --rm --label io.envbench.managed=true envbench/base:latest dpkg-query -W -f="$q" $(base_packages))"
}
main "$@"

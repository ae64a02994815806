#!/usr/bin/env bash
# Installs every Debian package shale's build, tests and demo need. Idempotent and quiet
# when everything is already there. Run as root (or with sudo available).
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
  libedit-dev zlib1g-dev libzstd-dev liblz4-dev liblzma-dev libbz2-dev libdeflate-dev
  libxxhash-dev libpcre2-dev libsnappy-dev libbrotli-dev libssl-dev libcurl4-openssl-dev libexpat1-dev
  python3 nodejs npm tzdata curl zstd chromium
  ceph-mon ceph-osd radosgw ceph-common
  postgresql-15 postgresql-client-15 libpq-dev
  publicsuffix
)

missing=()
for p in "${PKGS[@]}"; do
  # A package counts as present when dpkg says installed, or its main tool is on PATH
  # (some machines ship node/npm/python3 outside Debian's packages).
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then continue; fi
  case "$p" in
    nodejs) command -v node >/dev/null && continue ;;
    npm) command -v npm >/dev/null && continue ;;
    python3) command -v python3 >/dev/null && continue ;;
  esac
  missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# Unpacks the build dependencies' distribution packages into .deps/ (git-ignored), for a
# machine that has the CUDA toolkit but cannot install packages itself (no network). CMake
# finds them there through PARPRIM_DEPS_PREFIX (cmake/ParprimDeps.cmake). Run on a Debian or
# Ubuntu machine with network access; the packages are architecture-independent headers and
# sources, plus libpng, zlib and TBB (the CPU yardsticks of `parprim bench cpu`).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libcli11-dev nlohmann-json3-dev googletest libpng-dev libpng16-16 zlib1g-dev zlib1g
  libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download "${packages[@]}" >/dev/null)
rm -rf .deps
mkdir -p .deps
for deb in "$tmp"/*.deb; do dpkg -x "$deb" .deps; done
# Absolute symlinks inside the packages would point at the host's files: make them relative.
find .deps -type l | while read -r link; do
  target=$(readlink "$link")
  case "$target" in /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" ".deps$target")" "$link" ;; esac
done
du -sh .deps

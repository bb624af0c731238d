#!/usr/bin/env bash
# Installs what parprim builds with, from the distribution's packages (Debian 12 or Ubuntu
# 24.04). Idempotent: packages already present are left alone. The CUDA toolkit is not
# installed here: with nvcc present (on PATH or in /usr/local/cuda) the CUDA backend is built.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config python3
          libgtest-dev libgmock-dev googletest libpng-dev zlib1g-dev
          libcli11-dev nlohmann-json3-dev python3-dev python3-venv
          libtbb-dev  # TBB: a CPU yardstick of `parprim bench sort` (optional at configure)
          clang libclang-rt-dev libomp-dev)  # the sanitizer and fuzzing builds (scripts/ci-*.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"

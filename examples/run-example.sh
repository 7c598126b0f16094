#!/usr/bin/env bash
# Installs what is missing, builds, and runs tma-tidy on the bundled example.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/.ci/build.sh" >/dev/null
exec clang-tidy-22 --load="$root/build/lib/TmaTidy.so" --checks='-*,tma-*' \
  "$root/examples/descriptors.cu" -- \
  -x cuda --cuda-host-only --cuda-path=/usr/local/cuda -std=c++17 \
  -Wno-unknown-cuda-version

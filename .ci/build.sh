#!/usr/bin/env bash
# Configures and builds tma-tidy into build/ (plugin: build/lib/TmaTidy.so).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/.ci/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$root/build"

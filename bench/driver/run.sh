#!/usr/bin/env bash
# On a machine with a GPU: build encode_probe and record the driver's answer
# for each descriptor next to the rule model's (bench/driver/recorded.tsv).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${1:-$root/bench/driver/recorded.tsv}
cuda=${CUDA_PATH:-/usr/local/cuda}
bin=$(mktemp -d)/encode_probe
g++ -std=c++17 -O1 -I "$root/include" -I "$cuda/include" \
  "$root/bench/driver/encode_probe.cpp" -L "$cuda/lib64" \
  -L "$cuda/lib64/stubs" -lcuda -o "$bin"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/# /' > "$out"
"$bin" >> "$out"
cat "$out"

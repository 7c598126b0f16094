#!/usr/bin/env bash
# On a machine with a GPU: record the driver's answer for every descriptor of
# the sweep (bench/driver/sweep_cases.h: 20,000 boundary and random
# descriptors of the three encoders and every data type) next to the rule
# model's, into bench/driver/sweep.tsv, and print where they disagree
# (sweep-report.sh). The unit test driver-sweep-unit replays that file once
# it is committed (and is skipped until then). Needs g++ and the CUDA
# toolkit's cuda.h and libcuda; nothing else of the build.
#
#   bench/driver/run-sweep.sh [out.tsv]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out=${1:-$root/bench/driver/sweep.tsv}
cuda=${CUDA_PATH:-/usr/local/cuda}
bin=$(mktemp -d)/sweep_probe
g++ -std=c++17 -O1 -I "$root/include" -I "$root/bench/driver" \
  -I "$cuda/include" "$root/bench/driver/sweep_probe.cpp" -L "$cuda/lib64" \
  -L "$cuda/lib64/stubs" -lcuda -o "$bin"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader \
  | sed 's/^/# /' > "$out"
"$bin" >> "$out"
echo "recorded $(grep -v '^#' "$out" | grep -vc '^kind') rows into $out"
"$root/bench/driver/sweep-report.sh" "$out"

#!/usr/bin/env bash
# Installs what is missing, builds, runs tma-tidy's checks on the bundled
# examples (host code that encodes descriptors, device code that copies and
# waits), then shows what --fix-notes changes in copies of them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/.ci/build.sh" >/dev/null
flags=(-x cuda --cuda-gpu-arch=sm_90a --cuda-path=/usr/local/cuda -std=c++17
       -isystem /usr/local/cuda/include/cccl -Wno-unknown-cuda-version)
for example in descriptors.cu kernels.cu; do
  echo "== clang-tidy-22 --load=build/lib/TmaTidy.so examples/$example"
  clang-tidy-22 --load="$root/build/lib/TmaTidy.so" --checks='-*,tma-*' \
    "$root/examples/$example" -- "${flags[@]}"
done

# The value suggestions on notes and the fix-its, applied to copies.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/examples"
cp "$root"/examples/*.cu "$work/examples/"
(cd "$work" && "$root/build/bin/tma-tidy" --checks='-*,tma-*' --fix-notes \
   --quiet examples/descriptors.cu examples/kernels.cu -- "${flags[@]}" \
   >/dev/null 2>&1) || true
echo "== what tma-tidy --fix-notes changes"
(cd "$work" && mkdir orig && cp "$root"/examples/*.cu orig/ &&
 diff -u orig examples) || true

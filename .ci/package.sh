#!/usr/bin/env bash
# Builds the Debian package of build/ with CPack (dpkg-shlibdeps writes the
# library dependencies), checks that every NEEDED library of every binary in
# it comes from a package that its Depends reaches (.ci/check-deb-deps.py),
# extracts it into a clean prefix (no root needed) and runs the three tools
# from there, as a user of the package would: tma-tidy, the plugin in
# clang-tidy-22, tma-clangd (over LSP).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
rm -rf build/package
cpack --config build/CPackConfig.cmake -B build/package >/dev/null
deb="$(ls build/package/tma-tidy_*.deb)"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
dpkg-deb -x "$deb" "$prefix"
echo "$deb: Depends: $(dpkg-deb -f "$deb" Depends)"
python3 .ci/check-deb-deps.py "$deb" "$prefix"
# Outputs are captured before grep -q reads them: grep -q stops at the first
# match, and a writer still writing into the pipe then dies of SIGPIPE,
# which pipefail turns into a failure (exit 141).
version="$("$prefix/usr/bin/tma-tidy" --version)"
grep -q '^tma-tidy ' <<<"$version"
examples="$prefix/usr/share/doc/tma-tidy/examples"
out="$("$prefix/usr/bin/tma-tidy" --quiet "$examples/kernels.cu" -- -x cuda \
  --cuda-gpu-arch=sm_90a --cuda-path=/usr/local/cuda -std=c++17 \
  -Wno-unknown-cuda-version 2>&1)"
grep -q 'MBAR-TX-EQUALS-BYTES' <<<"$out" || { echo "$out"; exit 1; }
out="$(clang-tidy-22 --load="$prefix/usr/lib/tma-tidy/TmaTidy.so" \
  --checks='-*,tma-*' --quiet "$examples/descriptors.cu" -- -x cuda \
  --cuda-host-only --cuda-path=/usr/local/cuda -std=c++17 \
  -Wno-unknown-cuda-version 2>&1 || true)"
grep -q 'TMAP-ENC-GSTRIDE-UNITS' <<<"$out" || { echo "$out"; exit 1; }
out="$(python3 tests/infrastructure/lsp_client.py \
  --clangd="$prefix/usr/bin/tma-clangd" --root="$prefix/project" \
  --cwd="$prefix" --source="$examples/descriptors.cu" \
  --flags="-x cuda --cuda-host-only --cuda-path=/usr/local/cuda -std=c++17 -Wno-unknown-cuda-version" \
  --tidy-checks='-*,tma-*' 2>&1 || true)"
grep -q 'TMAP-ENC-GSTRIDE-UNITS' <<<"$out" || { echo "$out"; exit 1; }
echo "package: installed into a clean prefix; tma-tidy, the plugin in" \
  "clang-tidy-22 and tma-clangd ran on the examples"

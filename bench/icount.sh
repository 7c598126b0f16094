#!/usr/bin/env bash
# The module's share of clang-tidy's instructions, counted by callgrind: one
# command, stable on a shared machine (instruction counts do not depend on
# the load). A benchmark, not a test: it prints figures and never fails on
# them.
#
# usage: bench/icount.sh [PLUGIN] [TU...]
#   PLUGIN  tma-tidy plugin (default /work/main/build/lib/TmaTidy.so)
#   TU      "repo<TAB>path<TAB>pass" lines of bench/realcode/manifest.tsv
#           (a pass the manifest does not list takes the flags of the
#           other), or
#           a file name ending in .cu/.cpp with GEN_FLAGS (generated shapes);
#           default: the TUs of issue 15's table (device and host passes),
#           and the heaviest ones that table lacks by REAL=scan of
#           2026-12-07 (DeepGEMM's sm100 GEMM instance, TU 108, device;
#           flashinfer's tinygemm2.cu, device, 2.05 % then; flashinfer's
#           quantization.cu, host, an xfail TU that real-code runs check
#           all the same).
#
# For each TU, two runs under valgrind --tool=callgrind:
#   baseline: clang-tidy --load=PLUGIN --checks='-*,CHEAP'
#   measured: clang-tidy --load=PLUGIN --checks='-*,CHEAP,tma-*'
#   share = (Ir measured - Ir baseline) / Ir measured
# CHEAP is a cheap stock check, so that both runs do the AST matching.
# Callgrind is ~50x slower than a plain run: a device pass of a CUTLASS TU
# takes a few minutes. Run one at a time.
#
# env: CHEAP, TIDY, REALCODE, OUT (default /tmp/tma-icount; the callgrind
#      outputs stay there for callgrind_annotate), GEN_FLAGS (for file TUs),
#      EXTRA (more clang-tidy arguments), KEEP=1 (keep the callgrind files).
# Prints one tab-separated line per TU: name, base Ir, measured Ir, share %,
# LABEL (default: the plugin's path), and appends it to $OUT/icount.tsv.
# The baseline count of a TU is kept in $OUT and reused by later runs with
# another plugin (it runs none of the module's code).
set -u
here=$(cd "$(dirname "$0")" && pwd)
PLUGIN=${1:-/work/main/build/lib/TmaTidy.so}
shift || true
CHEAP=${CHEAP:-readability-avoid-const-params-in-decls}
TIDY=${TIDY:-/usr/lib/llvm-22/bin/clang-tidy}
REALCODE=${REALCODE:-/work/realcode}
OUT=${OUT:-/tmp/tma-icount}
MANIFEST=$here/realcode/manifest.tsv
TU=$here/realcode/tu
BASE=(-x cuda --cuda-path=/usr/local/cuda -I/usr/local/cuda/include/cccl
      -Wno-unknown-cuda-version)
read -r -a GEN <<<"${GEN_FLAGS:--x cuda --cuda-host-only --cuda-path=/usr/local/cuda -std=c++17 -Wno-unknown-cuda-version}"

# Installs valgrind when it is missing (Debian's package).
if ! command -v valgrind >/dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install -y -qq valgrind >/dev/null || {
    echo "valgrind is not installed and could not be" >&2; exit 1; }
fi
[[ -f $PLUGIN ]] || { echo "no plugin at $PLUGIN" >&2; exit 1; }
mkdir -p "$OUT"
# A private copy, so that a rebuild during the run cannot change what is
# counted.
plugin=$(mktemp "$OUT/plugin.XXXXXX.so") && cp "$PLUGIN" "$plugin" || exit 1
trap 'rm -f "$plugin"' EXIT

if (($# == 0)); then
  set -- \
    $'cutlass\texamples/cute/tutorial/hopper/wgmma_tma_sm90.cu\tdevice' \
    $'DeepGEMM\t${TU}/deepgemm_sm90_bf16_gemm.cu\tdevice' \
    $'DeepGEMM\tdeep_gemm/include/deep_gemm/impls/sm100_bf16_gemm.cuh\tdevice' \
    $'DeepGEMM\tdeep_gemm/include/deep_gemm/impls/sm100_fp8_fp4_gemm_1d1d.cuh\tdevice' \
    $'DeepGEMM\t${TU}/deepgemm_sm100_bf16_gemm.cu\tdevice' \
    $'flashinfer\tcsrc/tinygemm2.cu\tdevice' \
    $'ThunderKittens\tkernels/gemm/bf16_h100/bf16_h100_gemm.cu\thost' \
    $'fast.cu\t${TU}/fastcu_matmul_8.cu\thost' \
    $'DeepGEMM\tcsrc/python_api.cpp\thost' \
    $'flashinfer\tcsrc/nv_internal/cpp/kernels/quantization.cu\thost' \
    $'flashinfer\tcsrc/xqa/mha_sm90.cu\tdevice' \
    $'flashinfer\tcsrc/xqa/mha_sm90.cu\thost' \
    $'cutlass\texamples/cute/tutorial/hopper/wgmma_tma_sm90.cu\thost' \
    $'DeepGEMM\t${TU}/deepgemm_sm90_bf16_gemm.cu\thost' \
    $'DeepGEMM\tdeep_gemm/include/deep_gemm/impls/sm100_bf16_gemm.cuh\thost' \
    $'DeepGEMM\tdeep_gemm/include/deep_gemm/impls/sm100_fp8_fp4_gemm_1d1d.cuh\thost'
fi

# Instructions of one clang-tidy run (the callgrind "totals" line).
count() {
  local out=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" \
    >"$out.log" 2>&1
  awk '/^(summary|totals):/ { print $2; exit }' "$out"
}

for spec in "$@"; do
  local_cmd=()
  if [[ $spec == *$'\t'* ]]; then
    IFS=$'\t' read -r repo path pass <<<"$spec"
    line=$(awk -F'\t' -v r="$repo" -v p="$path" -v s="$pass" \
      '$1 == r && $2 == p && $3 == s { print; exit }' "$MANIFEST")
    # A pass the manifest does not list (the host pass of a device-only
    # entry): the flags of the TU's other pass.
    [[ -n $line ]] || line=$(awk -F'\t' -v r="$repo" -v p="$path" \
      '$1 == r && $2 == p { print; exit }' "$MANIFEST")
    [[ -n $line ]] || { echo "not in the manifest: $spec" >&2; continue; }
    IFS=$'\t' read -r _ _ _ flags _ <<<"$line"
    root=$REALCODE/$repo
    for x in path flags; do
      v=${!x}
      v=${v//'${REPO}'/$root}; v=${v//'${TU}'/$TU}
      v=${v//'${REALCODE}'/$REALCODE}
      printf -v "$x" '%s' "$v"
    done
    [[ $path = /* ]] || path=$root/$path
    read -r -a fl <<<"$flags"
    pf=--cuda-device-only; [[ $pass = host ]] && pf=--cuda-host-only
    name="$repo/$(basename "$path") $pass"
    dir=$root
    local_cmd=("$path" -- "${BASE[@]}" "$pf" "${fl[@]}")
  else
    name=$(basename "$spec")
    dir=$(dirname "$spec")
    local_cmd=("$spec" -- "${GEN[@]}")
  fi
  id=$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_')
  # The baseline runs none of the module's code: its count is reused across
  # plugins (before/after) from $OUT/<TU>.base.ir.
  if [[ -s $OUT/$id.base.ir ]]; then
    base=$(cat "$OUT/$id.base.ir")
  else
    base=$(cd "$dir" && count "$OUT/$id.base.cg" "$TIDY" --load="$plugin" \
      --checks="-*,$CHEAP" --header-filter='.*' ${EXTRA:-} "${local_cmd[@]}")
    [[ -n $base ]] && echo "$base" >"$OUT/$id.base.ir"
  fi
  meas=$(cd "$dir" && count "$OUT/$id.tma.cg" "$TIDY" --load="$plugin" \
    --checks="-*,$CHEAP,tma-*" --header-filter='.*' ${EXTRA:-} \
    "${local_cmd[@]}")
  if [[ -z $base || -z $meas ]]; then
    echo "$name: no count (see $OUT/$id.*.log)" >&2; continue
  fi
  share=$(awk -v b="$base" -v m="$meas" 'BEGIN { printf "%.2f", 100 * (m - b) / m }')
  printf '%s\t%s\t%s\t%s %%\t%s\n' "$name" "$base" "$meas" "$share" \
    "${LABEL:-$PLUGIN}" |
    tee -a "$OUT/icount.tsv"
  if [[ ${KEEP:-} == 1 ]]; then
    mv "$OUT/$id.tma.cg" "$OUT/$id.tma.${LABEL:-last}.cg" 2>/dev/null
  else
    rm -f "$OUT/$id.base.cg" "$OUT/$id.tma.cg"
  fi
done

#!/usr/bin/env bash
# The module's share of tma-clangd's instructions when it re-checks an edited
# file (callgrind). A benchmark, not a test: it prints figures and never fails
# on them.
#
# usage: bench/clangd.sh [CLANGD] [TU...]
#   CLANGD  tma-clangd (default /work/main/build/bin/tma-clangd)
#   TU      "repo<TAB>path<TAB>pass[<TAB>file[<TAB>flags]]": the flags of that
#           line of bench/realcode/manifest.tsv (a pass it does not list takes
#           the flags of the other), checking FILE (default: path) with FLAGS
#           added (the kernel header that a bench wrapper includes, with the
#           wrapper's prelude); default: the TUs of issue 15's table.
#
# An edit of a file makes clangd rebuild its AST on the preamble it keeps
# (the headers, parsed once while the includes do not change) and run the
# clang-tidy checks on it: clang::clangd::ParsedAST::build. For each TU,
# `tma-clangd --check=FILE --check-locations=false` (which builds the
# preamble, then the AST once, as after an edit) runs twice under
# valgrind --tool=callgrind, counting only the instructions inside
# ParsedAST::build (--collect-atstart=no --toggle-collect):
#   baseline: clang-tidy checks -*,CHEAP (clangd's config, Diagnostics.ClangTidy)
#   measured: -*,CHEAP,tma-*
#   share = (Ir measured - Ir baseline) / Ir measured
# The compile database (clang flags of the manifest) and clangd's user
# config (XDG_CONFIG_HOME) are written to $OUT; the repositories get
# nothing. clangd analyses the main file's declarations only (its traversal
# scope); tma-clangd adds the helpers the file reaches (checks/
# TraversalScope.h), counted here. Not counted: the preamble, where
# tma-clangd keeps the bodies of the project's headers (PreambleBodies.cpp),
# built once per change of the includes, in both runs.
#
# PARITY=1: no count; compares tma-clangd's diagnostics of each TU with the
# plugin's (tests/infrastructure/clangd_parity.py --database) instead.
# ALL=1: every TU of bench/realcode/manifest.tsv instead of the TU arguments
# (PARITY=1 ALL=1: the real-code bench's clangd mode, issue 25 item 1).
#
# FIRST=1: the first diagnostics instead of the re-check: the whole
# `--check` run is counted, from the start (preamble with the headers, AST,
# checks).
# BASECLANGD=/usr/lib/llvm-22/bin/clangd: the baseline is stock clangd (the
# same clang libraries, no module: no tma- check, no header bodies in the
# preamble) instead of tma-clangd with tma-* removed.
# STOCKPREAMBLE=1: the baseline is tma-clangd with tma-* removed and stock
# clangd's preamble (TMA_CLANGD_STOCK_PREAMBLE=1: no header bodies kept);
# for the re-check against stock clangd, whose installed binary is
# stripped (no ParsedAST::build to count in).
#
# env: CHEAP, REALCODE, OUT (default /tmp/tma-clangd-icount), LABEL, KEEP=1
#      (keep the callgrind files), DRY=1 (no valgrind: each run once, showing
#      its errors and the module's TMA_TIDY_STATS line).
# The baseline count of a TU is kept in $OUT/ID.base.ir and reused by later
# runs (it runs none of the module's code); REBASE=1 counts it again.
# Prints one tab-separated line per TU: name, mode (first or recheck), base
# Ir, measured Ir, share %,
# tma- diagnostics of the measured run, LABEL; appends it to $OUT/clangd.tsv.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CLANGD=${1:-/work/main/build/bin/tma-clangd}
shift || true
CHEAP=${CHEAP:-readability-avoid-const-params-in-decls}
REALCODE=${REALCODE:-/work/realcode}
OUT=${OUT:-/tmp/tma-clangd-icount}
MANIFEST=$here/realcode/manifest.tsv
TU=$here/realcode/tu
BASE=(-x cuda --cuda-path=/usr/local/cuda -I/usr/local/cuda/include/cccl
      -Wno-unknown-cuda-version)

if ! command -v valgrind >/dev/null; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get install -y -qq valgrind >/dev/null || {
    echo "valgrind is not installed and could not be" >&2; exit 1; }
fi
[[ -x $CLANGD ]] || { echo "no tma-clangd at $CLANGD" >&2; exit 1; }
mkdir -p "$OUT"
clangd=$(mktemp "$OUT/tma-clangd.XXXXXX") && cp "$CLANGD" "$clangd" &&
  chmod 755 "$clangd" || exit 1
trap 'rm -f "$clangd"' EXIT

if [[ -n ${ALL:-} ]]; then
  # Every TU of the manifest (the real-code bench's 107), as it lists it.
  mapfile -t all < <(awk -F'\t' '!/^#/ && NF >= 3 { print $1 "\t" $2 "\t" $3 }' \
    "$MANIFEST")
  set -- "${all[@]}"
elif (($# == 0)); then
  set -- \
    $'ThunderKittens\tkernels/gemm/bf16_h100/bf16_h100_gemm.cu\thost' \
    $'flashinfer\tcsrc/xqa/mha_sm90.cu\tdevice' \
    $'fast.cu\t${TU}/fastcu_matmul_8.cu\thost\texamples/matmul/matmul_8.cuh\t-include ${TU}/fastcu_prelude.h' \
    $'DeepGEMM\tdeep_gemm/include/deep_gemm/impls/sm100_bf16_gemm.cuh\tdevice' \
    $'cutlass\texamples/cute/tutorial/hopper/wgmma_tma_sm90.cu\tdevice' \
    $'DeepGEMM\t${TU}/deepgemm_sm90_bf16_gemm.cu\tdevice\tdeep_gemm/include/deep_gemm/impls/sm90_bf16_gemm.cuh' \
    $'flashinfer\tcsrc/xqa/mha_sm90.cu\thost'
fi

# config DIR CHECKS [REMOVE]: a clangd user config enabling exactly CHECKS
# (with Add set, clangd adds no default checks; FastCheckFilter: None keeps
# CHEAP, which clangd has not timed, so that both runs do the AST matching).
# tma-clangd adds tma-* on its own: the baseline removes them (REMOVE).
config() {
  mkdir -p "$1/clangd"
  cat >"$1/clangd/config.yaml" <<YAML
Diagnostics:
  ClangTidy:
    Add: [$2]
    Remove: [${3:-}]
    FastCheckFilter: None
Index:
  StandardLibrary: No
YAML
}

# Instructions inside ParsedAST::build of one --check run; RUNENV: more
# environment for it.
RUNENV=()
count() {
  local out=$1 xdg=$2; shift 2
  if [[ -n ${DRY:-} ]]; then
    env XDG_CONFIG_HOME="$xdg" "${RUNENV[@]}" TMA_TIDY_STATS=1 "$@" 2>&1 |
      grep -E 'tma-tidy stats|errors|^E\[' >&2
    echo 1; return
  fi
  if [[ -n ${FIRST:-} ]]; then
    # The first diagnostics: the whole run, from the start (the preamble
    # with the headers, the AST, the checks).
    env XDG_CONFIG_HOME="$xdg" "${RUNENV[@]}" valgrind --tool=callgrind \
      --callgrind-out-file="$out" "$@" >"$out.log" 2>&1
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
    return
  fi
  # Instrumentation starts once the preamble is built (callgrind_control),
  # so that the headers are parsed at valgrind's lighter speed; collection
  # starts at the entry of ParsedAST::build, which comes after the headers
  # are indexed (seconds later).
  rm -f "$out"
  ( exec env XDG_CONFIG_HOME="$xdg" "${RUNENV[@]}" valgrind --tool=callgrind \
      --callgrind-out-file="$out" --instr-atstart=no --collect-atstart=no \
      --toggle-collect='clang::clangd::ParsedAST::build*' \
      "$@" >"$out.log" 2>&1 ) &
  local pid=$!
  until grep -q 'Built preamble\|Failed to build' "$out.log" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  callgrind_control --instr=on "$pid" >/dev/null 2>&1
  wait "$pid"
  awk '/^(summary|totals):/ { print $2; exit }' "$out"
}

for spec in "$@"; do
  IFS=$'\t' read -r repo path pass file extra <<<"$spec"
  line=$(awk -F'\t' -v r="$repo" -v p="$path" -v s="$pass" \
    '$1 == r && $2 == p && $3 == s { print; exit }' "$MANIFEST")
  [[ -n $line ]] || line=$(awk -F'\t' -v r="$repo" -v p="$path" \
    '$1 == r && $2 == p { print; exit }' "$MANIFEST")
  [[ -n $line ]] || { echo "not in the manifest: $spec" >&2; continue; }
  IFS=$'\t' read -r _ _ _ flags _ <<<"$line"
  root=$REALCODE/$repo
  for x in path flags file extra; do
    v=${!x}
    v=${v//'${REPO}'/$root}; v=${v//'${TU}'/$TU}
    v=${v//'${REALCODE}'/$REALCODE}
    printf -v "$x" '%s' "$v"
  done
  [[ $path = /* ]] || path=$root/$path
  [[ -z $file ]] && file=$path
  [[ $file = /* ]] || file=$root/$file
  path=$file
  read -r -a fl <<<"$flags ${extra:-}"
  pf=--cuda-device-only; [[ $pass = host ]] && pf=--cuda-host-only
  name="$repo/$(basename "$path") $pass"
  id=$(echo "$name" | tr -c 'A-Za-z0-9_.-' '_')
  db=$OUT/$id.db; mkdir -p "$db"
  python3 - "$db/compile_commands.json" "$root" "$path" \
    clang++ "${BASE[@]}" "$pf" "${fl[@]}" -c "$path" <<'PY'
import json, sys
out, root, path, *args = sys.argv[1:]
json.dump([{"directory": root, "file": path, "arguments": args}],
          open(out, "w"), indent=1)
PY
  if [[ -n ${PARITY:-} ]]; then
    # The parity of tma-clangd with the plugin's device (or host) pass on
    # this TU: every tma- diagnostic, note and fix (clangd_parity.py).
    plugin=$(dirname "$CLANGD")/../lib/TmaTidy.so
    python3 "$here/../tests/infrastructure/clangd_parity.py" \
      --clangd "$clangd" --clang-tidy "${CLANG_TIDY:-$(command -v clang-tidy-22)}" \
      --plugin "$plugin" --work "$OUT/$id.parity" --jobs 1 --timeout 900 \
      --database "$db/compile_commands.json" | sed "s|^parity:|$name parity:|"
    continue
  fi
  config "$OUT/$id.base.xdg" "$CHEAP" "tma-*"
  config "$OUT/$id.tma.xdg" "$CHEAP, tma-*"
  run=("$clangd" --check="$path" --check-locations=false
       --compile-commands-dir="$db" --tma-cuda-pass="$pass")
  # The baseline: tma-clangd with tma-* removed, or stock clangd (BASECLANGD,
  # the same clang libraries; it keeps no header bodies in the preamble and
  # has no tma- option).
  baserun=("${run[@]}")
  [[ -n ${BASECLANGD:-} ]] &&
    baserun=("$BASECLANGD" --check="$path" --check-locations=false
             --compile-commands-dir="$db")
  mode=${FIRST:+first}; mode=${mode:-recheck}
  basefile=$OUT/$id.base.ir
  [[ -n ${BASECLANGD:-} || -n ${FIRST:-} ]] &&
    basefile=$OUT/$id.$mode.$(basename "${BASECLANGD:-tma-clangd}").base.ir
  [[ -n ${STOCKPREAMBLE:-} ]] && basefile=$OUT/$id.$mode.stockpreamble.base.ir
  base=
  [[ -z ${REBASE:-} && -z ${DRY:-} && -s $basefile ]] &&
    base=$(<"$basefile")
  if [[ -z $base ]]; then
    [[ -n ${STOCKPREAMBLE:-} ]] && RUNENV=(TMA_CLANGD_STOCK_PREAMBLE=1)
    base=$(cd "$root" && count "$OUT/$id.base.cg" "$OUT/$id.base.xdg" "${baserun[@]}")
    RUNENV=()
    [[ -n $base && -z ${DRY:-} ]] && echo "$base" >"$basefile"
  fi
  meas=$(cd "$root" && count "$OUT/$id.tma.cg" "$OUT/$id.tma.xdg" "${run[@]}")
  if [[ -z $base || -z $meas ]]; then
    echo "$name: no count (see $OUT/$id.*.log)" >&2; continue
  fi
  diags=$(grep -c "\\[tma-" "$OUT/$id.tma.cg.log" 2>/dev/null)
  share=$(awk -v b="$base" -v m="$meas" 'BEGIN { printf "%.2f", 100 * (m - b) / m }')
  printf '%s\t%s\t%s\t%s\t%s %%\t%s\t%s\n' "$name" "$mode" "$base" "$meas" \
    "$share" "$diags" "${LABEL:-$CLANGD}" | tee -a "$OUT/clangd.tsv"
  [[ ${KEEP:-} == 1 ]] || rm -f "$OUT/$id.base.cg" "$OUT/$id.tma.cg"
done

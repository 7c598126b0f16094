#!/usr/bin/env bash
# Run tma-tidy over real TMA code listed in manifest.tsv and summarise per repo.
#
# usage: bench/realcode/run.sh [PLUGIN] [REALCODE]
#   PLUGIN    tma-tidy plugin   (default /work/main/build/lib/TmaTidy.so)
#   REALCODE  checkout root     (default /work/realcode; one dir per repo name)
# env:
#   OUT=dir        where each run's output goes (default /tmp/tma-realcode-out)
#   TIDY_ARGS=...  extra clang-tidy arguments, e.g.
#                  --config-file=cov.yaml (e.g. tma-descriptor.CoverageReport)
#   CHECKS=...     --checks value (default '-*,tma-*'; without a plugin the
#                  script dry-runs '-*,bugprone-integer-division' instead)
#   ONLY=regex     only repos whose name matches
#   JOBS=n         parallel clang-tidy processes (default: nproc)
#   TIDY=path      clang-tidy binary (default /usr/lib/llvm-22/bin/clang-tidy)
#
# Manifest columns (tab-separated; '#' lines are comments):
#   repo  path  pass(device|host)  flags  [note]
# ${REPO}, ${TU} (bench/realcode/tu) and ${REALCODE} are expanded in path and
# flags. The pass adds --cuda-device-only or --cuda-host-only. A note that
# starts with "xfail" marks a TU known to have clang errors (nvcc-isms):
# its errors are reported apart, only a crash counts as a failure there.
set -u
here=$(cd "$(dirname "$0")" && pwd)
PLUGIN=${1:-/work/main/build/lib/TmaTidy.so}
REALCODE=${2:-/work/realcode}
OUT=${OUT:-/tmp/tma-realcode-out}
TIDY=${TIDY:-/usr/lib/llvm-22/bin/clang-tidy}
JOBS=${JOBS:-$(nproc)}
ONLY=${ONLY:-.}
TU=$here/tu
BASE=(-x cuda --cuda-path=/usr/local/cuda -I/usr/local/cuda/include/cccl
      -Wno-unknown-cuda-version)

rm -rf "$OUT"; mkdir -p "$OUT"
if [[ -f $PLUGIN ]]; then
  # Load a private copy so that a rebuild during the run cannot break it.
  cp "$PLUGIN" "$OUT/plugin.so" || exit 1
  LOAD=(--load="$OUT/plugin.so"); CHECKS=${CHECKS:-'-*,tma-*'}
else
  echo "note: no plugin at $PLUGIN; dry run with a stock check" >&2
  LOAD=(); CHECKS=${CHECKS:-'-*,bugprone-integer-division'}
fi

# One manifest line -> one clang-tidy run. Writes OUT/<id>.txt (output) and
# OUT/<id>.res: repo status(ok|err|crash|xerr|xcrash|skip) errors warnings secs
run_one() {
  local n=$1 repo=$2 path=$3 pass=$4 flags=$5 note=${6:-}
  local root=$REALCODE/$repo id res=$OUT/$n.res
  id=$n-$repo-$(basename "$path")-$pass
  if [[ ! -d $root ]]; then echo "$repo skip 0 0 0" >"$res"; return; fi
  # Expand the manifest variables, then split flags on blanks.
  local x
  for x in path flags; do
    local v=${!x}
    v=${v//'${REPO}'/$root}; v=${v//'${TU}'/$TU}; v=${v//'${REALCODE}'/$REALCODE}
    printf -v "$x" '%s' "$v"
  done
  [[ $path = /* ]] || path=$root/$path
  local -a fl; read -r -a fl <<<"$flags"
  local pf=--cuda-device-only; [[ $pass = host ]] && pf=--cuda-host-only
  local t0=$SECONDS rc
  (cd "$root" && "$TIDY" "${LOAD[@]}" --checks="$CHECKS" --header-filter='.*' \
      ${TIDY_ARGS:+$TIDY_ARGS} \
      "$path" -- "${BASE[@]}" "$pf" "${fl[@]}") >"$OUT/$id.txt" 2>&1
  rc=$?
  local errs warns st=ok
  errs=$(grep -c ': error: ' "$OUT/$id.txt")
  warns=$(grep -cE ': warning: .*\[tma-[a-z0-9-]+' "$OUT/$id.txt")
  # A crash: clang's stack dump / signal text; otherwise non-zero or "error:".
  if grep -qE 'Stack dump|PLEASE submit a bug report|Segmentation fault' "$OUT/$id.txt" \
     || (( rc > 128 )); then st=crash
  elif (( rc != 0 || errs > 0 )); then st=err
  fi
  [[ $note == xfail* ]] && st=x$st && [[ $st == xok ]] && st=ok
  echo "$repo $st $errs $warns $((SECONDS - t0))" >"$res"
  echo "[$st] $id errors=$errs tma-warnings=$warns ($((SECONDS - t0))s)" >&2
}

# Feed manifest lines to at most JOBS background runs.
n=0
while IFS=$'\t' read -r repo path pass flags note; do
  [[ -z $repo || $repo == \#* ]] && continue
  [[ $repo =~ $ONLY ]] || continue
  n=$((n + 1))
  while (( $(jobs -rp | wc -l) >= JOBS )); do wait -n; done
  run_one "$n" "$repo" "$path" "$pass" "$flags" "$note" &
done <"$here/manifest.tsv"
wait

# Per-repo summary from the .res files.
echo
printf '%-16s %5s %5s %6s %6s %6s %6s %8s\n' repo TUs ok err crash xerr skip tma-warn
cat "$OUT"/*.res 2>/dev/null | sort | awk '
  { r=$1; tu[r]++; c[r,$2]++; w[r]+=$4; if (!(r in seen)) { seen[r]=1; ord[++k]=r } }
  END { for (i=1;i<=k;i++) { r=ord[i]
          if (c[r,"skip"]) { printf "%-16s %5d  (skipped: repo not found)\n", r, tu[r]; continue }
          printf "%-16s %5d %5d %6d %6d %6d %6d %8d\n", r, tu[r], c[r,"ok"], c[r,"err"],
                 c[r,"crash"]+c[r,"xcrash"], c[r,"xerr"], c[r,"skip"], w[r]; T+=tu[r]; W+=w[r] }
        printf "total: %d TUs, %d tma- warnings; outputs in '"$OUT"'\n", T, W }'
# Exit non-zero only on crashes or unexpected errors.
! grep -qE ' (crash|xcrash|err) ' "$OUT"/*.res 2>/dev/null

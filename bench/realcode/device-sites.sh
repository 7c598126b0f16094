#!/usr/bin/env bash
# Device sites per recogniser, per repository: runs run.sh with
# tma-bulk-copy.CoverageReport (one "coverage:" warning per device op the
# check sees, named by its API) and counts distinct sites (file:line:col,
# over TUs and CUDA passes; paths normalised, so a header reached through
# different "../" paths is one site) per recogniser. Also lists the other tma-
# warnings, each of which must be reviewed.
#
# usage: bench/realcode/device-sites.sh [PLUGIN] [REALCODE]
#        bench/realcode/device-sites.sh --summarise <run.sh output dir>
# env: as run.sh (OUT, JOBS, ONLY).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [[ ${1:-} == --summarise ]]; then
  out=${2:?usage: device-sites.sh --summarise <run.sh output dir>}
else
  out=${OUT:-/tmp/tma-device-sites}
  cfg=$(mktemp --suffix=.yaml)
  printf 'CheckOptions:\n  tma-bulk-copy.CoverageReport: true\n' >"$cfg"
  OUT=$out TIDY_ARGS=--config-file=$cfg "$here/run.sh" "$@" || true
  rm -f "$cfg"
fi

# The recogniser of an op name: its API prefix; inline PTX is named by its
# instruction.
recogniser='
  function rec(name) {
    if (name ~ /^cuda::ptx::/) return "cuda::ptx"
    if (name ~ /^cde::/) return "cde"
    if (name ~ /^cuda::device::memcpy_async_tx/) return "memcpy_async_tx"
    if (name ~ /^cuda::device::/) return "cuda::device"
    if (name ~ /^cuda::memcpy_async/) return "memcpy_async"
    if (name ~ /^cutlass::arch::/) return "cutlass-barrier"
    if (name ~ /^cute::/) return "cute-atom"
    return "inline-ptx"
  }'
printf '%-18s %-16s %6s\n' repo recogniser sites
for f in "$out"/*.txt; do
  # <n>-<repo>-<file>-<pass>.txt; <n>.res starts with the repo (which may
  # hold a '-').
  n=$(basename "$f" | cut -d- -f1)
  repo=$(cut -d' ' -f1 "$out/$n.res")
  sed -nE "s|^([^:]+)(:[0-9]+:[0-9]+): warning: coverage: ([^:]+(::[^:]+)*): .*|$repo \1 \2 \3|p" "$f"
done | sort -u | awk "$(cat "$here/normpath.awk")$recogniser"'
  { s[$1 " " rec($4) " " normpath($2) $3] = 1 }
  END { for (k in s) { split(k, p, " "); n[p[1] " " p[2]]++ }
        for (k in n) { split(k, p, " "); printf "%-18s %-16s %6d\n", p[1], p[2], n[k] } }' |
  sort
echo "other tma- warnings (distinct):"
grep -h "warning: .*\[tma-" "$out"/*.txt | grep -v "warning: coverage:" | sort -u || true

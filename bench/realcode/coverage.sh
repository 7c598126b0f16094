#!/usr/bin/env bash
# Summarises a run.sh output directory made with
#   TIDY_ARGS=--config-file=<yaml setting tma-descriptor.CoverageReport: true>
# Per repository (the first field of <n>.res: repository names may hold a
# '-'): encode sites (distinct file:line, paths normalised so a header
# reached through different '../' paths counts once; best over TUs, passes
# and contexts) fully folded (10 of 10 operands), partly, not at all; and the
# other tma- warnings (each must be reviewed: zero false positives is the bar).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: coverage.sh <run.sh output dir>}
printf "%-18s %6s %6s %6s %6s\n" repo sites full part none
for f in "$out"/*.txt; do
  n=$(basename "$f" | cut -d- -f1)
  [[ -f $out/$n.res ]] || continue
  repo=$(cut -d' ' -f1 "$out/$n.res")
  sed -nE "s|^([^:]+):([0-9]+):[0-9]+: warning: encode call: ([0-9]+) of 10.*|$repo \1 \2 \3|p" "$f"
done | awk "$(cat "$here/normpath.awk")"'
  { print $1, normpath($2) ":" $3, $4 }' |
  sort -k1,2 -k3,3nr | awk '!seen[$1" "$2]++' |
  awk '{t[$1]++; if ($3 == 10) f[$1]++; else if ($3 > 0) p[$1]++; else z[$1]++}
       END {for (r in t) printf "%-18s %6d %6d %6d %6d\n", r, t[r], f[r], p[r], z[r]}' |
  sort
echo "other tma- warnings (distinct):"
grep -h "warning: .*\[tma-" "$out"/*.txt | grep -v "encode call:" | sort -u || true

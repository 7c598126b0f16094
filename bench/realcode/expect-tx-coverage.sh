#!/usr/bin/env bash
# Summarises a run.sh output directory made with
#   TIDY_ARGS=--config-file=<yaml setting tma-expect-tx.CoverageReport: true>
# (one "coverage: expect-tx on '<barrier>': <status>" warning per expect-tx
# site and context). Per repository (first field of <n>.res): distinct sites
# (file:line:col, paths normalised so a header reached through different
# '../' paths counts once), each with its best status over TUs, passes and
# contexts: proven > not proven > unknown. "helper" sites are unknown only
# because their barrier comes from the callers of the helper they sit in
# (their callers' sites are counted); "kernel" sites are all others. Then
# the reasons of the kernel-level sites not proven, and the per-site list.
#
# usage: bench/realcode/expect-tx-coverage.sh <run.sh output dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: expect-tx-coverage.sh <run.sh output dir>}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for f in "$out"/*.txt; do
  n=$(basename "$f" | cut -d- -f1)
  [[ -f $out/$n.res ]] || continue
  repo=$(cut -d' ' -f1 "$out/$n.res")
  sed -nE "s|^([^:]+)(:[0-9]+:[0-9]+): warning: coverage: expect-tx on '(.*)': (.*) \[tma-expect-tx\]\$|$repo\t\1\t\2\t\3\t\4|p" "$f"
done | awk -F'\t' "$(cat "$here/normpath.awk")"'
  { st = ($5 == "proven equal") ? 1 : ($5 ~ /^not proven/) ? 2 : 3
    k = $1 "\t" normpath($2) $3
    if (!(k in best) || st < best[k]) { best[k] = st; rest[k] = $4 "\t" $5 } }
  END { for (k in best) print best[k] "\t" k "\t" rest[k] }' |
  sort -t$'\t' -k2,2 -k3,3 >"$tmp"
# Columns of $tmp: status, repo, site, barrier, status text.
printf '%-18s %6s %7s | %6s %7s %11s %8s\n' repo sites helper kernel proven \
  not-proven unknown
awk -F'\t' '
  { h = ($5 ~ /callers of this helper/); t[$2]++; T["all"]++
    if (h) { hp[$2]++; T["h"]++ } else { kl[$2]++; c[$2, $1]++; T["k"]++; T[$1]++ } }
  END { for (r in t) printf "%-18s %6d %7d | %6d %7d %11d %8d\n", r, t[r], hp[r],
                            kl[r], c[r, 1], c[r, 2], c[r, 3]
        printf "%-18s %6d %7d | %6d %7d %11d %8d\n", "~TOTAL", T["all"], T["h"],
               T["k"], T[1], T[2], T[3] }' "$tmp" | sort | sed 's/^~/ /'
echo
echo "kernel-level sites not proven, by reason:"
awk -F'\t' '$1 != 1 && $5 !~ /callers of this helper/ { n[$2 "\t" $5]++ }
  END { for (k in n) { split(k, p, "\t"); printf "%4d  %-18s %s\n", n[k], p[1], p[2] } }' \
  "$tmp" | sort -k2,2 -k1,1nr
echo
echo "per site (repo, site, barrier, best status):"
cut -f2- "$tmp"

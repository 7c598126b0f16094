#!/usr/bin/env bash
# SARIF export cost: tma-tidy on bench/gen_sarif.py TUs of N encode calls
# (N warnings), with and without --tma-export-sarif. Host pass, stub headers
# (tests/checkers/Inputs/Headers), so the time is the checks' and the
# export's, not the toolkit headers'.
#
# usage: bench/sarif.sh [build dir] [N...]   (default: build 1250 2500 5000)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
shift || true

[ $# -gt 0 ] && sizes=("$@") || sizes=(1250 2500 5000)
tidy="$build/bin/tma-tidy"
headers="$root/tests/checkers/Inputs/Headers"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(-x cuda --cuda-host-only --cuda-path="$headers" -nocudainc -nocudalib
       -nostdinc++ -std=c++17 -isystem "$headers")
seconds() { /usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null | tail -1; }
printf '%6s %10s %10s %10s %12s\n' N analyse_s sarif_s extra_s sarif_maxKB
for n in "${sizes[@]}"; do
  python3 "$root/bench/gen_sarif.py" "$n" -o "$work/k$n.cu"
  read -r plain _ < <(seconds "$tidy" --checks='-*,tma-descriptor' --quiet \
    "$work/k$n.cu" -- "${flags[@]}")
  read -r sarif kb < <(seconds "$tidy" --checks='-*,tma-descriptor' --quiet \
    --tma-export-sarif="$work/k$n.sarif" "$work/k$n.cu" -- "${flags[@]}")
  results=$(grep -c '"ruleId"' "$work/k$n.sarif")
  [ "$results" -eq "$n" ] || { echo "expected $n results, got $results" >&2; exit 1; }
  printf '%6d %10s %10s %10.2f %12s\n' "$n" "$plain" "$sarif" \
    "$(echo "$sarif - $plain" | bc -l)" "$kb"
done

#!/usr/bin/env bash
# Where the driver and the rule model disagree in a sweep record
# (bench/driver/sweep.tsv, written by run-sweep.sh): descriptors the driver
# accepts and the model rejects (false positives, per rule id), and
# descriptors the driver rejects and the model accepts (misses, per encoder,
# data type and CUresult). The model column is the verdict recorded next to
# the driver's; driver-sweep-unit replays the record against the current
# model.
#
#   bench/driver/sweep-report.sh [sweep.tsv]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
in=${1:-$root/bench/driver/sweep.tsv}
awk -F'\t' '
  /^#/ { print; next }
  $1 == "kind" { next }
  {
    rows++
    driver = $(NF - 1); model = $NF
    if (driver == 0 && model != "-") {
      n = split(model, ids, ",")
      for (i = 1; i <= n; i++) fp[$1 " " ids[i]]++
      fps++
    } else if (driver != 0 && model == "-") {
      miss[$1 " dtype " $2 " CUresult " driver]++
      misses++
    } else if (driver == 0) {
      accepted++
    } else {
      rejected++
    }
  }
  END {
    printf "%d descriptors: %d accepted by both, %d rejected by both, " \
           "%d rejected only by the model, %d only by the driver\n",
           rows, accepted, rejected, fps, misses
    fflush()
    for (k in fp) printf "driver accepts, model reports: %s: %d\n", k, fp[k] | "sort"
    close("sort")
    for (k in miss) printf "driver rejects, model silent: %s: %d\n", k, miss[k] | "sort"
  }' "$in"

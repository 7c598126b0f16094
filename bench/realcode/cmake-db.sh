#!/usr/bin/env bash
# tma-tidy over real repositories through nvcc compile databases:
#
# 1. h100_gemm (HamzaElshafie/h100_gemm) configured with CMake and nvcc
#    (CMAKE_EXPORT_COMPILE_COMMANDS=ON; configuring needs no GPU), then
#    `tma-tidy -p <build>` on every file of the database.
# 2. A compile_commands.json written here with the nvcc command lines of the
#    repositories' Makefiles (-gencode, -Xcompiler=..., link flags, ...):
#    ThunderKittens (kernels/common.mk, GPU=H100 and B200) and simplegemm.
#
# Nothing is written into the repositories. Per file it prints the exit code,
# the tma- warnings, the distinct clang errors, and tma-tidy's notes about
# flags it left out; the full output is in $OUT.
#
# usage: bench/realcode/cmake-db.sh
# env:   REALCODE  checkouts, one directory per repository (/work/realcode)
#        TIDY      tma-tidy (<this checkout>/build/bin/tma-tidy)
#        NVCC      nvcc of the CUDA toolkit (/usr/local/cuda/bin/nvcc)
#        OUT       scratch directory, emptied first (/tmp/tma-cmake-db)
set -u
here=$(cd "$(dirname "$0")" && pwd)
REALCODE=${REALCODE:-/work/realcode}
TIDY=${TIDY:-$here/../../build/bin/tma-tidy}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
OUT=${OUT:-/tmp/tma-cmake-db}
CHECKS='-*,tma-*'

rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
[ -x "$TIDY" ] || { echo "no tma-tidy at $TIDY: build it first" >&2; exit 1; }

# Runs tma-tidy -p $1 on the files $2..., one summary line each.
run_db() {
  local db=$1; shift
  local f log rc
  for f in "$@"; do
    log="$OUT/$(basename "$db")-$(echo "$f" | tr / _).txt"
    (cd "$(dirname "$f")" && "$TIDY" -p "$db" --checks="$CHECKS" \
       --tma-show-commands "$f") >"$log" 2>&1
    rc=$?
    printf '%-60s rc=%d  tma-warnings=%d  clang-errors=%d  left-out=%d\n' \
      "${f#"$REALCODE"/}" "$rc" \
      "$(grep -c 'warning: .*\[tma-' "$log")" \
      "$(grep -o 'error: .*\[clang-diagnostic-error\]' "$log" | sort -u | wc -l)" \
      "$(grep -c "tma-tidy: note: left out" "$log")"
    grep -o 'error: .*\[clang-diagnostic-error\]' "$log" | sort | uniq -c |
      sort -rn | head -3 | sed 's/^/      /'
    grep "tma-tidy: note:" "$log" | sort -u | sed 's/^/      /'
  done
}

echo "== h100_gemm: CMake + nvcc, CMAKE_CUDA_ARCHITECTURES=90a"
repo=$REALCODE/h100_gemm
if cmake -S "$repo" -B "$OUT/h100_gemm" -G Ninja \
     -DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_ARCHITECTURES=90a \
     -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$OUT/h100_gemm-cmake.log" 2>&1; then
  mapfile -t files < <(python3 -c 'import json,sys
for e in json.load(open(sys.argv[1])): print(e["file"])' \
    "$OUT/h100_gemm/compile_commands.json")
  run_db "$OUT/h100_gemm" "${files[@]}" \
    "$repo/src/kernels/hopper/hopper_tma_utils.h"
else
  echo "cmake failed: $OUT/h100_gemm-cmake.log"; tail -5 "$OUT/h100_gemm-cmake.log"
fi

echo "== hand-written nvcc database (ThunderKittens common.mk, simplegemm Makefile)"
tk=$REALCODE/ThunderKittens
sg=$REALCODE/simplegemm
# kernels/common.mk's NVCCFLAGS for CONFIG=standalone, as `make -n` prints
# them, with GPU=H100 and GPU=B200.
tk_flags="-std=c++20 -O3 --use_fast_math -lrt -lpthread -ldl -lcuda \
-lcudadevrt -lcudart_static --expt-extended-lambda --expt-relaxed-constexpr \
-forward-unknown-to-host-compiler -Xcompiler=-Wno-psabi \
-Xcompiler=-fno-strict-aliasing -Xnvlink=--verbose -Xptxas=--verbose \
-Xptxas=--warn-on-spills -I$tk/include -I$tk/prototype -DNDEBUG -lineinfo \
-ftemplate-backtrace-limit=0"
sg_flags="-std=c++17 -O3 -DNDEBUG -w --expt-relaxed-constexpr \
--expt-extended-lambda -Xcompiler=-fPIE -Xcompiler=-Wno-psabi \
-Xcompiler=-fno-strict-aliasing -arch=sm_90a -lcublas -lcuda"
mkdir -p "$OUT/hand"
python3 - "$OUT/hand/compile_commands.json" "$NVCC" <<EOF
import json, sys
out, nvcc = sys.argv[1], sys.argv[2]
tk = "$tk/kernels/gemm"
entries = [
    (tk + "/educational_h100", "level_07.cu",
     "$tk_flags -DKITTENS_HOPPER -gencode arch=compute_90a,code=sm_90a "
     "-o level_07.out"),
    (tk + "/fp8_b200", "fp8_b200_gemm.cu",
     "$tk_flags -DKITTENS_BLACKWELL -gencode arch=compute_100a,code=sm_100a "
     "-o fp8_b200_gemm.out"),
    # simplegemm's Makefile line, as a compile step with the forms other
    # Makefiles use: -gencode with a code list, -Xcompiler with blanks.
    ("$sg", "gemm.cu",
     "$sg_flags -gencode=arch=compute_90a,code=[sm_90a,compute_90a] "
     "-Xcompiler \"-fPIC -Wall\" -O 3 -c -o gemm.o"),
]
json.dump([{"directory": d, "file": f, "command": nvcc + " " + f + " " + c}
           for d, f, c in entries], open(out, "w"), indent=1)
EOF
run_db "$OUT/hand" "$tk/kernels/gemm/educational_h100/level_07.cu" \
  "$tk/kernels/gemm/fp8_b200/fp8_b200_gemm.cu" "$sg/gemm.cu"

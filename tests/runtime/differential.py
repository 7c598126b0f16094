#!/usr/bin/env python3
"""Differential test of <tma/validate.h> against the checker.

Generates descriptors of one encoder (--encoder: cuTensorMapEncodeTiled,
cuTensorMapEncodeIm2col or cuTensorMapEncodeIm2colWide; boundary values and
random ones), writes each as a function with a constant encode call into one
.cu file, runs clang-tidy with the plugin (tma-descriptor) on it, runs the
same values through tma::check_tiled, check_im2col or check_im2col_wide
(differential_header.cpp), and requires the rule ids of every descriptor to
agree exactly. Exit status 1 on any difference, with the first differences
printed.
"""

import argparse
import collections
import os
import random
import re
import subprocess
import sys

DTYPE_BITS = [8, 16, 32, 32, 64, 64, 16, 32, 64, 16, 32, 32, 32, 4, 4, 6]


def pick(rng, values, other):
    """Mostly a plausible value; now and then one out of range."""
    return rng.choice(values) if rng.random() < 0.93 else other()


def descriptor(rng):
    """One descriptor: mostly plausible, with boundary values mixed in."""
    dt = pick(rng, list(range(16)), lambda: rng.choice([16, 17, 255]))
    rank = pick(rng, [1, 2, 2, 3, 3, 4, 5], lambda: rng.choice([0, 6, 7]))
    n = max(rank, 1)
    bits = DTYPE_BITS[dt] if dt < 16 else 16
    dims = [pick(rng, [1, 2, 64, 100, 128, 4096, 1 << 32],
                 lambda: rng.choice([0, (1 << 32) + 1, rng.randint(1, 5000)]))
            for _ in range(n)]
    strides = []
    row = dims[0] * bits // 8
    for i in range(max(rank - 1, 1)):
        kind = rng.random()
        if kind < 0.5:
            s = (row + 15) // 16 * 16 if rng.random() < 0.7 else row
        elif kind < 0.65:
            s = dims[0] if i == 0 else dims[0] * dims[min(i, n - 1)]
        elif kind < 0.75:
            s = max(bits // 8, 1)
        else:
            s = rng.choice([0, 8, 16, 200, 208, 32, (1 << 40) - 16, 1 << 40,
                            rng.randint(1, 1 << 20)])
        s %= 1 << 64
        strides.append(s)
        row = s * dims[min(i + 1, n - 1)]
    box = [pick(rng, [1, 8, 16, 32, 64, 128, 256],
                lambda: rng.choice([0, 2, 6, 100, 257, 512]))
           for _ in range(n)]
    estrides = [pick(rng, [1, 1, 1, 2, 8], lambda: rng.choice([0, 3, 9]))
                for _ in range(n)]
    interleave = pick(rng, [0] * 8 + [1, 2], lambda: 3)
    swizzle = pick(rng, [0, 1, 2, 3, 3, 4, 5, 6],
                   lambda: rng.choice([7, 32, 64, 128]))
    l2 = pick(rng, [0, 1, 2, 3], lambda: 4)
    oob = pick(rng, [0] * 4 + [1], lambda: 2)
    return (dt, rank, dims, strides, box, estrides, interleave, swizzle, l2,
            oob)


def boundary_descriptors():
    """Each limit of the rules, just inside and just outside."""
    base = (9, 2, [4096, 4096], [8192], [64, 64], [1, 1], 0, 3, 0, 0)
    out = [base]

    def vary(index, value):
        d = list(base)
        d[index] = value
        out.append(tuple(d))

    for dt in range(18):
        vary(0, dt)
    for rank in range(7):
        n = max(rank, 1)
        out.append((9, rank, [64] * n, [128 * (i + 1) for i in
                                        range(max(rank - 1, 1))],
                    [64] * n, [1] * n, 0, 0, 0, 0))
    for dim in [0, 1, 1 << 32, (1 << 32) + 1]:
        vary(2, [dim, 4096])
    for stride in [0, 16, 8200, 4096, 2, (1 << 40) - 16, 1 << 40]:
        vary(3, [stride])
    for box in [0, 1, 8, 64, 72, 128, 256, 257]:
        vary(4, [box, 64])
        vary(4, [64, box])
    for es in [0, 1, 8, 9]:
        vary(5, [1, es])
    for value in range(4):
        vary(6, value)
    for value in list(range(8)) + [32, 64, 128]:
        vary(7, value)
    for value in range(5):
        vary(8, value)
    for value in range(3):
        vary(9, value)
    return out


def im2col_descriptor(rng, wide):
    """One Im2col (or Im2colWide) descriptor: a plausible NWC/NHWC/NDHWC
    tensor with boundary values mixed in (rarer than in the Tiled
    generator: im2col has more operands, and clean descriptors must be
    common too). A dict: the fields both sides print, by name."""
    def pick(rng, values, other):
        return rng.choice(values) if rng.random() < 0.97 else other()
    dt = pick(rng, list(range(16)), lambda: rng.choice([16, 255]))
    rank = pick(rng, [3, 4, 4, 5], lambda: rng.choice([0, 1, 2, 6]))
    n = max(rank, 1)
    bits = DTYPE_BITS[dt] if dt < 16 else 16
    dims = [pick(rng, [1, 3, 8, 32, 64, 128, 224, 1 << 32],
                 lambda: rng.choice([0, (1 << 32) + 1, rng.randint(1, 3000)]))
            for _ in range(n)]
    strides = []
    row = dims[0] * bits // 8
    for i in range(max(rank - 1, 1)):
        kind = rng.random()
        if kind < 0.85:
            s = (row + 15) // 16 * 16 if rng.random() < 0.9 else row
        elif kind < 0.9:
            s = dims[0] * dims[min(i, n - 1)]
        else:
            s = rng.choice([0, 8, 16, 48, 200, 208, (1 << 40) - 16, 1 << 40,
                            rng.randint(1, 1 << 20)])
        s %= 1 << 64
        strides.append(s)
        row = s * dims[min(i + 1, n - 1)]
    d = {"dt": dt, "rank": rank, "dims": dims, "strides": strides,
         "cpp": pick(rng, [1, 8, 16, 32, 64, 128, 256],
                     lambda: rng.choice([0, 257, 300, 512])),
         "ppc": pick(rng, [1, 32, 64, 128, 256, 1024],
                     lambda: rng.choice([0, 1025, 2048])),
         "es": [pick(rng, [1, 1, 1, 2, 8], lambda: rng.choice([0, 3, 9]))
                for _ in range(n)],
         "il": pick(rng, [0] * 8 + [1, 2], lambda: 3),
         "sw": pick(rng, [0, 1, 2, 3, 3, 4, 5, 6],
                    lambda: rng.choice([7, 32, 64, 128])),
         "l2": pick(rng, [0, 1, 2, 3], lambda: 4),
         "oob": pick(rng, [0] * 4 + [1], lambda: 2)}
    if wide:
        d["lo"] = pick(rng, [-1, -2, 0, -32768, -40],
                       lambda: rng.choice([-32769, 32768, -300]))
        d["up"] = pick(rng, [0, -1, 1, 32767, -200],
                       lambda: rng.choice([32768, -32769]))
        d["mode"] = pick(rng, [0, 0, 1], lambda: 2)
    else:
        c = max(rank - 2, 1)
        d["lo"] = [pick(rng, [-1, -2, 0, -15, -16, -127],
                        lambda: rng.choice([-17, -128, -129, -32768, -32769,
                                            16, 40]))
                   for _ in range(c)]
        d["up"] = [pick(rng, [0, -1, 1, 15, 127],
                        lambda: rng.choice([16, 128, 32767, 32768, -300]))
                   for _ in range(c)]
    return d


def im2col_boundary(wide):
    """Each Im2col (Im2colWide) limit, just inside and just outside."""
    base = {"dt": 6, "rank": 4, "dims": [64, 32, 32, 8],
            "strides": [128, 128 * 32, 128 * 32 * 32], "cpp": 64, "ppc": 128,
            "es": [1, 1, 1, 1], "il": 0, "sw": 3, "l2": 0, "oob": 0}
    if wide:
        base.update(lo=-1, up=0, mode=0)
    else:
        base.update(lo=[-1, -1], up=[0, 0])
    out = [dict(base)]

    def vary(**kw):
        d = dict(base)
        d.update(kw)
        out.append(d)

    for dt in range(17):
        vary(dt=dt)
    for rank in range(7):
        n = max(rank, 1)
        c = max(rank - 2, 1)
        extra = {} if wide else {"lo": [-1] * c, "up": [0] * c}
        vary(rank=rank, dims=[64] * n,
             strides=[128 * 64 ** i for i in range(max(rank - 1, 1))],
             es=[1] * n, **extra)
    for cpp in [0, 1, 32, 64, 65, 128, 256, 257]:
        vary(cpp=cpp)
    for ppc in [0, 1, 1024, 1025]:
        vary(ppc=ppc)
    for il in range(4):
        vary(il=il)
    for sw in list(range(8)) + [64]:
        vary(sw=sw)
    for oob in range(3):
        vary(oob=oob)
    if wide:
        for lo in [-32769, -32768, 0, 32767, 32768]:
            vary(lo=lo)
        for up in [-32769, -100, 0, 32767, 32768]:
            vary(up=up)
        for mode in range(3):
            vary(mode=mode)
            vary(mode=mode, ppc=2048)
        vary(lo=0, up=-32, dims=[64, 32, 32, 8])
    else:
        for rank, bound in [(3, 32768), (4, 128), (5, 16)]:
            n, c = rank, rank - 2
            for v in [-bound - 1, -bound, bound - 1, bound]:
                vary(rank=rank, dims=[64] * n,
                     strides=[128 * 64 ** i for i in range(rank - 1)],
                     es=[1] * n, lo=[v] * c, up=[0] * c)
                vary(rank=rank, dims=[64] * n,
                     strides=[128 * 64 ** i for i in range(rank - 1)],
                     es=[1] * n, lo=[-1] * c, up=[v] * c)
        vary(lo=[0, 0], up=[-40, 0])
    return out


def im2col_cu_file(descs, wide):
    lines = ["#include <cuda.h>"]
    first = len(lines) + 1
    arr = lambda v, suffix: ", ".join("%d%s" % (x, suffix) for x in v)
    for i, d in enumerate(descs):
        if wide:
            corners = "%d, %d" % (d["lo"], d["up"])
            decl = ""
            tail = ("(CUtensorMapInterleave)%d, (CUtensorMapIm2ColWideMode)%d, "
                    "(CUtensorMapSwizzle)%d" % (d["il"], d["mode"], d["sw"]))
            fn = "cuTensorMapEncodeIm2colWide"
        else:
            corners = "lo, up"
            decl = "int lo[] = {%s}; int up[] = {%s}; " % (
                arr(d["lo"], ""), arr(d["up"], ""))
            tail = "(CUtensorMapInterleave)%d, (CUtensorMapSwizzle)%d" % (
                d["il"], d["sw"])
            fn = "cuTensorMapEncodeIm2col"
        lines.append(
            "void f%d() { CUtensorMap m; "
            "cuuint64_t d[] = {%s}; cuuint64_t s[] = {%s}; %s"
            "cuuint32_t e[] = {%s}; "
            "%s(&m, (CUtensorMapDataType)%d, %d, nullptr, d, s, %s, %uU, "
            "%uU, e, %s, (CUtensorMapL2promotion)%d, "
            "(CUtensorMapFloatOOBfill)%d); }"
            % (i, arr(d["dims"], "ULL"), arr(d["strides"], "ULL"), decl,
               arr(d["es"], ""), fn, d["dt"], d["rank"], corners, d["cpp"],
               d["ppc"], tail, d["l2"], d["oob"]))
    return "\n".join(lines) + "\n", first


def im2col_table(descs, wide):
    """The header side's input: one descriptor a line."""
    join = lambda v: ",".join(map(str, v))
    rows = []
    for i, d in enumerate(descs):
        corners = ("%d %d" % (d["lo"], d["up"]) if wide
                   else "%s %s" % (join(d["lo"]), join(d["up"])))
        rows.append("%s %d %d %d %s %s %s %d %d %s %d %d %d %d %d" % (
            "wide" if wide else "im2col", i, d["dt"], d["rank"],
            join(d["dims"]), join(d["strides"]), corners, d["cpp"], d["ppc"],
            join(d["es"]), d["il"], d.get("mode", 0), d["sw"], d["l2"],
            d["oob"]))
    return "\n".join(rows) + "\n"


def cu_file(descs):
    lines = ["#include <cuda.h>"]
    first = len(lines) + 1
    for i, (dt, rank, dims, strides, box, es, il, sw, l2, oob) in \
            enumerate(descs):
        arr = lambda v: ", ".join("%dULL" % x for x in v)
        lines.append(
            "void f%d() { CUtensorMap m; "
            "cuuint64_t d[] = {%s}; cuuint64_t s[] = {%s}; "
            "cuuint32_t b[] = {%s}; cuuint32_t e[] = {%s}; "
            "cuTensorMapEncodeTiled(&m, (CUtensorMapDataType)%d, %d, nullptr, "
            "d, s, b, e, (CUtensorMapInterleave)%d, (CUtensorMapSwizzle)%d, "
            "(CUtensorMapL2promotion)%d, (CUtensorMapFloatOOBfill)%d); }"
            % (i, arr(dims), arr(strides), ", ".join(map(str, box)),
               ", ".join(map(str, es)), dt, rank, il, sw, l2, oob))
    return "\n".join(lines) + "\n", first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True, help="tma-tidy's include/")
    ap.add_argument("--cuda", required=True, help="CUDA toolkit root")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--encoder", choices=["tiled", "im2col", "wide"],
                    default="tiled")
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--drop-rule", default="",
                    help="drop this id from the header's answers (to show "
                    "that the comparison fails)")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)

    rng = random.Random(args.seed)
    if args.encoder == "tiled":
        boundary = boundary_descriptors()
        descs = boundary + [descriptor(rng) for _ in range(args.count)]
        source, first = cu_file(descs)
    else:
        wide = args.encoder == "wide"
        boundary = im2col_boundary(wide)
        descs = boundary + [im2col_descriptor(rng, wide)
                            for _ in range(args.count)]
        source, first = im2col_cu_file(descs, wide)
    cu = os.path.join(args.work, "generated.cu")
    with open(cu, "w") as f:
        f.write(source)

    # The checker on the constants.
    tidy = subprocess.run(
        [args.clang_tidy, "--load=" + args.plugin,
         "--checks=-*,tma-descriptor", cu, "--", "-x", "cuda",
         "--cuda-host-only", "--cuda-path=" + args.cuda, "-std=c++17",
         "-Wno-unknown-cuda-version"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    checker = collections.defaultdict(list)
    pattern = re.compile(r"^%s:(\d+):\d+: warning: .* \(([A-Z0-9-]+)\) "
                         r"\[tma-descriptor\]$" % re.escape(cu))
    for line in tidy.stdout.splitlines():
        m = pattern.match(line)
        if m:
            checker[int(m.group(1)) - first].append(m.group(2))
        elif ": error:" in line:
            print("clang-tidy: " + line)
            return 1

    # The header on the same values.
    exe = os.path.join(args.work, "differential_header")
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([args.cxx, "-std=c++17", "-O1", "-I", args.include,
                    "-isystem", os.path.join(args.cuda, "include"),
                    os.path.join(here, "Inputs", "differential_header.cpp"), "-o", exe],
                   check=True)
    table = im2col_table(descs, args.encoder == "wide") \
        if args.encoder != "tiled" else "\n".join(
        "tiled %d %d %d %s %s %s %s %d %d %d %d"
        % (i, dt, rank, ",".join(map(str, dims)), ",".join(map(str, s)),
           ",".join(map(str, box)), ",".join(map(str, es)), il, sw, l2, oob)
        for i, (dt, rank, dims, s, box, es, il, sw, l2, oob)
        in enumerate(descs)) + "\n"
    run = subprocess.run([exe], input=table, stdout=subprocess.PIPE,
                         text=True, check=True)
    header = {}
    for line in run.stdout.splitlines():
        index, ids = line.split(" ")
        header[int(index)] = [r for r in ids.split(",")
                              if r not in ("-", args.drop_rule)]

    differences = 0
    reported = collections.Counter()
    for i, d in enumerate(descs):
        mine, theirs = sorted(header.get(i, [])), sorted(checker.get(i, []))
        reported.update(theirs)
        if mine != theirs:
            differences += 1
            if differences <= 10:
                print("descriptor %d %s:\n  checker %s\n  header  %s"
                      % (i, d, theirs, mine))
    clean = sum(1 for i in range(len(descs)) if not header.get(i))
    print("%d descriptors (%d boundary), %d clean, %d violations of %d rule "
          "ids, %d differences"
          % (len(descs), len(boundary), clean,
             sum(reported.values()), len(reported), differences))
    for rule, n in sorted(reported.items()):
        print("  %s %d" % (rule, n))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

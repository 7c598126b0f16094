#!/usr/bin/env python3
"""Splits the module's share of a tma-clangd re-check into its parts.

usage: bench/clangd_split.py BASE.cg MEASURED.cg

BASE.cg and MEASURED.cg are the callgrind files that `KEEP=1 bench/clangd.sh`
keeps ($OUT/ID.base.cg, $OUT/ID.tma.cg; a baseline counted once and reused
has no .cg: count it again with REBASE=1). Each part is the difference of
inclusive counts (callgrind_annotate --inclusive=yes) of the functions that
bound it, in millions of instructions:

  parse            the main file's parse, without the end of the file
  end-of-file      Sema::ActOnEndOfTranslationUnit, of which:
    instantiation  Sema::PerformPendingInstantiations (the file's list, and
                   what those instantiations use in turn)
    deferred-diags the preamble's declarations to check for CUDA deferred
                   diagnostics (ReadDeclsToCheckForDeferredDiags)
  matchAST         clang-tidy's finder, of which (measured run only):
    walk-inst      instantiations the scope's walk makes (Bodies::instantiate)
    reach-walk     the rest of widenTraversalScope
    checks         the tma- checks' own work (SharedMatchers::deliver)
    own-walk       the rest of SharedMatchers::run less the widening (the
                   walk of the widened scope, the checks' end of the file)
  other            the rest of ParsedAST::build
"""
import re
import subprocess
import sys

LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(?:\*\s+)?\S*?:(.*?)\s*\[")


def inclusive(cg):
    """Inclusive counts by function name (recursive entries, 'N, left out)."""
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", cg],
        check=True, capture_output=True, text=True).stdout
    counts = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if not m or re.search(r"'\d+$", m.group(2)):
            continue
        name = m.group(2)
        counts[name] = max(counts.get(name, 0), int(m.group(1).replace(",", "")))
    return counts


def find(counts, *needles):
    """The largest count of a function whose name contains every needle."""
    return max((n for name, n in counts.items()
                if all(x in name for x in needles)), default=0)


def parts(c):
    total = find(c, "clang::clangd::ParsedAST::build(")
    parse = find(c, "clang::Parser::ParseTopLevelDecl(")
    eof = find(c, "clang::Sema::ActOnEndOfTranslationUnit()")
    inst = find(c, "clang::Sema::PerformPendingInstantiations(")
    diags = find(c, "ReadDeclsToCheckForDeferredDiags(")
    match = find(c, "clang::ast_matchers::MatchFinder::matchAST(")
    widen = find(c, "clang::tidy::tma::widenTraversalScope(")
    walkinst = find(c, "Bodies::instantiate(")
    # The walk of the widened scope and the checks' end of the file:
    # SharedMatchers::run on the TU's match, less the widening (its own
    # walk is inlined there since round 10).
    own = find(c, "clang::tidy::tma::SharedMatchers::run(") - widen
    checks = find(c, "clang::tidy::tma::SharedMatchers::deliver(")
    return [
        ("total", total),
        ("parse", parse - eof),
        ("end-of-file", eof),
        ("  instantiation", inst),
        ("  deferred-diags", diags),
        ("  rest", eof - inst - diags),
        ("matchAST", match),
        ("  walk-inst", walkinst),
        ("  reach-walk", widen - walkinst),
        ("  checks", checks),
        ("  own-walk", own - checks),
        ("  rest", match - widen - own),
        ("other", total - parse - match),
    ]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, meas = parts(inclusive(sys.argv[1])), parts(inclusive(sys.argv[2]))
    print(f"{'part':18} {'base M':>9} {'measured M':>11} {'delta M':>9}")
    for (name, b), (_, m) in zip(base, meas):
        print(f"{name:18} {b / 1e6:9.1f} {m / 1e6:11.1f} {(m - b) / 1e6:+9.1f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Run clang-tidy on a test source and check its output with FileCheck.

Usage:
  check_clang_tidy.py [-check-suffixes=A[,B]] [-std=c++17[-or-later]]
                      [-expect-clang-tidy-error]
                      [-clang-tidy=BIN] [-filecheck=BIN]
                      <source> <check-names> <temp-file>
                      -- <clang-tidy args, e.g. --load=...> -- <compiler args>

In the style of llvm-project's clang-tools-extra/test/clang-tidy/
check_clang_tidy.py; written for this project.

What it does, once per language standard:
 1. Copies <source> to <temp-file> + its extension (a .cu stays .cu), with the
    text of every `// CHECK-*:` comment removed, so line numbers are kept.
 2. Runs `clang-tidy <copy> -fix --checks=-*,<check-names> --config={}
    <clang-tidy args> -- <compiler args>`. --config={} keeps .clang-tidy files
    out; it is left out when the test passes its own --config or
    --config-file. -fix is always on, so every fix-it is applied and must be
    checked (step 5). Pass --fix-notes among the clang-tidy args to apply
    fix-its from notes too.
 3. A non-zero exit of clang-tidy (a compile error) fails the test, unless
    -expect-clang-tidy-error is given; then the error must be checked by a
    CHECK-MESSAGES or CHECK-NOTES line like any other diagnostic.
 4. Diagnostics, for the prefixes of this run (below):
    - CHECK-MESSAGES lines: FileCheck with
      -implicit-check-not={{warning|error}}: so every warning and error must
      be expected; notes are ignored.
    - CHECK-NOTES lines: the same, and every note must be expected too.
      A run uses one of the two, never both.
    - neither: the run must be silent (no warning, error or note at all).
 5. Fixes: with CHECK-FIXES lines, FileCheck --match-full-lines on the fixed
    copy; without, the fixed copy must equal the stripped copy (no fix-it).

Prefixes: without -check-suffixes they are CHECK-MESSAGES, CHECK-NOTES and
CHECK-FIXES. -check-suffixes=DEVICE makes them CHECK-MESSAGES-DEVICE and so
on; a comma list checks several at once, and an empty item stands for the
unsuffixed prefixes (-check-suffixes=,DEVICE: lines shared by every run plus
the DEVICE ones). A suffix used by a CHECK line but by no RUN line of the file
is an error, so that no expectation is silently never checked.

-std: by default -std=c++17 is added unless the compiler args already carry a
-std=. An explicit -std= is appended last and wins; -std=c++17-or-later runs
once each for C++17, 20, 23 and 26. No -nostdinc++ is added: the stub-header
flags of lit.cfg.py carry it, the real-toolkit flags cannot.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys

DIRECTIVES = ("NEXT", "SAME", "NOT", "DAG", "LABEL", "EMPTY")
# CHECK-<KIND>[-<SUFFIX>][-<FileCheck directive>]:
CHECK_LINE = re.compile(
    r"(?<![\w-])CHECK-(MESSAGES|NOTES|FIXES)(?:-([A-Za-z0-9_]+))?"
    r"(?:-(?:NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-\d+))?:")
LATER_STANDARDS = ["c++17", "c++20", "c++23", "c++26"]


def fail(message, output=None):
    if output is not None:
        print(output)
    sys.stdout.flush()  # before the message, which goes to stderr
    sys.exit("check_clang_tidy.py: FAIL: " + message)


def run(args, **kwargs):
    """Runs a command, echoing it, and returns (exit status, stdout+stderr)."""
    print("RUNNING:", " ".join(args))
    proc = subprocess.run(args, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, encoding="utf-8",
                          errors="replace", **kwargs)
    return proc.returncode, proc.stdout


def prefix(kind, suffix):
    return "CHECK-" + kind + ("-" + suffix if suffix else "")


def used_prefixes(kind, suffixes, found):
    """The prefixes of this run that the file uses (FileCheck rejects an
    unused one)."""
    return [p for p in (prefix(kind, s) for s in suffixes) if p in found]


def check_prefixes_in(text):
    """Maps each CHECK-<KIND>[-SUFFIX] prefix used in text to its suffix."""
    found = {}
    for match in CHECK_LINE.finditer(text):
        kind, suffix = match.group(1), match.group(2) or ""
        if suffix in DIRECTIVES:  # CHECK-MESSAGES-NEXT: is not a suffix
            suffix = ""
        found[prefix(kind, suffix)] = suffix
    return found


def suffixes_of_run_lines(text):
    """The suffixes that the RUN lines of the file pass to this script."""
    used = set()
    for line in text.splitlines():
        if "RUN:" not in line:
            continue
        match = re.search(r"-check-suffix(?:es)?=(\S*)", line)
        if match:
            used.update(match.group(1).split(","))
        elif "check_clang_tidy" in line:
            used.add("")
    return used


def split_args(argv):
    """Splits argv at the first two `--` into runner, tidy, compiler args."""
    parts = [[]]
    for arg in argv:
        if arg == "--" and len(parts) < 3:
            parts.append([])
        else:
            parts[-1].append(arg)
    return parts + [[]] * (3 - len(parts))


def parse_args():
    own, tidy_args, compiler_args = split_args(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-check-suffixes", "-check-suffix", default="")
    parser.add_argument("-std", default=None)
    parser.add_argument("-expect-clang-tidy-error", action="store_true")
    parser.add_argument("-clang-tidy", default="clang-tidy")
    parser.add_argument("-filecheck", default="FileCheck")
    parser.add_argument("source")
    parser.add_argument("check_names")
    parser.add_argument("temp_file")
    args = parser.parse_args(own)
    args.tidy_args, args.compiler_args = tidy_args, compiler_args
    args.suffixes = args.check_suffixes.split(",")
    for suffix in args.suffixes:
        if suffix and (not re.fullmatch(r"[A-Za-z0-9_]+", suffix)
                       or suffix in DIRECTIVES):
            parser.error("invalid check suffix '%s'" % suffix)
    return args


def standards(args):
    """The -std= flags to add, one clang-tidy run per entry."""
    if args.std is None:
        has_std = any(a.startswith("-std=") for a in args.compiler_args)
        return [None] if has_std else ["c++17"]
    if args.std.endswith("-or-later"):
        first = args.std[: -len("-or-later")]
        if first not in LATER_STANDARDS:
            fail("unsupported -std=%s" % args.std)
        return LATER_STANDARDS[LATER_STANDARDS.index(first):]
    return [args.std]


def check_diagnostics(args, found, output):
    """Step 4 of the docstring."""
    messages = used_prefixes("MESSAGES", args.suffixes, found)
    notes = used_prefixes("NOTES", args.suffixes, found)
    has_messages, has_notes = bool(messages), bool(notes)
    if has_messages and has_notes:
        fail("use CHECK-MESSAGES or CHECK-NOTES in one run, not both")
    if not has_messages and not has_notes:
        unexpected = [line for line in output.splitlines()
                      if re.search(r"\b(warning|error|note):", line)]
        if unexpected:
            fail("no CHECK-MESSAGES/CHECK-NOTES lines for %s, so the run must "
                 "be silent, but it printed:\n%s"
                 % (",".join(prefix("MESSAGES", x) for x in args.suffixes),
                    "\n".join(unexpected)))
        return
    if has_notes:
        # -fix prints "note: FIX-IT applied suggested code changes".
        output = "\n".join(line for line in output.splitlines()
                           if "note: FIX-IT applied" not in line)
        implicit = "-implicit-check-not={{note|warning|error}}:"
    else:
        implicit = "-implicit-check-not={{warning|error}}:"
    diag_file = args.temp_file + ".diag"
    with open(diag_file, "w", encoding="utf-8") as f:
        f.write(output)
    status, log = run([args.filecheck, "-input-file=" + diag_file, args.source,
                       "-check-prefixes=" + ",".join(notes if has_notes
                                                     else messages),
                       implicit])
    if status:
        fail("diagnostics do not match", log)


def check_fixes(args, found, stripped, fixed_file):
    """Step 5 of the docstring."""
    fixes = used_prefixes("FIXES", args.suffixes, found)
    if fixes:
        status, log = run([args.filecheck, "-input-file=" + fixed_file,
                           args.source, "-check-prefixes=" + ",".join(fixes),
                           "--match-full-lines"])
        if status:
            fail("fixed file does not match", log)
        return
    with open(fixed_file, encoding="utf-8") as f:
        fixed = f.read()
    if fixed != stripped:
        diff = difflib.unified_diff(stripped.splitlines(True),
                                    fixed.splitlines(True), "before", "after")
        fail("fix-its were applied but there are no %s lines:\n%s"
             % (",".join(prefix("FIXES", x) for x in args.suffixes),
                "".join(diff)))


def main():
    sys.stdout.reconfigure(line_buffering=True)
    args = parse_args()
    with open(args.source, encoding="utf-8") as f:
        text = f.read()
    found = check_prefixes_in(text)

    unchecked = set(found.values()) - suffixes_of_run_lines(text)
    if unchecked:
        fail("CHECK lines with suffix(es) %s are checked by no RUN line"
             % ",".join(sorted(unchecked)))

    extension = os.path.splitext(args.source)[1]
    if not args.temp_file.endswith(extension):
        args.temp_file += extension
    if os.path.realpath(args.temp_file) == os.path.realpath(args.source):
        fail("the temporary file would overwrite the source; pass %t")
    os.makedirs(os.path.dirname(os.path.abspath(args.temp_file)),
                exist_ok=True)
    stripped = re.sub(r"//\s*CHECK-[A-Za-z0-9_-]*:[^\r\n]*", "//", text)

    tidy = [args.clang_tidy, args.temp_file, "-fix",
            "--checks=-*," + args.check_names]
    if not any(a.startswith(("-config", "--config")) for a in args.tidy_args):
        tidy.append("--config={}")
    tidy += args.tidy_args + ["--"] + args.compiler_args
    env = dict(os.environ, CLANG_NO_DEFAULT_CONFIG="1")

    for std in standards(args):
        with open(args.temp_file, "w", encoding="utf-8") as f:
            f.write(stripped)
        status, output = run(tidy + (["-std=" + std] if std else []), env=env)
        print("---- clang-tidy output ----\n" + output + "---- end ----")
        if status and not args.expect_clang_tidy_error:
            fail("clang-tidy exited with %d (a compile error?); add "
                 "-expect-clang-tidy-error if the test expects one" % status)
        if not status and args.expect_clang_tidy_error:
            fail("-expect-clang-tidy-error given, but clang-tidy succeeded")
        check_diagnostics(args, found, output)
        check_fixes(args, found, stripped, args.temp_file)


if __name__ == "__main__":
    main()

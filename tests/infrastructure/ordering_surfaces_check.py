#!/usr/bin/env python3
"""The rule x API surface table of tma-ordering (docs/checks/ordering-surfaces.md).

Every ordering rule id that checks/OrderingCheck.cpp (or the rules/OrderingSite
and rules/UninitSite entry points it calls) can emit has one row;
each surface column holds one of
  `file.cu`: wrongKernel / twinKernel   a lit test under tests/checkers/tma
  n/a: reason                           the surface cannot express the rule
  gap                                   no test yet (listed, never hidden)
The check fails when the table names a rule the check does not emit, misses
one it does, or when a cell's test is untrue: the file or a kernel is
missing, the wrong kernel has no expected warning of the rule, the twin has
one, or either kernel (with the file's helpers it calls) does not use the
surface. With --suggest it prints, per rule and surface, the kernels of the
tests that would fit a cell.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "docs", "checks", "ordering-surfaces.md")
TESTS = os.path.join(ROOT, "tests", "checkers", "tma")
# The check, and the rules it calls (MBAR-UNINIT's in UninitSite).
CHECKS = [os.path.join(ROOT, "checker", "checks", "OrderingCheck.cpp")]
RULES = [os.path.join(ROOT, "checker", "rules", f)
         for f in ("OrderingRules.cpp", "OrderingSite.cpp", "UninitSite.cpp")]
ID = re.compile(r"\b(?:TMAP|TMA|BULK|MBAR|ASYNC)-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")

SURFACES = ["inline PTX", "cuda::ptx", "cde", "cuda::device", "CUTLASS-like"]
# What a kernel (or a helper of its file that it calls) spells to use a
# surface.
MARKERS = {
    "inline PTX": re.compile(r"\basm\s*(volatile\s*)?\("),
    "cuda::ptx": re.compile(r"\bptx::"),
    "cde": re.compile(r"\bcde::|cuda::device::experimental::"),
    "cuda::device": re.compile(
        r"cuda::device::(memcpy_async_tx|barrier_arrive_tx|barrier_native_handle)"
        r"|\bblock_barrier\b|cuda::barrier<|\binit\(&"),
    "CUTLASS-like": re.compile(r"\bcutlass::|\bcute::|ClusterTransactionBarrier|"
                               r"ClusterBarrier|PipelineTmaAsync"),
}
def emitted_rules():
    ids = set()
    for path in CHECKS + RULES:
        with open(path, encoding="utf-8") as f:
            for lit in re.findall(r'"(?:[^"\\\n]|\\.)*"', f.read()):
                ids.update(ID.findall(lit))
    return ids


HEAD = re.compile(r"^(?:template\s*<[^>]*>\s*)?(__global__|__device__)\b", re.M)
EXPECTED = re.compile(
    r"//\s*CHECK-(?:NOTES|MESSAGES)[\w-]*:.*warning:.*\(([A-Z0-9-]+)\) \[tma-ordering\]")
ATTRS = re.compile(r"\b(?:__launch_bounds__|__cluster_dims__|alignas|__align__)\s*\([^)]*\)")


def blank(text):
    """The text with comments and string and character literals blanked,
    offsets kept."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two == "//":
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif two == "/*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def functions(text):
    """name -> (is_kernel, body text) for the file's function definitions."""
    out = {}
    code = blank(text)
    for m in HEAD.finditer(code):
        # The declarator: up to the first `{` or `;` outside parentheses.
        depth, i = 0, m.end()
        while i < len(code):
            c = code[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif depth == 0 and c in "{;":
                break
            i += 1
        if i >= len(code) or code[i] == ";":
            continue  # a declaration
        names = re.findall(r"\b(\w+)\s*\(", ATTRS.sub(" ", code[m.end():i]))
        if not names:
            continue
        start, depth = i, 0
        while i < len(code):
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        out[names[0]] = (m.group(1) == "__global__", text[m.start():i + 1])
    return out


def surfaces_of(name, funcs, seen=None):
    seen = seen if seen is not None else set()
    if name in seen or name not in funcs:
        return set()
    seen.add(name)
    body = funcs[name][1]
    found = {s for s, r in MARKERS.items() if r.search(body)}
    for other in funcs:
        if other != name and re.search(r"\b%s\s*[(<]" % re.escape(other), body):
            found |= surfaces_of(other, funcs, seen)
    return found


def expected_rules(body):
    return set(EXPECTED.findall(body))


def load_tests():
    tests = {}
    for name in sorted(os.listdir(TESTS)):
        if name.endswith(".cu"):
            with open(os.path.join(TESTS, name), encoding="utf-8") as f:
                tests[name] = functions(f.read())
    return tests


def parse_table():
    rows = {}
    with open(TABLE, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = None
    for line in lines:
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if set(cells[0]) <= set("-: "):
            continue
        rows[cells[0].strip("`")] = dict(zip(header[1:], cells[1:]))
    return header, rows


CELL = re.compile(r"^`([\w.-]+\.cu)`:\s*`?(\w+)`?\s*/\s*`?(\w+)`?$")


def check():
    errors = []
    header, rows = parse_table()
    if header is None or header[1:] != SURFACES:
        return ["the table's columns are not %s" % SURFACES]
    want = {r for r in emitted_rules()}
    for r in sorted(want - set(rows)):
        errors.append("%s is emitted by tma-ordering but has no row" % r)
    for r in sorted(set(rows) - want):
        errors.append("%s has a row but tma-ordering does not emit it" % r)
    tests = load_tests()
    gaps = 0
    for rule, cells in sorted(rows.items()):
        for surface in SURFACES:
            cell = cells.get(surface, "")
            if cell == "gap":
                gaps += 1
                continue
            if cell.startswith("n/a:") and len(cell) > 8:
                continue
            m = CELL.match(cell)
            if not m:
                errors.append("%s / %s: cell %r is neither a test, n/a: <reason>"
                              " nor gap" % (rule, surface, cell))
                continue
            fname, wrong, twin = m.groups()
            funcs = tests.get(fname)
            if funcs is None:
                errors.append("%s / %s: no test %s" % (rule, surface, fname))
                continue
            for kernel, is_wrong in ((wrong, True), (twin, False)):
                if kernel not in funcs or not funcs[kernel][0]:
                    errors.append("%s / %s: %s has no kernel %s"
                                  % (rule, surface, fname, kernel))
                    continue
                got = rule in expected_rules(funcs[kernel][1])
                if got != is_wrong:
                    errors.append("%s / %s: %s:%s %s" % (
                        rule, surface, fname, kernel,
                        "expects no warning of the rule" if is_wrong
                        else "(the twin) expects a warning of the rule"))
                if surface not in surfaces_of(kernel, funcs):
                    errors.append("%s / %s: %s:%s does not use the surface"
                                  % (rule, surface, fname, kernel))
    return errors, gaps


def suggest():
    tests = load_tests()
    for rule in sorted(emitted_rules()):
        for surface in SURFACES:
            hits = []
            for fname, funcs in tests.items():
                for k, (is_kernel, body) in funcs.items():
                    if is_kernel and rule in expected_rules(body) and \
                            surface in surfaces_of(k, funcs):
                        hits.append("%s:%s" % (fname, k))
            print("%-32s %-13s %s" % (rule, surface, " ".join(hits[:4]) or "-"))


if __name__ == "__main__":
    if "--suggest" in sys.argv:
        suggest()
        sys.exit(0)
    result = check()
    if isinstance(result, list):
        errors, gaps = result, 0
    else:
        errors, gaps = result
    for e in errors:
        print("ordering-surfaces: " + e, file=sys.stderr)
    if not errors:
        print("ordering-surfaces: table true; %d gap(s) listed" % gaps)
    sys.exit(1 if errors else 0)

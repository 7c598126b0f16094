#!/usr/bin/env python3
"""CodeChecker checker labels for the tma- checks of tma-tidy.

  labels.py generate            print the label file (from docs/rules/README.md)
  labels.py check               fail when clang-tidy-tma.json is not what
                                `generate` prints
  labels.py install PREFIX      merge clang-tidy-tma.json into the clang-tidy
                                labels of the CodeChecker installed in PREFIX
                                (a virtual environment or a system prefix)

CodeChecker reads its checker labels (severity, documentation URL, guideline)
from <prefix>/share/codechecker/config/labels/analyzers/*.json, one file per
analyzer; a second file for the analyzer "clang-tidy" would replace the stock
one, so `install` merges the tma- entries into clang-tidy.json (idempotent).
The server applies severities when a run is stored: install before
`CodeChecker server` starts.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LABELS = os.path.join(HERE, "clang-tidy-tma.json")
DOCS = "https://github.com/tma-tidy/tma-tidy/blob/main/docs/checks/"

# Every tma- check reports a program that fails or races at run time, except
# tma-encode-result, whose finding is a missing error check.
SEVERITY = {
    "tma-bulk-copy": "HIGH",
    "tma-descriptor": "HIGH",
    "tma-encode-result": "MEDIUM",
    "tma-expect-tx": "HIGH",
    "tma-ordering": "HIGH",
    "tma-tensor-map-placement": "HIGH",
}


def generate():
    rules = {}
    row = re.compile(r"^\| \[`([A-Z0-9-]+)`\]\([^)]*\) \|.*\| `(tma-[a-z-]+)` \|$")
    with open(os.path.join(ROOT, "docs", "rules", "README.md")) as f:
        for line in f:
            m = row.match(line.rstrip("\n"))
            if m:
                rules.setdefault(m.group(2), []).append(m.group(1))
    missing = set(SEVERITY) ^ set(rules)
    if missing:
        sys.exit(f"labels.py: checks without a severity or rules: {sorted(missing)}")
    labels = {}
    for check in sorted(rules):
        labels[check] = [f"doc_url:{DOCS}{check}.md",
                         "guideline:tma-rules",
                         f"severity:{SEVERITY[check]}"]
        labels[check] += [f"tma-rules:{r}" for r in sorted(rules[check])]
    return {"analyzer": "clang-tidy", "labels": labels}


def dump(data):
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def install(prefix):
    target = os.path.join(prefix, "share", "codechecker", "config", "labels",
                          "analyzers", "clang-tidy.json")
    if not os.path.isfile(target):
        sys.exit(f"labels.py: no CodeChecker labels at {target}")
    with open(target) as f:
        stock = json.load(f)
    with open(LABELS) as f:
        ours = json.load(f)
    stock["labels"] = {k: v for k, v in stock["labels"].items()
                       if not k.startswith("tma-")}
    stock["labels"].update(ours["labels"])
    tmp = target + ".tmp"
    with open(tmp, "w") as f:
        json.dump(stock, f, indent=2)
    os.replace(tmp, target)
    print(f"labels.py: {len(ours['labels'])} tma- checks merged into {target}")


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "generate":
        sys.stdout.write(dump(generate()))
    elif cmd == "check":
        with open(LABELS) as f:
            if f.read() != dump(generate()):
                sys.exit("labels.py: clang-tidy-tma.json is stale; run "
                         "contrib/codechecker/labels.py generate > "
                         "contrib/codechecker/clang-tidy-tma.json")
    elif cmd == "install" and len(sys.argv) == 3:
        install(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

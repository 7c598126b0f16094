#!/usr/bin/env python3
"""Checks the rule reference (docs/rules/) against the code.

usage: rule_reference_check.py REPO [--list]

The rule ids come from the code, not from a list: every id
(PREFIX-PART[-PART...], upper case) inside a string literal of a C++ file
under checker/ or include/ (the rule model is shared with <tma/validate.h>),
comments left out. Those are the ids a diagnostic can name.
Then:

* each id has a page docs/rules/<ID>.md in one of the two formats that
  docs/rules/README.md describes (sections as headings, or as bold
  paragraph labels): a title naming the id, a summary, the condition, what
  fails at run time, a wrong and a right example, the fix, and a reference
  with at least one link to NVIDIA's documentation;
* the index docs/rules/README.md links every page, and every page it links
  exists, with the same check as the page;
* no page is left that names an id the code no longer emits, unless the page
  says "**Status:** not reported" (kept for a teammate's rule in progress).

--list prints the ids found in the code and exits.
Exit status 0 when all holds, 1 with one line per problem otherwise.
"""
import os
import re
import sys

ID = re.compile(r"\b((?:TMAP|TMA|BULK|MBAR|MEMCPY|CDE|ASYNC)(?:-[A-Z0-9]+)+)\b")
SECTIONS = ["Condition", "What fails at run time", "Example", "Fix",
            "Reference"]
DOC_LINK = re.compile(r"\]\((https://docs\.nvidia\.com/[^)]+|"
                      r"https://nvidia\.github\.io/cccl/[^)]+)\)")


def strip_comments(text):
    """The string literals of C++ text, in order (comments skipped)."""
    literals = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "'":
            # A character literal ('"' must not open a string).
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            literals.append(text[i + 1:j])
            i = j + 1
        else:
            i += 1
    return literals


def code_ids(repo):
    ids = {}
    for top in ("checker", "include"):
      for base, _, files in os.walk(os.path.join(repo, top)):
        for name in sorted(files):
            if not name.endswith((".cpp", ".h", ".hpp")):
                continue
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as f:
                for literal in strip_comments(f.read()):
                    for rule in ID.findall(literal):
                        ids.setdefault(rule, os.path.relpath(path, repo))
    return ids


# Each section: its heading (format A) or its bold paragraph label (B).
SECTION_FORMS = {
    "Condition": [r"^## Condition$", r"^\*\*Condition[.:]\*\*"],
    "What fails at run time": [r"^## What fails at run time$",
                               r"^\*\*At run time[.:]\*\*"],
    "Example": [r"^## Example$", r"^\*\*Wrong[.:]\*\*"],
    "Fix": [r"^## Fix$", r"^\*\*Fix[.:]\*\*", r"^\*\*Right[.:]\*\*"],
    "Reference": [r"^## Reference$", r"^\*\*Reference[.:]\*\*"],
}


def check_page(path, rule, problems):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    where = os.path.relpath(path)
    first = text.splitlines()[0] if text else ""
    if first != "# " + rule and not first.startswith("# " + rule + " — "):
        problems.append("%s: first line must be '# %s' (or '# %s — summary')"
                        % (where, rule, rule))
    summary = (re.search(r"^\*\*Summary:\*\* (\S.*)$", text, re.M) or
               re.match(r"# [A-Z0-9-]+ — (\S.*)$", first))
    check = (re.search(r"^\*\*Check:\*\* \[`(tma-[a-z-]+)`\]\(\.\./checks/"
                       r"(tma-[a-z-]+)\.md\)", text, re.M) or
             re.search(r"Checked by \[`(tma-[a-z-]+)`\]\(\.\./checks/"
                       r"(tma-[a-z-]+)\.md\)", text))
    runtime_only = "<tma/validate.h>" in text and not check
    if not summary:
        problems.append("%s: no '**Summary:** <one sentence>' line" % where)
    if not check and not runtime_only:
        problems.append("%s: no '**Check:** [`tma-x`](../checks/tma-x.md)' "
                        "line" % where)
    elif check and check.group(1) != check.group(2):
        problems.append("%s: the check link names another check" % where)
    for section, forms in SECTION_FORMS.items():
        if not any(re.search(f, text, re.M) for f in forms):
            problems.append("%s: no '## %s' section" % (where, section))
    if text.count("```") < 2:
        problems.append("%s: the example needs a code block" % where)
    reference = re.split(r"^(?:## Reference|\*\*Reference[.:]\*\*)", text,
                         flags=re.M)[-1]
    if not DOC_LINK.search(reference):
        problems.append("%s: the reference links no NVIDIA documentation "
                        "(docs.nvidia.com, nvidia.github.io/cccl)" % where)
    owner = check.group(1) if check else ("<tma/validate.h>" if runtime_only
                                          else None)
    return owner, "**Status:** not reported" in text or runtime_only


def main():
    repo = sys.argv[1]
    ids = code_ids(repo)
    if "--list" in sys.argv:
        print("\n".join(sorted(ids)))
        return 0
    if not ids:
        print("error: no rule id found under %s/checker" % repo)
        return 1
    docs = os.path.join(repo, "docs", "rules")
    problems = []
    pages = {}
    if os.path.isdir(docs):
        for name in sorted(os.listdir(docs)):
            if name.endswith(".md") and name != "README.md":
                rule = name[:-3]
                pages[rule] = check_page(os.path.join(docs, name), rule,
                                         problems)
    for rule in sorted(ids):
        if rule not in pages:
            problems.append("%s (in %s) has no page docs/rules/%s.md"
                            % (rule, ids[rule], rule))
    for rule, (_, kept) in sorted(pages.items()):
        if rule not in ids and not kept:
            problems.append("docs/rules/%s.md: no code emits %s (remove the "
                            "page, or mark it '**Status:** not reported')"
                            % (rule, rule))
    index = os.path.join(docs, "README.md")
    listed = {}
    if os.path.isfile(index):
        with open(index, encoding="utf-8") as f:
            for line in f:
                row = re.match(r"\|\s*\[`?([A-Z0-9-]+)`?\]\(([A-Z0-9-]+)\.md\)"
                               r"\s*\|([^|]*)\|\s*`?([^`|]+?)`?\s*\|", line)
                if row:
                    if row.group(1) != row.group(2):
                        problems.append("docs/rules/README.md: %s links %s.md"
                                        % (row.group(1), row.group(2)))
                    if not row.group(3).strip():
                        problems.append("docs/rules/README.md: %s has no "
                                        "summary" % row.group(1))
                    listed[row.group(2)] = row.group(4)
    else:
        problems.append("docs/rules/README.md (the index) is missing")
    for rule, (check, _) in sorted(pages.items()):
        if rule not in listed:
            problems.append("docs/rules/README.md does not list %s" % rule)
        elif check and listed[rule] != check:
            problems.append("docs/rules/README.md: %s is under %s, its page "
                            "says %s" % (rule, listed[rule], check))
    for rule in sorted(listed):
        if rule not in pages:
            problems.append("docs/rules/README.md lists %s, which has no page"
                            % rule)
    for p in problems:
        print("error: " + p)
    if not problems:
        print("rule reference: %d ids in the code, %d pages, all listed"
              % (len(ids), len(pages)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

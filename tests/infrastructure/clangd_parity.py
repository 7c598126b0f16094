#!/usr/bin/env python3
"""Compares tma-clangd with the plugin's device pass, file by file.

For each lit test given (tests/checkers/tma/*.cu), every `%check_clang_tidy`
RUN line of a device pass (%cuda_stub_device, %cuda_real_device) is run
twice on a copy of the test in its own directory, with a .clang-tidy that
enables the RUN line's checks and options:

  * clang-tidy with the plugin (--export-fixes: diagnostics, notes, fixes);
  * tma-clangd over LSP (lsp_client.Server), the same compile command in a
    compile_commands.json: published diagnostics, their related
    information (notes) and the edits of their quick fixes.

For each entry of a database given (--database FILE: clang commands, one
CUDA pass each), the same with every tma- check, tma-clangd reading the
database through --compile-commands-dir (bench/clangd.sh PARITY=1 on the
real code).

For each project given (--project DIR FILE: headers under DIR/include, a
compile_commands.json at DIR, written for clang with --cuda-real for every
DIR/src/*.cu when there is none; FILE relative to DIR), the same with the
database's command and `tma-*`, tma-clangd started in DIR.

A note with no location (clangd drops it) is left out of the plugin's side;
a note with a fix is the quick fix clangd offers (the fix is compared); a
warning in a header with a note in the file is shown, as clangd shows it, at
that note.
clangd's index of the standard library is off (a user config), so that
each server exits as soon as its file is checked.

Both sides are reduced to: line:col check message, then each note
(file:line:col message), then each fix (file:line:col-line:col text),
clangd's capitalised first letter and " (fix available)" undone. Any
difference is printed as a diff and makes the script exit 1.
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_client  # noqa: E402


def uncap(message):
    message = message.split("\n")[0].rstrip()
    if message.endswith(" (fix available)"):
        message = message[:-len(" (fix available)")]
    return message[:1].lower() + message[1:]


def line_col(data, offset):
    """1-based line and UTF-16 column (LSP's unit) of a byte offset."""
    line = data.count(b"\n", 0, offset) + 1
    prefix = data[data.rfind(b"\n", 0, offset) + 1:offset]
    col = len(prefix.decode("utf-8", "replace").encode("utf-16-le")) // 2
    return line, col + 1


def plugin_side(args, workdir, source, compile_args, checks, scratch=None,
                tidy_args=()):
    """The plugin's diagnostics of source, reduced as clangd shows them: a
    note with a fix is the fix's title (not a note), a note with no
    location is not shown. Returns them and the clang errors' count."""
    fixes = os.path.join(scratch or workdir,
                         os.path.basename(source) + ".fixes.yaml")
    cmd = [args.clang_tidy, "--load=" + args.plugin,
           "--export-fixes=" + fixes] + list(tidy_args) + [
               source, "--"] + compile_args
    run = subprocess.run(cmd, cwd=workdir, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if not os.path.exists(fixes):
        if "warning:" in run.stdout:
            raise RuntimeError("no fixes file:\n" + run.stdout)
        return [], 0
    import yaml  # python3-yaml, a dependency of clang-tidy-22
    with open(fixes) as f:
        data = yaml.safe_load(f) or {}
    texts = {}

    def where(path, offset):
        if path not in texts:
            with open(path, "rb") as f:
                texts[path] = f.read()
        return line_col(texts[path], offset)

    def reps(message):
        out = []
        for r in message.get("Replacements") or []:
            path = r["FilePath"]
            l1, c1 = where(path, r["Offset"])
            l2, c2 = where(path, r["Offset"] + r["Length"])
            out.append("  fix %s:%d:%d-%d:%d %s" % (
                os.path.basename(path), l1, c1, l2, c2,
                json.dumps(r["ReplacementText"])))
        return out

    result = []
    errors = 0
    for d in data.get("Diagnostics") or []:
        m = d["DiagnosticMessage"]
        # clangd shows a header's error at the #include that leads to it.
        if d["DiagnosticName"] == "clang-diagnostic-error":
            errors += 1
        main = os.path.realpath(source)
        at = None
        if os.path.realpath(m.get("FilePath", "")) == main:
            at = (m["FilePath"], m["FileOffset"])
        else:
            # clangd shows a diagnostic of a header at its first note in
            # the file (toLSPDiags), and not the others.
            for n in d.get("Notes") or []:
                if os.path.realpath(n.get("FilePath", "")) == main:
                    at = (n["FilePath"], n["FileOffset"])
                    break
        if at is None:
            continue
        if not checks(d["DiagnosticName"]):
            continue
        l, c = where(*at)
        entry = ["%d:%d %s %s" % (l, c, d["DiagnosticName"],
                                  uncap(m["Message"]))]
        fix_lines = reps(m)
        for n in d.get("Notes") or []:
            if n.get("Replacements"):
                fix_lines += reps(n)
                continue
            if n.get("FilePath"):
                nl, nc = where(n["FilePath"], n["FileOffset"])
                entry.append("  note %s:%d:%d %s" % (
                    os.path.basename(n["FilePath"]), nl, nc,
                    uncap(n["Message"])))
        entry += sorted(set(fix_lines))
        result.append(entry)
    return result, errors


TMA_CHECKS = ["tma-bulk-copy", "tma-descriptor", "tma-encode-result",
              "tma-expect-tx", "tma-ordering", "tma-tensor-map-placement"]


def clangd_side(args, workdir, source, checks, scratch=None, extra=()):
    """tma-clangd's diagnostics of source, reduced (only checks' codes).
    tma-clangd adds tma-* to the .clang-tidy's checks: the user config
    removes the other tma- checks, so that both sides run the same."""
    env = dict(os.environ)
    env.pop("CLANGD_FLAGS", None)
    # The user config: no index of the standard library, which clangd
    # builds in the background after the first diagnostics (30-60 s of a
    # CPU, and an exit that waits for it).
    scratch = scratch or workdir
    config = os.path.join(scratch, ".tma-parity-config")
    os.makedirs(os.path.join(config, "clangd"), exist_ok=True)
    with open(os.path.join(config, "clangd", "config.yaml"), "w") as f:
        f.write("Index:\n  StandardLibrary: No\n")
        others = [c for c in TMA_CHECKS if not checks(c)]
        if others:
            f.write("Diagnostics:\n  ClangTidy:\n    Remove: [%s]\n" %
                    ", ".join(others))
    env["XDG_CONFIG_HOME"] = config
    env["XDG_CACHE_HOME"] = os.path.join(scratch, ".cache")
    argv = [os.path.abspath(args.clangd), "--background-index=false",
            "--log=" + os.environ.get("TMA_PARITY_LOG", "error")] + list(extra)
    logname = os.path.join(scratch, os.path.basename(source) + ".clangd.log")
    log = open(logname, "w")
    server = lsp_client.Server(argv, workdir, env, log,
                               time.monotonic() + args.timeout)
    with open(source) as f:
        text = f.read()
    uri = "file://" + source
    try:
        server.request("initialize", {
            "processId": os.getpid(), "rootUri": "file://" + workdir,
            "capabilities": {"textDocument": {
                "publishDiagnostics": {"relatedInformation": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix"]}}}}}})
        server.notify("initialized", {})
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cuda", "version": 1, "text": text}})
        published = server.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri
            and m["params"].get("version") == 1, "publishDiagnostics")
        result = []
        errors = []
        for d in published["params"]["diagnostics"]:
            code = d.get("code", "")
            if d.get("severity") == 1 and d.get("source") != "clang-tidy":
                errors.append("clang error %d:%d %s" % (
                    d["range"]["start"]["line"] + 1,
                    d["range"]["start"]["character"] + 1,
                    d["message"].split("\n")[0]))
            if not checks(code):
                continue
            start = d["range"]["start"]
            entry = ["%d:%d %s %s" % (start["line"] + 1,
                                      start["character"] + 1, code,
                                      uncap(d["message"]))]
            for r in d.get("relatedInformation", []):
                p = r["location"]["range"]["start"]
                path = r["location"]["uri"].replace("file://", "")
                entry.append("  note %s:%d:%d %s" % (
                    os.path.basename(path), p["line"] + 1,
                    p["character"] + 1, uncap(r["message"])))
            actions = server.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": d["range"],
                "context": {"diagnostics": [d]}}) or []
            fix_lines = []
            for a in actions:
                if a.get("kind") != "quickfix":
                    continue
                changes = a.get("edit", {}).get("changes", {})
                for change_uri, edits in changes.items():
                    for e in edits:
                        s, t = e["range"]["start"], e["range"]["end"]
                        fix_lines.append("  fix %s:%d:%d-%d:%d %s" % (
                            os.path.basename(change_uri.replace("file://", "")),
                            s["line"] + 1, s["character"] + 1,
                            t["line"] + 1, t["character"] + 1,
                            json.dumps(e["newText"])))
            entry += sorted(set(fix_lines))
            result.append(entry)
        server.request("shutdown", None)
        server.notify("exit", None)
        server.proc.wait(timeout=max(server.deadline - time.monotonic(), 1))
        server.watchdog.cancel()
    except (lsp_client.LspError, OSError, subprocess.TimeoutExpired) as e:
        server.proc.kill()
        server.proc.wait()
        raise RuntimeError("tma-clangd: %s (log %s)" % (e, logname))
    return result, errors


def flatten(diags):
    return ["\n".join(d) for d in sorted(diags)]


def compare(args, name, workdir, source, compile_args, checks, db_args=None):
    plugin, plugin_errors = plugin_side(args, workdir, source, compile_args,
                                        checks)
    clangd, errors = clangd_side(args, workdir, source, checks)
    if plugin_errors:
        errors = []
    return len(plugin), report(name, plugin, clangd, errors)


def report(name, plugin, clangd, errors):
    a, b = flatten(plugin), flatten(clangd)
    lines = []
    if a != b:
        lines += ["%s: tma-clangd differs from the plugin's device pass" %
                  name]
        lines += list(difflib.unified_diff(
            "\n".join(a).split("\n"), "\n".join(b).split("\n"),
            "plugin", "tma-clangd", lineterm=""))
    if errors:
        lines += ["%s: tma-clangd reports clang errors" % name] + errors
    return lines


RUN = re.compile(r"//\s*RUN:\s*(%check_clang_tidy\s.*)$")


def lit_runs(args, test):
    """(check names, tidy args, compile args) of each device RUN line."""
    subst = {"%S": os.path.dirname(os.path.abspath(test)),
             "%cuda_stub_device": args.cuda_stub + " --cuda-device-only",
             "%cuda_real_device": args.cuda_real + " --cuda-device-only"}
    runs = []
    with open(test) as f:
        for line in f:
            m = RUN.search(line.rstrip("\n"))
            if not m or "_device" not in m.group(1):
                continue
            cmd = m.group(1)
            for k in sorted(subst, key=len, reverse=True):
                cmd = cmd.replace(k, subst[k])
            words = shlex.split(cmd)[1:]
            while words and words[0].startswith("-"):
                words.pop(0)
            # %s CHECKS %t -- TIDY-ARGS -- COMPILE-ARGS
            checks = words[1]
            rest = words[3:]
            if not rest or rest[0] != "--" or "--" not in rest[1:]:
                continue
            second = rest.index("--", 1)
            tidy, compile_args = rest[1:second], rest[second + 1:]
            config = None
            for t in tidy:
                m2 = re.match(r"-?-config=(.*)", t)
                if m2:
                    config = m2.group(1)
            runs.append((checks, config, compile_args))
    return runs


def check_test(args, test, index):
    name = os.path.basename(test)
    out, count = [], 0
    for n, (checks, config, compile_args) in enumerate(lit_runs(args, test)):
        workdir = os.path.join(args.work, "%03d-%d" % (index, n))
        shutil.rmtree(workdir, ignore_errors=True)
        os.makedirs(workdir)
        source = os.path.join(workdir, name)
        shutil.copyfile(test, source)
        tidy = "{Checks: '-*,%s'" % checks
        if config:
            inner = config.strip()
            if inner.startswith("{") and inner.endswith("}"):
                tidy += ", " + inner[1:-1]
        tidy += "}\n"
        with open(os.path.join(workdir, ".clang-tidy"), "w") as f:
            f.write(tidy)
        with open(os.path.join(workdir, "compile_commands.json"), "w") as f:
            json.dump([{"directory": workdir, "file": source,
                        "arguments": ["clang++"] + compile_args + [source]}],
                      f)
        names = checks.split(",")
        try:
            c, lines = compare(args, "%s (RUN %d)" % (name, n + 1), workdir,
                               source, compile_args,
                               lambda code: code in names)
        except RuntimeError as e:
            c, lines = 0, ["%s (RUN %d): %s" % (name, n + 1, e)]
        count += c
        out += lines
    return name, count, out


def check_project(args, root, rel):
    """A project laid out with headers: its compile_commands.json (clang
    syntax, at its root, where clangd finds it from the file), FILE relative
    to it, every tma- check."""
    root = os.path.abspath(root)
    source = os.path.join(root, rel)
    database = os.path.join(root, "compile_commands.json")
    if not os.path.exists(database):
        # Every source of the project, as CMake would list it for clang.
        sources = sorted(os.path.join(d, f)
                         for d, _, fs in os.walk(os.path.join(root, "src"))
                         for f in fs if f.endswith(".cu"))
        with open(database + ".tmp", "w") as f:
            json.dump([{"directory": root, "file": os.path.relpath(s, root),
                        "arguments": ["clang++"] +
                        shlex.split(args.cuda_real) +
                        ["-I" + os.path.join(root, "include"), "-c",
                         os.path.relpath(s, root), "-o",
                         os.path.basename(s) + ".o"]} for s in sources],
                      f, indent=1)
        os.replace(database + ".tmp", database)
    with open(database) as f:
        entry = [e for e in json.load(f)
                 if os.path.join(e["directory"], e["file"]) == source][0]
    words = entry["arguments"][1:]
    compile_args = []
    while words:
        w = words.pop(0)
        if w == "-o" and words:
            words.pop(0)
        elif w != "-c" and os.path.join(entry["directory"], w) != source:
            compile_args.append(w)
    with open(os.path.join(root, ".clang-tidy"), "w") as f:
        f.write("Checks: '-*,tma-*'\n")
    c, lines = compare(args, rel, root, source, compile_args,
                       lambda code: code.startswith("tma-"))
    return rel, c, lines


def guarded(function, args, what, *rest):
    try:
        return function(args, what, *rest)
    except Exception as e:  # One file's failure, reported with the others.
        return str(what), 0, ["%s: %s: %s" % (what, type(e).__name__, e)]


def check_database(args, database, index):
    """One entry of a compile database (clang syntax, one CUDA pass): the
    plugin on its command, tma-clangd started in its directory with
    --compile-commands-dir (the real-code bench's TUs, bench/clangd.sh)."""
    with open(database) as f:
        entry = json.load(f)[index]
    source = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    words = entry.get("arguments") or shlex.split(entry["command"])
    compile_args = []
    words = words[1:]
    while words:
        w = words.pop(0)
        if w == "-o" and words:
            words.pop(0)
        elif w != "-c" and os.path.normpath(
                os.path.join(entry["directory"], w)) != source:
            compile_args.append(w)
    work = os.path.join(args.work, "db-%03d" % index)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    all_tma = lambda code: code.startswith("tma-")
    # The repository's own .clang-tidy may enable other checks, or none.
    plugin, plugin_errors = plugin_side(args, entry["directory"], source,
                                        compile_args, all_tma, work,
                                        ["--checks=-*,tma-*"])
    clangd, errors = clangd_side(
        args, entry["directory"], source, all_tma, work,
        ["--compile-commands-dir=" + os.path.dirname(os.path.abspath(
            database))])
    if plugin_errors:
        errors = []
    return source, len(plugin), report(source, plugin, clangd, errors)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clangd", required=True)
    p.add_argument("--clang-tidy", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--cuda-stub", default="")
    p.add_argument("--cuda-real", default="")
    p.add_argument("--work", required=True, help="scratch directory")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--project", nargs=2, action="append", default=[],
                   metavar=("DIR", "FILE"))
    p.add_argument("--database", action="append", default=[],
                   help="every entry of a compile_commands.json")
    p.add_argument("--lit-dir", action="append", default=[],
                   help="every *.cu test of DIR")
    p.add_argument("tests", nargs="*")
    args = p.parse_args()
    for d in args.lit_dir:
        args.tests += sorted(os.path.join(d, f) for f in os.listdir(d)
                             if f.endswith(".cu"))
    for tool in ("clangd", "clang_tidy", "plugin", "work"):
        if getattr(args, tool):
            setattr(args, tool, os.path.abspath(getattr(args, tool)))
    os.makedirs(args.work, exist_ok=True)
    start = time.monotonic()
    failures, total, files = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(guarded, check_test, args, t, i)
                for i, t in enumerate(args.tests)]
        jobs += [pool.submit(guarded, check_project, args, d, f)
                 for d, f in args.project]
        for database in args.database:
            with open(database) as f:
                n = len(json.load(f))
            jobs += [pool.submit(guarded, check_database, args, database, i)
                     for i in range(n)]
        for job in jobs:
            name, count, lines = job.result()
            files += 1
            total += count
            if lines:
                failures.append(name)
                print("\n".join(lines), flush=True)
    print("parity: %d files, %d plugin diagnostics, %d differ (%.0f s)" % (
        files, total, len(failures), time.monotonic() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

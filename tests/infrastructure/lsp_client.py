#!/usr/bin/env python3
"""A small LSP client for the tma-clangd test (Python 3 standard library only).

It lays out a project (the source file, compile_flags.txt, .clang-tidy),
starts clangd over stdio in another working directory, opens the file, waits
for its diagnostics, asks for the code actions of each clang-tidy diagnostic,
then shuts clangd down. It prints a transcript for FileCheck:

    diag 17:27-17:34 warning tma-descriptor: globalStrides[0] is 200 ...
    fix "use CU_TENSOR_MAP_SWIZZLE_128B" 20:26-20:49 -> "CU_TENSOR_MAP_..."
    fixed 20: CU_TENSOR_MAP_SWIZZLE_128B,
    exit 0

Lines and columns are 1-based (LSP's are 0-based). "fixed" shows each line
that a fix changes, after applying the fix to the file's text. Any protocol
error, a clangd that dies, or a step that takes longer than --timeout makes
the script exit non-zero, so a hang fails the test instead of blocking it.
"""

import argparse
import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time


class LspError(Exception):
    pass


class Server:
    """A language server process spoken to in JSON-RPC over stdio."""

    def __init__(self, argv, cwd, env, stderr, deadline):
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env,
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=stderr)
        self.deadline = deadline
        # A last resort for a write that blocks on a server that no longer
        # reads: kill it a little after the deadline (the write then fails).
        self.watchdog = threading.Timer(
            max(deadline - time.monotonic(), 0) + 5, self.proc.kill)
        self.watchdog.daemon = True
        self.watchdog.start()
        self.next_id = 1
        self.messages = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        self.messages.put(None)
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                if length is None:
                    raise LspError("message without Content-Length")
                self.messages.put(json.loads(out.read(length)))
        except Exception as e:  # Reported by the waiting side.
            self.messages.put(e)

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body))
        self.proc.stdin.write(body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == rid and "method" not in m,
                          "the reply to " + method)
        if "error" in reply:
            raise LspError("%s failed: %s" % (method, reply["error"]))
        return reply.get("result")

    def wait(self, wanted, what):
        """Returns the first message for which wanted() holds, answering the
        server's own requests (with null) on the way."""
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise LspError("timed out waiting for " + what)
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                raise LspError("timed out waiting for " + what)
            if message is None:
                raise LspError("clangd closed its output while waiting for "
                               + what)
            if isinstance(message, Exception):
                raise LspError("unreadable message from clangd: %s" % message)
            if "method" in message and "id" in message:
                # window/workDoneProgress/create and the like.
                self.send({"id": message["id"], "result": None})
                continue
            if wanted(message):
                return message


def position(p):
    return "%d:%d" % (p["line"] + 1, p["character"] + 1)


def span(r):
    return "%s-%s" % (position(r["start"]), position(r["end"]))


SEVERITY = {1: "error", 2: "warning", 3: "info", 4: "hint"}


def apply_edits(text, edits):
    """Applies LSP TextEdits (UTF-16 columns; the inputs are ASCII)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(p):
        return offsets[p["line"]] + p["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]),
                       reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clangd", required=True, help="the server binary")
    parser.add_argument("--root", required=True,
                        help="project directory to create (emptied first)")
    parser.add_argument("--source", required=True,
                        help="file to copy into the project and open")
    parser.add_argument("--flags",
                        help="compile flags (shell words) for compile_flags.txt")
    parser.add_argument("--tidy-checks",
                        help="Checks: of the project's .clang-tidy")
    parser.add_argument("--existing", action="store_true",
                        help="--root is an existing project (a CMake build "
                        "with compile_commands.json) and --source a file in "
                        "it: nothing is copied or written but .clang-tidy")
    parser.add_argument("--show-href", action="store_true",
                        help="print each diagnostic's codeDescription.href")
    parser.add_argument("--cwd", required=True,
                        help="working directory of clangd (not the project)")
    parser.add_argument("--timeout", type=float, default=60,
                        help="seconds for the whole session")
    parser.add_argument("--log", help="file for clangd's stderr")
    parser.add_argument("--then", action="append", default=[],
                        metavar="COMMAND",
                        help="after the diagnostics, run this shell command "
                        "(re-configure the project), wait --then-wait "
                        "seconds, edit the file (a newline at its end) and "
                        "print the diagnostics of the re-check after "
                        "'recheck N'; repeatable")
    parser.add_argument("--then-wait", type=float, default=6,
                        help="seconds between a --then command and the edit "
                        "(clangd looks at a compile_commands.json again "
                        "when it is 5 s old)")
    parser.add_argument("--append", action="append", default=[],
                        metavar="FILE",
                        help="after the diagnostics (and the --then steps), "
                        "edit the file: append FILE's text, print the "
                        "diagnostics of the re-check after 'edit N'; "
                        "repeatable")
    parser.add_argument("clangd_args", nargs="*",
                        help="extra clangd arguments (after --)")
    args = parser.parse_args()

    root = os.path.abspath(args.root)
    os.makedirs(args.cwd, exist_ok=True)
    if args.existing:
        source = os.path.abspath(args.source)
    else:
        if args.flags is None or args.tidy_checks is None:
            parser.error("--flags and --tidy-checks lay out a new project")
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        source = os.path.join(root, os.path.basename(args.source))
        shutil.copyfile(args.source, source)
        with open(os.path.join(root, "compile_flags.txt"), "w") as f:
            f.write("\n".join(shlex.split(args.flags)) + "\n")
    if args.tidy_checks is not None:
        with open(os.path.join(root, ".clang-tidy"), "w") as f:
            f.write("Checks: '%s'\n" % args.tidy_checks)
    with open(source) as f:
        text = f.read()

    # Nothing from the machine: no user config.yaml, no CLANGD_FLAGS.
    env = dict(os.environ)
    env.pop("CLANGD_FLAGS", None)
    env["XDG_CONFIG_HOME"] = os.path.join(root, ".no-user-config")
    argv = [os.path.abspath(args.clangd), "--background-index=false",
            "--log=verbose"] + args.clangd_args
    log = open(args.log, "w") if args.log else subprocess.DEVNULL
    server = Server(argv, os.path.abspath(args.cwd), env, log,
                    time.monotonic() + args.timeout)
    try:
        appends = []
        for name in args.append:
            with open(name) as f:
                appends.append(f.read())
        run(server, source, text, args.show_href, args.then, args.then_wait,
            appends)
    except (LspError, OSError) as e:
        print("error: %s" % e, flush=True)
        server.proc.kill()
        server.proc.wait()
        return 1
    return 0


def print_diagnostics(server, uri, version, show_href, settle=False):
    """Waits for the diagnostics of the file's version, prints them and
    returns them sorted. settle: the last diagnostics of the version before
    clangd is idle (a changed compile command gives first those of the AST
    on the old preamble, then those on the new one)."""
    published = server.wait(
        lambda m: m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == uri
        and m["params"].get("version") == version,
        "publishDiagnostics")
    # Settled: a publication of the version, then clangd idle with no
    # preamble built in between ("parsing includes").
    clean = True
    while settle:
        m = server.wait(
            lambda m: m.get("params", {}).get("uri") == uri and m.get(
                "method") in ("textDocument/publishDiagnostics",
                              "textDocument/clangd.fileStatus"),
            "clangd to be idle")
        if m["method"] == "textDocument/publishDiagnostics":
            if m["params"].get("version") == version:
                published, clean = m, True
        elif "parsing includes" in m["params"].get("state", ""):
            clean = False
        elif m["params"].get("state") == "idle" and clean:
            break
    diagnostics = sorted(published["params"]["diagnostics"],
                         key=lambda d: (d["range"]["start"]["line"],
                                        d["range"]["start"]["character"]))
    for d in diagnostics:
        print("diag %s %s %s: %s" % (
            span(d["range"]), SEVERITY.get(d.get("severity"), "?"),
            d.get("code", d.get("source", "")),
            d["message"].splitlines()[0]), flush=True)
        if show_href and "codeDescription" in d:
            print("  href %s" % d["codeDescription"]["href"], flush=True)
        for related in d.get("relatedInformation", []):
            print("  note %s: %s" % (span(related["location"]["range"]),
                                      related["message"]), flush=True)
    return diagnostics


def run(server, source, text, show_href=False, then=(), then_wait=6,
        appends=()):
    uri = "file://" + source
    server.request("initialize", {
        "processId": os.getpid(),
        "initializationOptions": {"clangdFileStatus": True},
        "rootUri": "file://" + os.path.dirname(source),
        "capabilities": {
            "textDocument": {
                "publishDiagnostics": {"relatedInformation": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix", "refactor"]}}},
            },
        },
    })
    server.notify("initialized", {})
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "cuda", "version": 1, "text": text}})

    diagnostics = print_diagnostics(server, uri, 1, show_href)

    # The fixes clangd offers for each clang-tidy diagnostic.
    for d in diagnostics:
        if d.get("source") != "clang-tidy":
            continue
        actions = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri},
            "range": d["range"],
            "context": {"diagnostics": [d]},
        }) or []
        print("actions for %s %s: %d quickfix" % (
            span(d["range"]), d.get("code"),
            sum(a.get("kind") == "quickfix" for a in actions)), flush=True)
        for a in actions:
            if a.get("kind") != "quickfix":
                continue
            edits = a.get("edit", {}).get("changes", {}).get(uri, [])
            for change in a.get("edit", {}).get("documentChanges", []):
                if change["textDocument"]["uri"] == uri:
                    edits += change["edits"]
            for e in edits:
                print('  fix "%s" %s -> "%s"' % (a["title"], span(e["range"]),
                                                  e["newText"]), flush=True)
            before = text.split("\n")
            after = apply_edits(text, edits).split("\n")
            for n, line in enumerate(after):
                if n >= len(before) or line != before[n]:
                    print("  fixed %d: %s" % (n + 1, line.strip()), flush=True)

    # Re-configurations: each followed by an edit, as a user would make, so
    # that clangd asks for the file's compile command again.
    for n, command in enumerate(then, start=2):
        subprocess.run(command, shell=True, check=True)
        time.sleep(then_wait)
        text += "\n"
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": n},
            "contentChanges": [{"text": text}]})
        print("recheck %d" % (n - 1), flush=True)
        print_diagnostics(server, uri, n, show_href, settle=True)

    # Edits that add code, as a user types it.
    version = len(then) + 1
    for n, added in enumerate(appends, start=1):
        version += 1
        text += added
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]})
        print("edit %d" % n, flush=True)
        print_diagnostics(server, uri, version, show_href, settle=True)

    server.request("shutdown", None)
    server.notify("exit", None)
    left = max(server.deadline - time.monotonic(), 0.1)
    try:
        code = server.proc.wait(timeout=left)
    except subprocess.TimeoutExpired:
        raise LspError("clangd did not exit after shutdown/exit")
    server.watchdog.cancel()
    print("exit %d" % code, flush=True)


if __name__ == "__main__":
    sys.exit(main())

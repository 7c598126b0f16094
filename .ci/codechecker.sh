#!/usr/bin/env bash
# The path from tma-tidy to a CodeChecker server (docs/large-codebases.md),
# end to end: tma-tidy over a CMake + nvcc project (every CUDA pass),
# report-converter into CodeChecker's format, `CodeChecker store` into a
# server started here (SQLite, localhost only, stopped at the end), and
# `CodeChecker cmd results`, which must return every tma- report tma-tidy
# printed, with its check, its rule id and the severity of
# contrib/codechecker/clang-tidy-tma.json.
#
# usage: .ci/codechecker.sh [BUILD]       (default build/; needs BUILD/bin/tma-tidy)
# env:   CC_VENV=build/codechecker-venv    the virtual environment CodeChecker
#        is installed into from PyPI (reused when it has the pinned version)
#        CC_VERSION=6.29.1                 CodeChecker's version
#        CC_TIMEOUT=120                    seconds each server step may take
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
tidy="$build/bin/tma-tidy"
venv="${CC_VENV:-$build/codechecker-venv}"
version="${CC_VERSION:-6.29.1}"
timeout_s="${CC_TIMEOUT:-120}"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
[[ -x $tidy ]] || { echo "codechecker.sh: no $tidy (build first)" >&2; exit 1; }
[[ -x $nvcc ]] || { echo "codechecker.sh: no nvcc at $nvcc" >&2; exit 1; }

# CodeChecker from PyPI, in its own virtual environment (about 350 MB; its
# dependencies are wheels, CodeChecker itself a source package with no
# compiled part).
installed=$("$venv/bin/python3" -c 'import importlib.metadata as m; print(m.version("codechecker"))' 2>/dev/null || true)
if [[ $installed != "$version" ]]; then
  if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get install -y -qq python3-venv >/dev/null
  fi
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --prefer-binary \
    "codechecker==$version"
fi
python3 "$root/contrib/codechecker/labels.py" check
python3 "$root/contrib/codechecker/labels.py" install "$venv"
cc="$venv/bin/CodeChecker"

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    timeout 30 "$cc" server --stop --port "$port" --workspace "$work/ws" \
      >/dev/null 2>&1 || kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The project, configured with nvcc (its compile database is nvcc's).
project="$root/contrib/codechecker/project"
cmake -S "$project" -B "$work/build" -G Ninja \
  -DCMAKE_CUDA_COMPILER="$nvcc" >"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; exit 1; }
"$tidy" -p "$work/build" --checks='-*,tma-*' "$project"/src/*.cu \
  >"$work/tidy.out" 2>"$work/tidy.err" || true
grep -E '^/.*: warning: .*\[tma-' "$work/tidy.out" >"$work/expected" || true
expected=$(wc -l <"$work/expected")
[[ $expected -ge 4 ]] ||
  { cat "$work/tidy.out" "$work/tidy.err"; echo "codechecker.sh: tma-tidy found $expected reports, want >= 4"; exit 1; }

"$venv/bin/report-converter" -t clang-tidy -o "$work/reports" "$work/tidy.out" \
  >"$work/convert.log" 2>&1 || { cat "$work/convert.log"; exit 1; }

# A server of its own: SQLite, localhost, a free port.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/ws"
"$cc" server --workspace "$work/ws" --sqlite "$work/ws/results.sqlite" \
  --host localhost --port "$port" >"$work/server.log" 2>&1 &
server_pid=$!
url="http://localhost:$port/Default"
deadline=$((SECONDS + timeout_s))
until "$cc" cmd runs --url "$url" >/dev/null 2>&1; do
  if ! kill -0 "$server_pid" 2>/dev/null || ((SECONDS > deadline)); then
    cat "$work/server.log"; echo "codechecker.sh: the server did not start"; exit 1
  fi
  sleep 1
done

timeout "$timeout_s" "$cc" store "$work/reports" --name tma-ci --url "$url" \
  >"$work/store.log" 2>&1 || { cat "$work/store.log"; exit 1; }
timeout "$timeout_s" "$cc" cmd results tma-ci --url "$url" -o json \
  >"$work/results.json" 2>"$work/results.err" ||
  { cat "$work/results.err"; exit 1; }

python3 - "$work/expected" "$work/results.json" \
  "$root/contrib/codechecker/clang-tidy-tma.json" <<'PY'
import json, re, sys
expected_lines = open(sys.argv[1]).read().splitlines()
results = json.load(open(sys.argv[2]))
labels = json.load(open(sys.argv[3]))["labels"]
# CodeChecker's JSON names severities by number (ttypes.Severity).
names = {0: "UNSPECIFIED", 10: "STYLE", 20: "LOW", 30: "MEDIUM", 40: "HIGH",
         50: "CRITICAL"}
line_re = re.compile(r"^(.*?):(\d+):(\d+): warning: (.*) \((\S+)\) \[(tma-[a-z-]+)\]$")
got = {}
for r in results:
    key = (r["checkedFile"], int(r["line"]), r["checkerId"])
    got.setdefault(key, []).append(r)
failed = 0
for line in expected_lines:
    m = line_re.match(line)
    if not m:
        print("unparsed tma-tidy line:", line); failed += 1; continue
    path, ln, _, _, rule, check = m.groups()
    rs = got.get((path, int(ln), check), [])
    want = next(l.split(":", 1)[1] for l in labels[check] if l.startswith("severity:"))
    ok = [r for r in rs if rule in r["checkerMsg"]
          and names.get(r["severity"], r["severity"]) == want]
    status = "ok" if ok else "MISSING"
    failed += not ok
    sev = names.get(rs[0]["severity"], rs[0]["severity"]) if rs else "-"
    print(f"{status:8} {check:26} {rule:28} {sev:8} {path.split('/')[-1]}:{ln}")
extra = len(results) - len(expected_lines)
if extra:
    print(f"{extra} result(s) on the server that tma-tidy did not print"); failed += 1
if failed:
    sys.exit(f"codechecker.sh: {failed} problem(s)")
print(f"codechecker.sh: {len(expected_lines)} tma- reports stored and returned "
      "with their rule ids and severities")
PY

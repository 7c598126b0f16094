#!/usr/bin/env bash
# Which kernels of the real-code corpus have an ordering model, and why the
# others have none (issue 24 item 5).
#
# usage: bench/realcode/model-coverage.sh [--run] OUT [PLUGIN] [REALCODE]
#   --run   first run run.sh into OUT with tma-ordering.ExplainModel (the
#           bench/mutate config: ~20-40 min with JOBS=1 under load)
#   OUT     a run.sh output directory made with that config
#
# Prints, per manifest TU, its kernels ('model: kernel' lines): those with a
# model and those without; then per kernel (its definition, over the passes
# of the manifest) and per TU one cause:
#   modelled          the TU gives at least one kernel a model
#   pass              no kernel of the TU has a model, but one of them has
#                     one in the other pass of the same file (the copies sit
#                     under `#if __CUDA_ARCH__`: host passes)
#   other TU          none here, but one of its kernels has a model in
#                     another TU of the same pass
#   host pass only    none, and the manifest has no device pass of the file
#                     (what the device pass would see is not measured)
#   no copy in reach  kernels, none with a model in any pass run: they
#                     issue no TMA or bulk copy the model recognises
#                     (plain kernels, or wrappers it does not know)
#   no kernel         no kernel is instantiated in the TU (templates only a
#                     JIT host or another TU instantiates, headers as TUs)
# and the TUs the mutation bench (bench/mutate) leaves out (xfail ones with
# errors other than a lone % in inline PTX).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
RUN=0; [[ ${1:-} == --run ]] && { RUN=1; shift; }
OUT=${1:?usage: model-coverage.sh [--run] OUT [PLUGIN] [REALCODE]}
PLUGIN=${2:-/work/main/build/lib/TmaTidy.so}
REALCODE=${3:-/work/realcode}
if (( RUN )); then
  OUT=$OUT TIDY_ARGS=--config-file=$here/../mutate/config.yaml \
    "$here/run.sh" "$PLUGIN" "$REALCODE" >"$OUT.log" 2>&1 || true
fi
exec python3 - "$OUT" "$here/manifest.tsv" "$REALCODE" "$here/../mutate" <<'EOF'
import glob, os, re, sys
out, manifest, realcode, mutate_dir = sys.argv[1:5]
sys.path.insert(0, mutate_dir)
from mutate import analysable  # noqa: E402  (one truth: which xfail TUs it runs)

KERNEL = re.compile(r"^(/[^:]+):(\d+):(\d+): warning: model: kernel '([^']*)'(:| has no model)")
tus = []
with open(manifest) as f:
    for line in f:
        if not line.strip() or line.startswith('#'):
            continue
        c = line.rstrip('\n').split('\t')
        tus.append(dict(repo=c[0], path=c[1], pas=c[2], note=c[4] if len(c) > 4 else ''))
for n, t in enumerate(tus, 1):
    txt = glob.glob(os.path.join(out, '%d-*.txt' % n))
    t['n'], t['kernels'] = n, []
    t['ran'] = bool(txt)
    if not txt:
        continue
    seen = set()
    for line in open(txt[0], errors='replace'):
        m = KERNEL.match(line)
        if m:
            f, ln, col, name, kind = m.groups()
            key = (os.path.relpath(os.path.normpath(f), realcode), int(ln), name)
            if key not in seen:
                seen.add(key)
                t['kernels'].append((key, kind == ':'))

# A kernel (definition) has a model in some pass?
model_in = {}
for t in tus:
    for key, has in t['kernels']:
        model_in.setdefault(key, set())
        if has:
            model_in[key].add(t['pas'])

def cause(t):
    if not t['kernels']:
        return 'no kernel'
    if any(h for _, h in t['kernels']):
        return 'modelled'
    if any(model_in[k] - {t['pas']} for k, _ in t['kernels']):
        return 'pass'
    if any(model_in[k] for k, _ in t['kernels']):
        return 'other TU'
    if t['pas'] == 'host' and not any(u['path'] == t['path'] and u['pas'] == 'device' for u in tus):
        return 'host pass only'
    return 'no copy in reach'

print('%-4s %-17s %-6s %-5s %-5s %-16s %s' % ('n', 'repo', 'pass', 'kern', 'model', 'cause', 'TU'))
by = {}
for t in tus:
    if not t['ran']:
        continue
    c = cause(t)
    by.setdefault(c, []).append(t)
    k = len(t['kernels'])
    mo = sum(h for _, h in t['kernels'])
    flag = '' if analysable(t['note']) else '  [not in bench/mutate: xfail]'
    print('%-4d %-17s %-6s %-5d %-5d %-16s %s%s' % (t['n'], t['repo'], t['pas'], k, mo, c,
                                                os.path.basename(t['path']), flag))
    for key, has in t['kernels']:
        if not has:
            other = ' (model in the %s pass)' % '/'.join(sorted(model_in[key])) if model_in[key] else ''
            print('       no model: %s  %s:%d%s' % (key[2], key[0], key[1], other))
print()
print('TUs by cause (%d run):' % sum(len(v) for v in by.values()))
for c in ('modelled', 'pass', 'other TU', 'host pass only', 'no copy in reach', 'no kernel'):
    v = by.get(c, [])
    print('  %-16s %3d  %s' % (c, len(v), ' '.join(sorted({t['repo'] for t in v}))))
allk = {}
for t in tus:
    for key, _ in t['kernels']:
        allk[key] = model_in[key]
print('kernels (distinct definitions): %d, with a model in some pass: %d, only in the device pass: %d'
      % (len(allk), sum(1 for v in allk.values() if v),
         sum(1 for v in allk.values() if v == {'device'})))
EOF

#!/usr/bin/env python3
"""Mutation testing of tma-tidy on the real kernels of bench/realcode.

For every translation unit of bench/realcode/manifest.tsv that parses (no
xfail note, or one whose only errors leave the analysis whole), find the sites in the repository's own files it includes where a
mutation of mutations.py applies, plant that one bug in a copy of the file
(read by clang through --vfsoverlay; the corpus is never written), run the
checker on the TU and compare its tma- diagnostics with the original's.
Prints, per mutation kind (the rules that claim it) and repository: mutants,
detected, invalid (the mutant does not compile) and each missed one with a
reason. The originals' own tma- warnings are listed too (they must be the
reviewed baseline ones: an original is never mutated).

    bench/mutate/mutate.py [--plugin SO] [--repo RE] [--kind RE] [--per N | --all]
                           [--limit N] [--jobs N] [--list] [--out DIR]

Default: a sample of --per 1 site per (repository, kind), every repository.
"""
import argparse
import concurrent.futures as cf
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mutations as M  # noqa: E402

BENCH = os.path.join(os.path.dirname(HERE), 'realcode')
TIDY = os.environ.get('TIDY', '/usr/lib/llvm-22/bin/clang-tidy')
CLANG = os.environ.get('CLANG', '/usr/lib/llvm-22/bin/clang++')
BASE = ['-x', 'cuda', '--cuda-path=/usr/local/cuda', '-I/usr/local/cuda/include/cccl',
        '-Wno-unknown-cuda-version']
# Files of a repository that are someone else's library, not its kernels.
EXCLUDE = re.compile(r'/(3rdparty|third-party|third_party|_deps)/')
ONLY_UNDER = {'cutlass': '/examples/'}
DIAG = re.compile(r'^(/[^:]+):(\d+):(\d+): (warning|error|note): (.*?)(?: \[([\w.,-]+)\])?$')
NOT_A_FINDING = re.compile(r'^(coverage: |model: |silent: |encode call|explain|tensor copy .* reads)')
# How many more TUs that include a file are tried when the first reaches
# nothing in it (each is one more original run).
REACH_TRIES = 3
# The xfail reasons that leave the kernels' analysis whole, so the TU is
# checked like one that parses:
# - a lone `%` in inline PTX: clang keeps the asm statement in the AST and
#   tma-tidy analyses it and everything else (docs/nvcc-compat.md). In the
#   device pass this is what makes kernels that issue their copies through
#   `#if __CUDA_ARCH__` wrappers (TransformerEngine's ptx::) seen at all;
# - an error in the instantiation of a helper that only that helper's body
#   loses (DeepGEMM's `epilogue_type_t::apply_index_n<N>(...)` without
#   `template`: clang's instantiation of the function fails as a whole, the
#   kernel's own body is whole): the call is an opaque event of the model,
#   its rules stay silent across it (never a guess), and a site in that
#   helper has no event (unknowable). The note must say so in these words:
#   "only the helper's body is lost".
HARMLESS_XFAIL = re.compile(r"lone % in (inline )?asm|only the helper's body is lost")


def analysable(note):
    """Whether a TU with manifest note \\p note is checked: no xfail, or
    every `;`-separated reason of the xfail is a harmless one."""
    if not note.startswith('xfail'):
        return True
    return all(HARMLESS_XFAIL.search(r) for r in note[len('xfail'):].lstrip(':').split(';'))


def manifest(realcode):
    tus = []
    with open(os.path.join(BENCH, 'manifest.tsv')) as f:
        for n, line in enumerate(l for l in f if l.strip() and not l.startswith('#')):
            cols = line.rstrip('\n').split('\t')
            repo, path, pas, flags = cols[:4]
            note = cols[4] if len(cols) > 4 else ''
            root = os.path.join(realcode, repo)

            def exp(v):
                return (v.replace('${REPO}', root).replace('${TU}', os.path.join(BENCH, 'tu'))
                        .replace('${REALCODE}', realcode))
            path = exp(path)
            if not path.startswith('/'):
                path = os.path.join(root, path)
            tus.append(dict(n=n + 1, repo=repo, root=root, path=path, pas=pas,
                            flags=exp(flags).split(), xfail=not analysable(note),
                            key=hashlib.sha1(line.encode()).hexdigest()[:12]))
    return tus


def pass_flag(tu):
    return '--cuda-host-only' if tu['pas'] == 'host' else '--cuda-device-only'


def deps(tu, cache):
    """Files the TU includes (clang -MM), cached per manifest line."""
    cf_ = os.path.join(cache, tu['key'] + '.deps')
    if os.path.exists(cf_):
        # Once each: clang names one file by two spellings
        # (`tile/../../util/sync.cuh`, `../util/sync.cuh`), one real path.
        return list(dict.fromkeys(open(cf_).read().split('\n')))
    cmd = [CLANG] + BASE + [pass_flag(tu)] + tu['flags'] + ['-MM', '-MG', tu['path']]
    r = subprocess.run(['nice', '-n', '10'] + cmd, cwd=tu['root'], capture_output=True, text=True)
    files = []
    for w in r.stdout.replace('\\\n', ' ').split()[1:]:
        p = os.path.realpath(os.path.join(tu['root'], w))
        if os.path.isfile(p) and p not in files:
            files.append(p)
    os.makedirs(cache, exist_ok=True)
    with open(cf_, 'w') as f:
        f.write('\n'.join(files))
    return files


def own_files(tu, files, realcode):
    root = os.path.realpath(tu['root']) + '/'
    out = []
    for p in files:
        if not p.startswith(root) or EXCLUDE.search(p[len(root) - 1:]):
            continue
        under = ONLY_UNDER.get(tu['repo'])
        if under and under not in p[len(root) - 1:]:
            continue
        out.append(p)
    return out


def run_tidy(tu, plugin, config, out_txt, overlay=None):
    cmd = [TIDY, '--load=' + plugin, '--checks=-*,tma-*', '--header-filter=.*',
           '--config-file=' + config]
    if overlay:
        cmd.append('--vfsoverlay=' + overlay)
    cmd += [tu['path'], '--'] + BASE + [pass_flag(tu)] + tu['flags']
    t0 = time.time()
    with open(out_txt, 'w') as f:
        r = subprocess.run(['nice', '-n', '10'] + cmd, cwd=tu['root'], stdout=f,
                           stderr=subprocess.STDOUT)
    return r.returncode, time.time() - t0


@functools.lru_cache(maxsize=None)
def real(path):
    """A diagnostic's file as deps() names it: clang writes the path it
    opened (`tile/../../util/sync.cuh`), the files to mutate are real paths."""
    return os.path.realpath(path)


def findings(txt):
    """(tma findings, clang errors, coverage notes, crashed) of one output."""
    tma, errs, cov = set(), set(), []
    text = open(txt, errors='replace').read()
    crashed = bool(re.search(r'Stack dump|PLEASE submit a bug report|Segmentation fault', text))
    kernel, events = '?', {}
    for line in text.split('\n'):
        m = DIAG.match(line)
        if not m:
            continue
        f, ln, col, sev, msg, chk = m.groups()
        f = real(f)
        if sev == 'warning' and msg.startswith('model: kernel'):
            kernel = re.match(r"model: kernel '([^']*)'", msg).group(1)
            events = {}
        if sev == 'note':
            # ExplainModel: why a rule stayed silent on an event (the rules'
            # own reason, issue 28 item 1).
            q = SILENT.match(msg)
            if q:
                cov.append((f, int(ln), "model: silent: %s in '%s': %s" %
                            (q.group(1), kernel, q.group(2))))
                continue
            # ExplainModel: a note per event of the kernel above, and one at
            # the op of an event issued in a helper.
            # "through here": a helper's call on the way from the kernel
            # to the op (the kernel reaches the helper around it).
            e = re.match(r'model: event (\d+)(: .*| issued here| through here)$', msg)
            if e and e.group(2) == ' through here':
                cov.append((f, int(ln), "model: event of '%s': %s (through this call)" %
                            (kernel, events.get(e.group(1), '?'))))
            elif e and e.group(2) != ' issued here':
                events[e.group(1)] = e.group(2)[2:]
                cov.append((f, int(ln), "model: event of '%s': %s" % (kernel, events[e.group(1)])))
            elif e:
                cov.append((f, int(ln), "model: event of '%s': %s (issued in a helper)" %
                            (kernel, events.get(e.group(1), '?'))))
            continue
        if chk and chk.startswith('tma-'):
            if NOT_A_FINDING.match(msg):
                cov.append((f, int(ln), msg))
            else:
                tma.add((f, int(ln), sev, msg, chk))
        elif sev == 'error':
            errs.add((f, int(ln), msg))
    return tma, errs, cov, crashed


SILENT = re.compile(r"model: silent: ([A-Z0-9-]+) on event \d+(?: \('[^']*'\))?: (.*)$")


def silences(kind, p, s, cov):
    """The mutant's own silence notes (tma-ordering.ExplainModel) of the
    rules that claim the kind, in the mutated file, nearest the site first:
    why each rule that should have noticed the bug did not."""
    claimed = set(M.KIND[kind].rules.split())
    out = []
    for f, ln, m in cov:
        q = re.match(r"model: silent: (\S+) in '[^']*': (.*)$", m)
        if q and q.group(1) in claimed:
            out.append((f != p, abs(ln - s.line), ln, '%s at line %d: %s' % (q.group(1), ln, q.group(2))))
    seen, res = set(), []
    for _, _, _, text in sorted(out):
        key = text.split(': ', 1)[0].split(' at line')[0] + text.split(': ', 1)[1]
        if key not in seen:
            seen.add(key)
            res.append(text)
    return res[:2]


def rule_ids(msg):
    return re.findall(r'\(([A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+)\)', msg)


# The checker's own note that explains a silence, per mutation kind: the
# expect-tx CoverageReport says why a count was not proven. Other kinds have
# no per-site explanation yet (issue 28 item 1).
EXPLAINED_BY = {'expect-tx-count': 'coverage: expect-tx'}


# What is known about a kind's silence without the checker's word: an
# option that is off by default.
KIND_NOTE = {'drop-wait-group': 'tma-ordering.WaitBeforeExit is off: a copy not waited for before '
                                'the kernel exits is not reported, only one whose source is overwritten',
             'deepen-wait-group': 'tma-ordering.WaitBeforeExit is off (see drop-wait-group)'}


# A wait-group mutant that only lets the kernel exit while a store may still
# read shared memory: tma-ordering reports that with WaitBeforeExit, off by
# default because tma-rules.md marks the outcome UNCONFIRMED. Such a mutant
# is run again with the option; if the option's exit finding is all it adds,
# it is 'option' (no bug the default configuration claims: out of the
# knowable rate, listed apart), otherwise it stays missed.
WAIT_GROUP = {'drop-wait-group', 'deepen-wait-group'}
EXIT_FINDING = 'but the kernel can exit after it with no cp.async.bulk.wait_group.read'


def exit_config(out, config):
    """config plus tma-ordering.WaitBeforeExit, written into out."""
    path = os.path.join(out, 'config-exit.yaml')
    with open(path, 'w') as f:
        f.write(open(config).read().rstrip('\n') + '\n  tma-ordering.WaitBeforeExit: true\n')
    return path


def exit_only(orig_exit, mutant_exit):
    """Whether the findings the mutant adds under WaitBeforeExit are all
    exit findings (and there is at least one)."""
    new = mutant_exit - orig_exit
    return bool(new) and all(EXIT_FINDING in m for _, _, _, m, _ in new)


# Whether the plugin has tma-ordering's ExplainModel (older ones do not: then
# the absence of model notes says nothing).
EXPLAIN_MODEL = False


def implemented(plugin):
    """The claimed rule ids whose name the plugin holds (a rule the plugin
    cannot report explains every miss of its kind)."""
    data = open(plugin, 'rb').read()
    return {r for k in M.KINDS for r in k.rules.split() if r.encode() in data}


ORDERING = {'drop-proxy-fence', 'drop-wait-group', 'deepen-wait-group', 'drop-init-sync',
            'drop-init', 'drop-wait', 'flip-parity'}


EVENT = re.compile(r"event of '([^']*)': (mbarrier \w+) on '([^']*)'")


def barrier_names(ev, orig_cov, kind):
    """Why an init has no use in the model: the kernel's barriers are named
    by expression, and the names at init and at use differ (`full[i]` in the
    init loop, `full[qidx]` at the wait)."""
    kernels = {m.group(1) for m in (re.match(r"event of '([^']*)'", e) for e in ev) if m}
    out = []
    for k in sorted(kernels):
        inits, uses, unguarded = set(), set(), set()
        for _, _, msg in orig_cov:
            m = EVENT.search(msg)
            if m and m.group(1) == k:
                (inits if m.group(2) == 'mbarrier init' else uses).add(m.group(3))
                if m.group(2) != 'mbarrier init' and 'under a condition' not in msg:
                    unguarded.add(m.group(3))
        if inits and uses and not inits & uses:
            out.append("in '%s' the model names barriers differently at init (%s) and at use (%s): "
                       "an index it does not track, no init-use pair" %
                       (k, ', '.join(sorted(inits)[:3]), ', '.join(sorted(uses)[:3])))
        elif kind == 'drop-init-sync' and inits & uses and not inits & unguarded:
            out.append("in '%s' every use of %s runs under a condition (MBAR-INIT-VISIBLE reports "
                       "a use by all threads only)" % (k, ', '.join(sorted(inits & uses)[:3])))
    return '; '.join(out)


def value_silences(kind, s, cov):
    """The mutant's `silent:` warnings (tma-bulk-copy.ExplainSilence) of the
    rules that claim the kind: those naming the variable the mutated line
    declares first, two at most."""
    claimed = set(M.KIND[kind].rules.split())
    m = re.search(r'(\w+)\s*(?:\[[^\]]*\]\s*)*(?:__attribute__.*)?;', s.snippet)
    var = m.group(1) if m else None
    out = []
    for f, ln, msg in cov:
        q = re.match(r'silent: ([A-Z0-9, -]+?): (.*)$', msg)
        if q and claimed & set(q.group(1).replace(',', ' ').split()):
            out.append((not (var and "'%s'" % var in msg), '%s at %s:%d: %s' %
                        (q.group(1), os.path.basename(f), ln, q.group(2))))
    seen, res = set(), []
    for _, text in sorted(out):
        key = text.split(': ', 1)[1] if ': ' in text else text
        if key not in seen:
            seen.add(key)
            res.append(text)
    return res[:2]


CALLER = re.compile(r'first call: line (\d+) of ([^)\s]+)\)')


def at_callers(msg, cov, depth=3):
    """A helper's phase on its callers' barrier is judged in the caller's
    phase (tma-expect-tx names the first call): that phase's silence, the
    fact missing there, following the helpers up to \p depth calls."""
    m = CALLER.search(msg)
    if not m or depth == 0:
        return ''
    line, name = int(m.group(1)), m.group(2)
    for f, ln, text in cov:
        if ln == line and os.path.basename(f) == name and text.startswith('silent: MBAR-TX'):
            return ' | at the call (%s:%d): %s%s' % (name, line, text, at_callers(text, cov, depth - 1))
    return ''


def reason(kind, p, s, cov, rel, rules_in_plugin, orig_cov=()):
    claimed = M.KIND[kind].rules.split()
    if not set(claimed) & rules_in_plugin:
        return 'no rule of this plugin implements %s' % ' / '.join(claimed)
    if kind == 'lower-alignas':
        sil = value_silences(kind, s, cov)
        if sil:
            return 'silent: ' + ' | '.join(sil)
    if kind == 'expect-tx-count':
        # tma-expect-tx.ExplainSilence at the expect-tx: the missing fact.
        near = sorted((abs(ln - s.line), m) for f, ln, m in cov
                      if f == p and abs(ln - s.line) <= 2 and m.startswith('silent: MBAR-TX'))
        if near:
            return near[0][1] + at_callers(near[0][1], cov)
    pre = EXPLAINED_BY.get(kind)
    near = sorted((abs(ln - s.line), m) for f, ln, m in cov
                  if pre and f == p and abs(ln - s.line) <= 2 and m.startswith(pre))
    if near:
        return 'checker: ' + near[0][1][len('coverage: '):]
    if kind in ORDERING:
        # The claiming rules' own reasons in the mutant's output.
        sil = silences(kind, p, s, cov)
        if sil:
            return 'silent: ' + ' | '.join(sil)
        # ExplainModel notes of the original: the events on the site's lines.
        lines = range(s.line, s.line + s.snippet_lines)
        ev = [m[len('model: '):] for f, ln, m in orig_cov
              if f == p and ln in lines and m.startswith('model: event')]
        none = sorted({m for f, ln, m in orig_cov if 'has no model' in m})
        why = ''
        if ev:
            why = 'the model saw it (%s); no rule reported its change' % '; '.join(sorted(set(ev))[:3])
            split = barrier_names(ev, orig_cov, kind) if kind in ('drop-init', 'drop-init-sync') else ''
            if split:
                why += '; ' + split
        elif any(m.startswith('model: ') for _, _, m in orig_cov):
            why = 'the site is no event of any kernel model of the TU' + (
                ' (%d kernel(s) without a model)' % len(none) if none else '')
        elif EXPLAIN_MODEL:
            why = ('no kernel of the TU has an ordering model (no kernel instantiated, or '
                   'none issues a TMA or bulk copy)')
        if why:
            return why + ('; ' + KIND_NOTE[kind] if kind in KIND_NOTE else '')
    if kind in KIND_NOTE:
        return KIND_NOTE[kind]
    return 'no rule fired, no explanation from the checker (%s at %s:%d)' % (kind, rel(p), s.line)


def unreached(p, orig_cov, line=None):
    """Why a missed mutant's bug is not knowable in its TU, or None: the
    original's output has no kernel-model event and no analysed op
    (ExplainModel / CoverageReport notes) anywhere in the mutated file, or
    in the function around the mutated \\p line: the TU instantiates or
    calls no code there that the checker sees (a template nobody
    instantiates in this TU, a helper no kernel calls, a pass that compiles
    the code out with `#if __CUDA_ARCH__`). A function the scan cannot
    delimit is judged with its file (the denominator errs towards
    knowable)."""
    if not EXPLAIN_MODEL:
        return None
    def seen(lo=1, hi=None):
        return any(f == p and lo <= ln and (hi is None or ln <= hi) and
                   (m.startswith('model: event') or
                    (m.startswith('coverage: ') and not HELPER_ONLY.search(m)))
                   for f, ln, m in orig_cov)
    if not seen():
        return ('not knowable in this TU: no kernel model event and no analysed op of the TU '
                'lies in this file (nothing there is instantiated for the checker)')
    fn = M.enclosing_function(open(p, errors='replace').read(), line) if line else None
    if fn and not seen(*fn):
        return ('not knowable in this TU: no kernel model event and no analysed op of the TU '
                'lies in the function around it (lines %d-%d): no kernel of the TU reaches it'
                % fn)
    return None


DISCARDED = re.compile(r'model: discarded: the `if constexpr` branch at (\d+):(\d+)-(\d+):(\d+) '
                       r'(?:.*; the statement from (\d+):(\d+) has no other branch)?')


def offset(text, line, col):
    """The offset in \\p text of clang's 1-based \\p line and byte column."""
    start = 0
    for _ in range(line - 1):
        start = text.index('\n', start) + 1
    end = text.find('\n', start)
    row = text[start:end if end >= 0 else len(text)]
    return start + len(row.encode()[:col - 1].decode(errors='replace'))


def discarded(p, s, orig_cov):
    """Why the mutant \\p s changes nothing its TU compiles, or None: its
    span lies inside an `if constexpr` branch that every resolution of the
    statement in the TU drops (tma-ordering.ExplainModel's `model:
    discarded` warnings of the original; a branch of one statement alone
    also covers the `;` after it), or it removes the whole statement of
    such a branch when the statement has no other branch (not an edit of
    its condition alone: that could keep the branch)."""
    text = None
    for f, ln, m in orig_cov:
        q = DISCARDED.match(m)
        first = int(q.group(5) or q.group(1)) if q else 0
        if f != p or not q or not first <= s.line <= int(q.group(3)):
            continue
        text = text or open(p, errors='replace').read()
        b = offset(text, int(q.group(1)), int(q.group(2)))
        e0 = e = offset(text, int(q.group(3)), int(q.group(4)))
        semi = re.match(r'[ \t]*;', text[e:])
        if semi:
            e += semi.end()
        whole = q.group(5) and s.start == offset(text, int(q.group(5)), int(q.group(6))) \
            and e0 <= s.end <= e
        if (b <= s.start and s.end <= e) or whole:
            return ('equivalent in this TU: inside the `if constexpr` branch at lines %s-%s, which '
                    'every instantiation of the TU drops (nothing it compiles changes)'
                    % (q.group(1), q.group(3)))
    return None


# Coverage notes that a helper's op gives whether or not a kernel reaches
# it: no context of a caller folds its operand, it has none, or its barrier
# is a parameter. A file with only these (and no model event) is a library
# that no kernel of the TU calls.
HELPER_ONLY = re.compile(r'folded in 0 of \d+ context|no value operand|'
                         r'a barrier of the callers of this helper')


def names_call(path, name):
    """Whether the source file \\p path writes a call of \\p name
    (`name(`, `name<...>(`, qualified or a member)."""
    try:
        text = open(path, errors='replace').read()
    except OSError:
        return False
    return re.search(r'(?<![\w~])%s\s*(<[^;{}()]*>)?\s*\(' % re.escape(name), text) is not None


def retries(p, line, first, cands):
    """The TUs that include \\p p to try after \\p first reaches nothing at
    \\p line: every one whose own source (the manifest's path) calls the
    function around the line by name, then at most REACH_TRIES more, each
    group in the candidates' order (device pass, smallest)."""
    fn = M.enclosing_function(open(p, errors='replace').read(), line, named=True)
    rest = [u for _, u in sorted(cands, key=lambda x: x[0]) if u['n'] != first['n']]
    if not fn or not fn[2]:
        return rest[:REACH_TRIES]
    calling = [u for u in rest if names_call(u['path'], fn[2])]
    return calling + [u for u in rest if u not in calling][:REACH_TRIES]


def sample(sites, per):
    if per <= 0 or len(sites) <= per:
        return sites
    step = len(sites) / per
    return [sites[int(i * step)] for i in range(per)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--plugin', default='/work/main/build/lib/TmaTidy.so')
    ap.add_argument('--realcode', default=os.environ.get('REALCODE', '/work/realcode'))
    ap.add_argument('--out', default='/tmp/tma-mutate-out')
    ap.add_argument('--cache', default='/tmp/tma-mutate-cache', help='clang -MM results')
    ap.add_argument('--repo', default='.', help='regex on the repository name')
    ap.add_argument('--kind', default='.', help='regex on the mutation kind')
    ap.add_argument('--file', default='.', help='regex on the mutated file path')
    ap.add_argument('--per', type=int, default=1, help='sites per (repository, kind); 0 = all')
    ap.add_argument('--all', action='store_true', help='every site (same as --per 0)')
    ap.add_argument('--limit', type=int, default=0, help='at most N mutants in all')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--list', action='store_true', help='list the sites, run nothing')
    ap.add_argument('--config', default=os.path.join(HERE, 'config.yaml'))
    ap.add_argument('--rereport', metavar='DIR',
                    help='recompute the reasons and the report of an earlier run in DIR, run nothing')
    a = ap.parse_args()
    if a.rereport:
        return rereport(a)
    per = 0 if a.all else a.per
    kinds = {k.name for k in M.KINDS if re.search(a.kind, k.name)}

    tus = [t for t in manifest(a.realcode) if re.search(a.repo, t['repo'])
           and not t['xfail'] and os.path.isdir(t['root'])]
    # file -> the TUs that include it, best first: the device pass, then the
    # smallest TU. The first checks it unless it reaches nothing there (below).
    cands = {}
    for t in tus:
        fs = deps(t, a.cache)
        for p in own_files(t, fs, a.realcode):
            cands.setdefault(p, []).append(((t['pas'] != 'device', len(fs), t['n']), t))
    by_file = {p: sorted(c, key=lambda x: x[0])[0] for p, c in cands.items()}
    plan = []
    for p, (_, t) in sorted(by_file.items()):
        if not re.search(a.file, p):
            continue
        text = open(p, errors='replace').read()
        for s in M.sites(text, kinds):
            plan.append((t['repo'], s.kind, p, s, t))
    groups = {}
    for item in plan:
        groups.setdefault((item[0], item[1]), []).append(item)
    chosen = []
    for key in sorted(groups):
        chosen += sample(groups[key], per)
    if a.limit:
        chosen = sample(chosen, a.limit)
    rel = lambda p: os.path.relpath(p, a.realcode)  # noqa: E731
    print('sites: %d over %d files of %d TUs; mutants to run: %d' %
          (len(plan), len(by_file), len(tus), len(chosen)), flush=True)
    if a.list:
        for repo, kind, p, s, t in chosen:
            print('%-18s %-12s %s:%d  %s   [TU %d %s %s]' % (kind, repo, rel(p), s.line, s.snippet,
                                                          t['n'], os.path.basename(t['path']), t['pas']))
        return 0

    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(os.path.join(a.out, 'orig'))
    plugin = os.path.join(a.out, 'plugin.so')
    shutil.copy(a.plugin, plugin)
    rules_in_plugin = implemented(plugin)
    global EXPLAIN_MODEL
    EXPLAIN_MODEL = b'ExplainModel' in open(plugin, 'rb').read()
    with open(os.path.join(a.out, 'command.txt'), 'w') as f:
        f.write(' '.join(sys.argv) + '\nplugin: %s\n' % os.path.realpath(a.plugin))

    # Originals first (each TU once).
    orig = {}
    need = sorted({t['n']: t for *_, t in chosen}.values(), key=lambda t: t['n'])

    def run_orig(t):
        txt = os.path.join(a.out, 'orig', '%d.txt' % t['n'])
        rc, secs = run_tidy(t, plugin, a.config, txt)
        return t['n'], findings(txt), secs

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for n, fnd, secs in ex.map(run_orig, need):
            orig[n] = fnd
            print('original TU %d: %d tma- warnings, %d clang errors%s (%.0fs)' %
                  (n, len(fnd[0]), len(fnd[1]), ', CRASH' if fnd[3] else '', secs), flush=True)

    # A site whose file (or function around it) the first TU reaches nothing
    # in (no model event, no analysed op: a library header it includes but no
    # kernel of it uses, e.g. ThunderKittens' ops through the smallest TU, b200
    # level_03.cu) is checked through the next TU that includes the file and
    # reaches the site's function, of at most REACH_TRIES more.
    if EXPLAIN_MODEL:
        for idx, (repo, kind, p, s, t) in enumerate(chosen):
            o = orig[t['n']][2]
            if s.equivalent or not (unreached(p, o, s.line) or discarded(p, s, o)):
                continue
            for u in retries(p, s.line, t, cands[p]):
                if u['n'] not in orig:
                    n, fnd, secs = run_orig(u)
                    orig[n] = fnd
                    need.append(u)
                    print('original TU %d: %d tma- warnings, %d clang errors%s (%.0fs)' %
                          (n, len(fnd[0]), len(fnd[1]), ', CRASH' if fnd[3] else '', secs),
                          flush=True)
                ou = orig[u['n']][2]
                if not unreached(p, ou, s.line) and discarded(p, s, ou) and \
                        unreached(p, chosen[idx][4] and orig[chosen[idx][4]['n']][2], s.line):
                    # Better than a TU that reaches nothing there: equivalent
                    # in a TU that compiles the function, unless a later
                    # TU keeps the branch.
                    chosen[idx] = (repo, kind, p, s, u)
                    continue
                if not unreached(p, ou, s.line) and not discarded(p, s, ou):
                    print('%s:%d: TU %d reaches nothing there or drops it; checked through TU %d' %
                          (rel(p), s.line, t['n'], u['n']), flush=True)
                    chosen[idx] = (repo, kind, p, s, u)
                    break
        need.sort(key=lambda t: t['n'])

    exit_cfg = exit_config(a.out, a.config)
    exit_orig, exit_lock = {}, threading.Lock()

    def orig_exit(t):
        # The original under WaitBeforeExit, once per TU.
        with exit_lock:
            if t['n'] not in exit_orig:
                txt = os.path.join(a.out, 'orig', '%d-exit.txt' % t['n'])
                run_tidy(t, plugin, exit_cfg, txt)
                exit_orig[t['n']] = findings(txt)[0]
            return exit_orig[t['n']]

    def run_mutant(i_item):
        i, (repo, kind, p, s, t) = i_item
        d = os.path.join(a.out, 'm%03d' % i)
        os.makedirs(d)
        dropped = discarded(p, s, orig[t['n']][2])
        if s.equivalent or dropped:
            # The edit plants no bug (or none the TU compiles): not run, in
            # no rate.
            res = dict(i=i, repo=repo, kind=kind, file=rel(p), line=s.line, snippet=s.snippet,
                       tu='%d %s %s' % (t['n'], os.path.basename(t['path']), t['pas']), secs=0,
                       status='equivalent', why=s.equivalent or dropped)
            with open(os.path.join(d, 'result.json'), 'w') as f:
                json.dump(res, f)
            return res
        text = open(p, errors='replace').read()
        mfile = os.path.join(d, os.path.basename(p))
        with open(mfile, 'w') as f:
            f.write(text[:s.start] + s.repl + text[s.end:])
        ov = os.path.join(d, 'overlay.yaml')
        with open(ov, 'w') as f:
            json.dump({'version': 0, 'use-external-names': False, 'roots': [
                {'name': os.path.dirname(p), 'type': 'directory', 'contents': [
                    {'name': os.path.basename(p), 'type': 'file', 'external-contents': mfile}]}]}, f)
        txt = os.path.join(d, 'out.txt')
        rc, secs = run_tidy(t, plugin, a.config, txt, ov)
        tma, errs, cov, crashed = findings(txt)
        o = orig[t['n']]
        new = sorted(tma - o[0])
        res = dict(i=i, repo=repo, kind=kind, file=rel(p), line=s.line, snippet=s.snippet,
                   tu='%d %s %s' % (t['n'], os.path.basename(t['path']), t['pas']), secs=round(secs))
        claimed = set(M.KIND[kind].rules.split())
        if crashed:
            res['status'] = 'crash'
        elif errs - o[1]:
            res['status'] = 'invalid'
            res['why'] = '; '.join('%s:%d: %s' % (rel(f), ln, m) for f, ln, m in sorted(errs - o[1])[:2])
        elif new:
            ids = sorted({r for x in new for r in rule_ids(x[3])})
            res['status'] = 'detected'
            res['rules'] = ids
            res['claimed'] = bool(claimed & set(ids))
            res['why'] = '; '.join('%s:%d: %s' % (rel(f), ln, m) for f, ln, _, m, _ in new[:2])
        else:
            res['status'] = 'missed'
            res['why'] = reason(kind, p, s, cov, rel, rules_in_plugin, o[2])
            u = unreached(p, o[2], s.line)
            if u:
                res['status'], res['why'] = 'unknowable', u + '; ' + res['why']
            elif kind in WAIT_GROUP:
                etxt = os.path.join(d, 'out-exit.txt')
                run_tidy(t, plugin, exit_cfg, etxt, ov)
                if exit_only(orig_exit(t), findings(etxt)[0]):
                    res['status'] = 'option'
                    res['why'] = ('only an exit with the store unwaited: reported with '
                                  'tma-ordering.WaitBeforeExit (off by default; tma-rules.md marks '
                                  'the outcome UNCONFIRMED)')
        with open(os.path.join(d, 'result.json'), 'w') as f:
            json.dump(res, f)
        return res

    results = []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(run_mutant, enumerate(chosen)):
            results.append(r)
            print('[%s] %s %s:%d (%ss)%s' % (r['status'], r['kind'], r['file'], r['line'], r['secs'],
                                             ('  ' + r['why'][:160]) if r.get('why') else ''), flush=True)
    report(results, orig, need, a, rel)
    return 0


def rereport(a):
    """The report of the run in a.rereport with this script's reasons (the
    checker's outputs are kept there; the sites are found again)."""
    global EXPLAIN_MODEL
    d = a.rereport
    plugin = os.path.join(d, 'plugin.so')
    rules_in_plugin = implemented(plugin)
    EXPLAIN_MODEL = b'ExplainModel' in open(plugin, 'rb').read()
    a.plugin = open(os.path.join(d, 'command.txt')).read().split('plugin: ')[-1].strip()
    a.out = d
    rel = lambda p: os.path.relpath(p, a.realcode)  # noqa: E731
    results = json.load(open(os.path.join(d, 'results.json')))
    tus = {t['n']: t for t in manifest(a.realcode)}
    orig = {}
    for r in results:
        n = int(r['tu'].split()[0])
        if n not in orig:
            orig[n] = findings(os.path.join(d, 'orig', '%d.txt' % n))
        if r['status'] not in ('missed', 'unknowable'):
            continue
        p = os.path.join(a.realcode, r['file'])
        site = [x for x in M.sites(open(p, errors='replace').read(), {r['kind']})
                if x.line == r['line'] and x.snippet == r['snippet']]
        if not site:
            # The rules of this script no longer plant a bug here.
            r['status'], r['why'] = 'equivalent', 'no longer a site of this kind'
        elif site[0].equivalent:
            r['status'], r['why'] = 'equivalent', site[0].equivalent
        elif discarded(p, site[0], orig[n][2]):
            r['status'], r['why'] = 'equivalent', discarded(p, site[0], orig[n][2])
        elif site:
            cov = findings(os.path.join(d, 'm%03d' % r['i'], 'out.txt'))[2]
            r['why'] = reason(r['kind'], p, site[0], cov, rel, rules_in_plugin, orig[n][2])
            u = unreached(p, orig[n][2], site[0].line)
            r['status'] = 'unknowable' if u else 'missed'
            if u:
                r['why'] = u + '; ' + r['why']
    need = [tus[n] for n in sorted(orig)]
    report(results, orig, need, a, rel)
    return 0


def row(kind, repo, rs):
    c = {s: sum(r['status'] == s for r in rs)
         for s in ('detected', 'invalid', 'missed', 'crash', 'unknowable', 'equivalent', 'option')}
    valid = len(rs) - c['invalid'] - c['crash'] - c['equivalent']
    know = valid - c['unknowable'] - c['option']
    return '%-20s %-18s %7d %8d %7d %7d %7d %7d %7d %6s %9s%s' % (
        kind, repo, len(rs), c['detected'], c['invalid'], c['equivalent'], c['unknowable'], c['option'],
        c['missed'],
        '%d%%' % (100 * c['detected'] // valid) if valid else '-',
        '%d%%' % (100 * c['detected'] // know) if know else '-',
        ('  crashes %d' % c['crash']) if c['crash'] else '')


def report(results, orig, need, a, rel):
    lines = ['', 'Mutation report (plugin %s)' % os.path.realpath(a.plugin), '']
    hdr = '%-20s %-18s %7s %8s %7s %7s %7s %7s %7s %6s %9s' % (
        'kind', 'repo', 'mutants', 'detected', 'invalid', 'equiv.', 'unknow.', 'option', 'missed', 'rate',
        'knowable')
    lines.append(hdr)
    keys = sorted({(r['kind'], r['repo']) for r in results})
    tot = {}
    for kind in [k.name for k in M.KINDS]:
        ks = [k for k in keys if k[0] == kind]
        if not ks:
            continue
        for key in ks + [(kind, '(all)')]:
            rs = [r for r in results if r['kind'] == kind and (key[1] == '(all)' or r['repo'] == key[1])]
            if key[1] == '(all)' and len(ks) == 1:
                continue
            lines.append(row(kind, key[1], rs))
    for repo in sorted({r['repo'] for r in results}) + ['(all)']:
        rs = [r for r in results if repo == '(all)' or r['repo'] == repo]
        tot[repo] = row('all kinds', repo, rs)
    lines += [tot[r] for r in sorted(tot)]
    lines += ['', 'Detected (rule ids reported; * = not one the kind claims):']
    for r in results:
        if r['status'] == 'detected':
            lines.append('  %-18s %s:%d  %s%s' % (r['kind'], r['file'], r['line'], ','.join(r['rules']) or '?',
                                                 '' if r['claimed'] else ' *'))
    lines += ['', 'rate = detected / (mutants - invalid - equivalent - crash); knowable = detected / '
              '(mutants - invalid - equivalent - crash - unknowable - option)']
    lines += ['', 'Missed, with the reason:']
    for r in results:
        if r['status'] == 'missed':
            lines.append('  %-18s %s:%d  `%s`  [TU %s]\n      %s' % (r['kind'], r['file'], r['line'],
                                                                 r['snippet'], r['tu'], r['why']))
    lines += ['', 'Not knowable in their TU (left out of the knowable rate):']
    for r in results:
        if r['status'] == 'unknowable':
            lines.append('  %-18s %s:%d  `%s`  [TU %s]\n      %s' % (r['kind'], r['file'], r['line'],
                                                                 r['snippet'], r['tu'], r['why']))
    opt = [r for r in results if r['status'] == 'option']
    if opt:
        lines += ['', 'Reported only with an option that is off by default (left out of the knowable rate):']
        lines += ['  %-18s %s:%d  `%s`  [TU %s]\n      %s' % (r['kind'], r['file'], r['line'], r['snippet'],
                                                          r['tu'], r['why']) for r in opt]
    eq = [r for r in results if r['status'] == 'equivalent']
    if eq:
        lines += ['', 'Equivalent mutants (no proven bug planted: not run, in no rate):']
        lines += ['  %-18s %s:%d  `%s`\n      %s' % (r['kind'], r['file'], r['line'], r['snippet'], r['why'])
                  for r in eq]
    inv = [r for r in results if r['status'] in ('invalid', 'crash')]
    if inv:
        lines += ['', 'Invalid mutants (clang error) and crashes:']
        lines += ['  %-18s %s:%d  %s: %s' % (r['kind'], r['file'], r['line'], r['status'],
                                             r.get('why', '')[:200]) for r in inv]
    lines += ['', 'Originals (%d TUs): tma- warnings of the unmutated TUs (must be reviewed baseline '
              'ones):' % len(need)]
    for t in need:
        o = orig[t['n']]
        lines.append('  TU %d %s %s %s: %d warnings%s' % (t['n'], t['repo'], os.path.basename(t['path']),
                                                       t['pas'], len(o[0]), ', CRASH' if o[3] else ''))
        for f, ln, _, m, _ in sorted(o[0]):
            lines.append('      %s:%d: %s' % (rel(f), ln, m[:150]))
    text = '\n'.join(lines) + '\n'
    print(text)
    with open(os.path.join(a.out, 'report.txt'), 'w') as f:
        f.write(text)
    with open(os.path.join(a.out, 'results.json'), 'w') as f:
        json.dump(results, f, indent=1)


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Run tma-tidy over a folder of reported TMA bugs and their fixed twins.

Usage: score.py [--build BUILD | --plugin SO] [--clang-tidy BIN] [--dir DIR]
                [--only REGEX] [-j N] [-v] [--tsv OUT]
                [--min-detected N] [--min-rule-match N]

DIR (default: this script's folder) holds NAME.bug.cu / NAME.ok.cu pairs and
MANIFEST.tsv (file, kind, rule, arch, bug_line, source, summary).  Every file
is checked twice, device pass and --cuda-host-only, with the manifest's
--cuda-gpu-arch.  A bug file is detected when either pass reports a tma-*
diagnostic in it, and rule-matched when one names the manifest's rule id
("(ID)"); NEW: rules can only be detected.  An ok file with any tma-*
diagnostic is a false positive.  A crash is an exit status other than 0/1, a
stack dump, or a timeout; a clang error in the file (it does not parse) counts
as a crash too, since then nothing was checked.

Last line: 'detected D/B (rule-match M/C) fp F/O crashes X'.  With
--min-detected or --min-rule-match the exit status is 1 when a figure falls
below its floor, when an ok file is reported, or when anything crashed: the
form ctest runs, so that losing a detection or gaining a false positive fails.
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CUDA = os.environ.get('CUDA_HOME', '/usr/local/cuda')
DIAG = re.compile(r'^(.*?):(\d+):\d+: (warning|error): (.*) \[([\w-]+)(?:,[\w-]+)*\]$')
RULE_ID = re.compile(r'\(([A-Z0-9]+(?:-[A-Z0-9]+)+)\)')
# Ids the catalogue defines as one rule ("same as").
SAME = {'TMA-STORE-FENCE': 'BULK-S2G-FENCE-BEFORE', 'BULK-S2G-FENCE-BEFORE': 'TMA-STORE-FENCE',
        'TMA-STORE-WAIT': 'BULK-S2G-WAIT-BEFORE-REUSE',
        'BULK-S2G-WAIT-BEFORE-REUSE': 'TMA-STORE-WAIT'}


def flags(arch):
    return ['-x', 'cuda', f'--cuda-path={CUDA}', f'-I{CUDA}/include/cccl',
            f'--cuda-gpu-arch={arch}', '-std=c++17', '-Wno-unknown-cuda-version']


def check(tool, path, arch):
    """Returns (tma diagnostics {(line, check, message)}, problem or '')."""
    found, problem = set(), ''
    for extra in ([], ['--cuda-host-only']):
        cmd = tool + ['--checks=-*,tma-*', path, '--'] + flags(arch) + extra
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            problem = 'timeout'
            continue
        out = p.stdout + p.stderr
        if p.returncode not in (0, 1) or 'Stack dump' in out or 'PLEASE submit' in out:
            problem = f'exit {p.returncode}'
        for line in out.splitlines():
            m = DIAG.match(line)
            if not m or os.path.basename(m.group(1)) != os.path.basename(path):
                continue
            if m.group(5).startswith('tma-'):
                found.add((int(m.group(2)), m.group(5), m.group(4)))
            elif m.group(3) == 'error':
                problem = problem or f'does not parse: line {m.group(2)}: {m.group(4)[:80]}'
    return found, problem


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default='build', help='build folder (lib/TmaTidy.so)')
    ap.add_argument('--plugin', default='', help='the module to load (overrides --build)')
    ap.add_argument('--clang-tidy', default=os.environ.get('CLANG_TIDY', 'clang-tidy-22'))
    ap.add_argument('--dir', default=HERE)
    ap.add_argument('--only', default='', help='regex on file names')
    ap.add_argument('-j', type=int, default=1)
    ap.add_argument('-v', action='store_true', help='print every file and its diagnostics')
    ap.add_argument('--tsv', default='')
    ap.add_argument('--min-detected', type=int, default=None)
    ap.add_argument('--min-rule-match', type=int, default=None)
    a = ap.parse_args()

    plugin = a.plugin or os.path.join(a.build, 'lib', 'TmaTidy.so')
    if not os.path.exists(plugin):
        sys.exit(f'score.py: no module at {plugin}')
    tool = [a.clang_tidy, f'--load={plugin}']
    with open(os.path.join(a.dir, 'MANIFEST.tsv')) as f:
        head = f.readline().rstrip('\n').split('\t')
        rows = [dict(zip(head, l.rstrip('\n').split('\t'))) for l in f if l.strip()]
    rows = [r for r in rows if not a.only or re.search(a.only, r['file'])]
    for r in rows:
        if not os.path.exists(os.path.join(a.dir, r['file'])):
            sys.exit(f"score.py: {r['file']} is in the manifest but not in {a.dir}")

    with cf.ThreadPoolExecutor(max(1, a.j)) as ex:
        futs = {r['file']: ex.submit(check, tool, os.path.join(a.dir, r['file']),
                                     r.get('arch') or 'sm_90a') for r in rows}
        res = {k: v.result() for k, v in futs.items()}

    bugs = oks = det = match = matchable = fps = crashes = 0
    table = []
    for r in rows:
        found, problem = res[r['file']]
        ids = sorted({i for d in found for i in RULE_ID.findall(d[2])})
        if r['kind'] == 'bug':
            bugs += 1
            det += bool(found)
            new = r['rule'].startswith('NEW:')
            matchable += not new
            hit = not new and (r['rule'] in ids or SAME.get(r['rule']) in ids)
            match += hit
            status = ('detected' + (' (rule match)' if hit else '')) if found else 'missed'
        else:
            oks += 1
            fps += bool(found)
            status = 'FALSE POSITIVE' if found else 'silent'
        if problem:
            crashes += 1
            status += f' CRASH ({problem})'
        table.append((r['file'], r['kind'], r['rule'], status, ','.join(ids) or '-'))
        if a.v or 'CRASH' in status or status == 'FALSE POSITIVE':
            print(f"{r['file']}\t{r['rule']}\t{status}\t{','.join(ids) or '-'}")
            for d in sorted(found):
                print(f'    line {d[0]} [{d[1]}] {d[2][:160]}')
    if a.tsv:
        with open(a.tsv, 'w') as f:
            f.write('file\tkind\trule\tstatus\treported_ids\n')
            f.writelines('\t'.join(t) + '\n' for t in table)
    print(f'detected {det}/{bugs} (rule-match {match}/{matchable}) fp {fps}/{oks} '
          f'crashes {crashes}')

    failed = []
    if a.min_detected is not None and det < a.min_detected:
        failed.append(f'detected {det} < {a.min_detected}')
    if a.min_rule_match is not None and match < a.min_rule_match:
        failed.append(f'rule-match {match} < {a.min_rule_match}')
    if a.min_detected is not None or a.min_rule_match is not None:
        if fps:
            failed.append(f'{fps} ok file(s) reported')
        if crashes:
            failed.append(f'{crashes} crash(es)')
    if failed:
        print('score.py: FAILED: ' + '; '.join(failed))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

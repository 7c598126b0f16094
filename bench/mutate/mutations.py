"""Mutation rules for bench/mutate: each kind finds the sites in a source file
where it applies and gives the edit that plants one bug there.

Text level on purpose: the mutant is the original file with one span replaced,
line count kept (so diagnostics of the original keep their lines), and read by
clang through a VFS overlay: the corpus itself is never edited.
"""
import re
from dataclasses import dataclass


@dataclass
class Site:
    kind: str
    start: int      # offset of the replaced span in the file text
    end: int
    repl: str
    line: int
    snippet: str
    snippet_lines: int = 1
    # Why the edit plants no bug (the program's layout does not change):
    # such a mutant is not run and counts in no rate.
    equivalent: str = ''


@dataclass
class Kind:
    name: str
    rules: str      # the rule ids that claim to catch the planted bug
    what: str


KINDS = [
    Kind('drop-proxy-fence', 'BULK-S2G-FENCE-BEFORE TMA-STORE-FENCE ASYNC-WAR-FENCE MBAR-INIT-VISIBLE',
         'delete a fence.proxy.async (asm or wrapper call)'),
    Kind('drop-wait-group', 'BULK-S2G-WAIT-BEFORE-REUSE TMA-STORE-WAIT',
         'delete a cp.async.bulk.wait_group (asm or wrapper call)'),
    Kind('deepen-wait-group', 'BULK-S2G-WAIT-BEFORE-REUSE TMA-STORE-WAIT',
         'raise the wait_group depth N by one'),
    Kind('drop-init-sync', 'MBAR-INIT-VISIBLE',
         'delete the fence/barrier that follows an mbarrier init'),
    Kind('drop-init', 'MBAR-UNINIT', 'delete an mbarrier init'),
    Kind('expect-tx-count', 'MBAR-TX-EQUALS-BYTES', 'add 16 to an expect-tx byte count'),
    Kind('lower-alignas', 'TMA-SMEM-ALIGN-128 TMA-SMEM-ALIGN-SWIZZLE BULK-ADDR-ALIGN16',
         'lower alignas/__align__/aligned(N >= 128) on a line to 16'),
    Kind('drop-wait', 'TMA-LOAD-WAIT-BEFORE-READ ASYNC-REUSE-BEFORE-RELEASE', 'delete an mbarrier wait call'),
    Kind('flip-parity', 'MBAR-WAIT-PARITY', 'xor the parity operand of a wait with 1'),
    Kind('drop-grid-constant', 'TMAP-PLACE-GRID-CONSTANT',
         'drop `const __grid_constant__` from a kernel parameter'),
]
KIND = {k.name: k for k in KINDS}


def masks(text):
    """(nocomment, nostring): the text with comments blanked, and with
    comments and string/char literals blanked; offsets and newlines kept."""
    nc, ns = list(text), list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i) or text.startswith('/*', i):
            j = text.find('\n', i) if text[i + 1] == '/' else text.find('*/', i + 2)
            j = n if j < 0 else (j if text[i + 1] == '/' else j + 2)
            for k in range(i, j):
                if text[k] != '\n':
                    nc[k] = ns[k] = ' '
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            for k in range(i + 1, min(j, n)):
                if text[k] != '\n':
                    ns[k] = ' '
            i = j + 1
        else:
            i += 1
    return ''.join(nc), ''.join(ns)


CONTROL = ('if', 'while', 'for', 'do', 'else', 'switch')

ALIGN = re.compile(r'\b(alignas|__align__|aligned)\s*\(\s*(\d+)\s*\)')
RECORD = re.compile(r'\b(struct|class|union)\b[^;{}()]*$')


def record_body(nc, pos):
    """(open, close) of the struct/class/union body that directly holds
    pos, or None (pos in a function body, at file scope, ...)."""
    depth, i = 0, pos
    while i > 0:
        i -= 1
        c = nc[i]
        if c == '}':
            depth += 1
        elif c == '{':
            if depth == 0:
                if not RECORD.search(nc[max(0, i - 300):i]):
                    return None
                return i, match_brace(nc, i)
            depth -= 1
    return None


def shared_type(nc, s0, e0):
    """Whether lowering the alignment at [s0, e0) can move a shared-memory
    buffer: an alignment on a type's head (`struct __align__(128) Map {`)
    matters only where the file lays that type out in shared memory (a
    `__shared__` object of it, or a shared buffer cast to it); a type of
    tensor maps passed by pointer keeps every address it had."""
    le = nc.find('\n', e0)
    head = re.match(r'\s*(?:template\s*<[^>]*>\s*)?(?:struct|class|union)\b[^;{]*?(\w+)\s*(?:\{|$)',
                    nc[nc.rfind('\n', 0, s0) + 1:le if le >= 0 else len(nc)])
    if not head:
        return True
    name = head.group(1)
    return bool(re.search(r'__shared__[^;]*\b%s\b|\b%s\b[^;]*__shared__|cast\s*<\s*%s\b'
                          % (name, name, name), nc))


def extern_pool(nc, s0):
    """Why lowering the alignment at s0 plants no bug the rules can prove,
    or '': it is declared on an `extern __shared__` pool, whose base the
    declared alignment does not reliably raise (tma-rules.md
    TMA-SMEM-ALIGN-128); the rules prove only offsets into the pool that
    break 128 bytes, which the mutant leaves as they were."""
    b = max(nc.rfind(';', 0, s0), nc.rfind('{', 0, s0), nc.rfind('}', 0, s0)) + 1
    e = nc.find(';', s0)
    decl = nc[b:e if e >= 0 else len(nc)]
    if re.search(r'\bextern\b', decl) and '__shared__' in decl:
        return ('an extern __shared__ pool: its declared alignment does not set its base '
                '(tma-rules.md TMA-SMEM-ALIGN-128), the offsets into it stay as they were')
    return ''


def same_layout(nc, s0, n):
    """Why lowering the alignment n of the member at s0 changes no address,
    or '': the member is the first data member of its record (offset 0 stays
    0) and another member or the record itself keeps an alignment >= n, so
    the record's alignment, size and every offset stay as they were. Other
    members are kept as mutants: whether the ones before them fill a
    multiple of n bytes is not seen in the text."""
    body = record_body(nc, s0)
    if not body:
        return ''
    o, c = body
    if c is None:
        return ''
    # Top-level declarations of the body (nested bodies skipped).
    decls, depth, start = [], 0, o + 1
    for i in range(o + 1, c):
        ch = nc[i]
        if ch in '{(':
            depth += 1
        elif ch in '})':
            depth -= 1
        elif ch == ';' and depth == 0:
            decls.append((start, i))
            start = i + 1
    data = [d for d in decls if not re.search(r'\b(static|using|typedef|friend)\b|\)\s*(const\s*)?$',
                                                nc[d[0]:d[1]])]
    if not data or not (data[0][0] <= s0 < data[0][1]):
        return ''
    keep = [int(m.group(2)) for d in data[1:] for m in ALIGN.finditer(nc, d[0], d[1])]
    head = nc[max(nc.rfind(';', 0, o), nc.rfind('}', 0, o)) + 1:o]
    keep += [int(m.group(2)) for m in ALIGN.finditer(head)]
    if keep and max(keep) >= n:
        return ('the first member of its record (offset 0) and another member keeps alignment %d: '
                'the record\'s layout does not change' % max(keep))
    return ''


def statement(ns, pos):
    """Bounds of the statement around offset pos in the string-free text, or
    None where pos is in a declaration/definition or outside a body."""
    depth, i = 0, pos - 1
    while i >= 0:
        c = ns[i]
        if c == ')':
            depth += 1
        elif c == '(':
            depth -= 1
        elif c in ';{}' and depth <= 0:
            break
        i -= 1
    start = i + 1
    depth, j, n = 0, pos, len(ns)
    while j < n:
        c = ns[j]
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif c == ';' and depth <= 0:
            break
        elif c == '{' and depth <= 0:
            head = ns[start:j].strip()
            if not re.match(r'(%s)\b' % '|'.join(CONTROL), head):
                return None         # a function definition, not a call
            j = match_brace(ns, j)
            if j is None:
                return None
            break
        elif c == '}' and depth <= 0:
            return None
        j += 1
    if j >= n:
        return None
    # Skip leading blanks and preprocessor lines (`#if` right before the
    # statement) so the replacement starts on the statement line.
    while True:
        while start < j and ns[start].isspace():
            start += 1
        if start < j and ns[start] == '#':
            nl = ns.find('\n', start)
            if nl < 0 or nl >= j:
                return None
            start = nl + 1
            continue
        break
    # A statement split by a directive (`#else` inside it) is not deleted.
    if re.search(r'\n[ \t]*#', ns[start:j + 1]):
        return None
    return start, j + 1


def enclosing_function(text, line, named=False):
    """(first, last) lines of the function or lambda body around \\p line,
    or None: the innermost enclosing brace whose head (the text since the
    previous `;`, `{` or `}`) has a parameter list and is no control
    statement. With \\p named, (first, last, name): the name before the
    parameter list (None for a lambda)."""
    nc, ns = masks(text)
    pos = 0
    for _ in range(line - 1):
        pos = ns.find('\n', pos) + 1
        if pos == 0:
            return None
    depth = 0
    for k in range(pos - 1, -1, -1):
        if ns[k] == '}':
            depth += 1
        elif ns[k] == '{':
            if depth:
                depth -= 1
                continue
            # The parameter list: the last `)` before the brace, with only
            # qualifiers between (`const`, `noexcept`, `-> T`, `mutable`).
            r = ns.rfind(')', 0, k)
            if r < 0 or not re.fullmatch(r'[\w\s:<>&*,\->]*', ns[r + 1:k]):
                continue
            d, l = 0, r
            while l >= 0:
                d += {')': 1, '(': -1}.get(ns[l], 0)
                if d == 0:
                    break
                l -= 1
            name = re.search(r'(\w+)\s*$', ns[:l]) if l > 0 else None
            # `if constexpr (c) {` is a control statement too.
            if name and name.group(1) in CONTROL + ('catch', 'constexpr'):
                continue
            close = match_brace(ns, k)
            if close is None:
                return None
            span = (ns.count('\n', 0, l) + 1, ns.count('\n', 0, close) + 1)
            return span + (name.group(1) if name else None,) if named else span
    return None


def match_brace(ns, j):
    depth = 0
    for k in range(j, len(ns)):
        if ns[k] == '{':
            depth += 1
        elif ns[k] == '}':
            depth -= 1
            if depth == 0:
                return k
    return None


def open_angle(seg):
    """A template argument list left open (`size_bytes<T, args...>`): the
    comma does not end an argument."""
    seg = re.sub(r'<<|>>|->|<=|>=', '', seg)
    return seg.count('<') > seg.count('>')


def call_args(ns, lparen):
    """[(start, end)] of the top-level arguments of the call whose '(' is at
    lparen, and the offset of its ')'; None if unbalanced."""
    depth, args, s = 0, [], lparen + 1
    for k in range(lparen, len(ns)):
        c = ns[k]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                if ns[s:k].strip():
                    args.append((s, k))
                return args, k
        elif c == ',' and depth == 1 and not open_angle(ns[s:k]):
            args.append((s, k))
            s = k + 1
        elif c == ';' and depth:
            return None
    return None


TARGS = r'(?:\s*<[^;(){}<>]*(?:<[^;(){}<>]*>[^;(){}<>]*)*>)?'
QUAL = r'(?:[A-Za-z_]\w*\s*(?:::|\.|->)\s*|\]\s*(?:\.|->)\s*)*'


def calls(ns, name_re):
    """(name_start, name, lparen) of calls whose callee name matches name_re,
    excluding declarations (`void wait(`): the callee must start an
    expression."""
    for m in re.finditer(r'(?<![\w.>:])(' + QUAL + r')(' + name_re + r')' + TARGS + r'\s*\(', ns):
        qs = m.start(1)
        k = qs - 1
        while k >= 0 and ns[k].isspace():
            k -= 1
        prev = ns[k] if k >= 0 else ';'
        if prev.isalnum() or prev == '_':
            w = re.search(r'(\w+)$', ns[:k + 1]).group(1)
            if w not in ('return', 'co_await', 'else', 'do'):
                continue
        elif prev in '*&>' and not ns[max(0, k - 1):k + 1] in ('&&', '->'):
            continue
        # A member call: object name just before the '.', '->' or ']'.
        yield m.start(2) if not m.group(1) else qs, m.group(2), m.end() - 1, m.group(1)


def wrap(arg, fmt):
    """fmt applied to the argument text, its surrounding blanks (newlines
    included) kept so the mutant has the original's line numbers."""
    core = arg.strip()
    i = arg.find(core)
    return arg[:i] + fmt % core + arg[i + len(core):]


def line_of(text, off):
    return text.count('\n', 0, off) + 1


def deletion(text, ns, kind, s, e):
    body = text[s:e]
    return Site(kind, s, e, '/*mutant*/;' + '\n' * body.count('\n'), line_of(text, s),
                ' '.join(body.split())[:90], body.count('\n') + 1)


FENCE_CALL = r'\w*fence_proxy_async\w*|fence_view_async_shared|tma_store_fence'
WAITG_CALL = (r'(?!wgmma|warpgroup)\w*(?:bulk_wait_group\w*|tma_store_wait|store_wait|'
              r'tma_wait_group|store_async_\w*wait\w*|wait_group_read\w*)')
INIT_CALL = r'init|mbarrier_init|init_barrier|initialize_barrier\w*|barrier_init|init_mbarrier|mbar_init'
FENCE_ONLY = re.compile(r'fence[._]proxy[._]async|fence_view_async_shared|fence[._]mbarrier_init|'
                        r'fence_barrier_init')
THREAD_BARRIER = re.compile(r'__syncthreads\s*\(|cluster_sync\s*\(|barrier\.cluster\.wait|'
                            r'cluster_wait\s*\(|bar\.sync|barrier\.sync|\bsync\s*\(\s*\)')
CLUSTER_PEERS = re.compile(r'multicast|\bmapa\b|shared::cluster\.b64|cta_group::2')
# A tcgen05.commit of one CTA (`.cta_group::1`) arrives on the CTA's own
# barrier, though it names it in the shared::cluster window (the
# instruction may run over adjacent string literals).
OWN_COMMIT = re.compile(r'tcgen05\.commit\.cta_group::1(?:\S|"\s*")*shared::cluster\.b64')


BARRIER_USE = re.compile(r'mbarrier[._](?!init)|cp\.async\.bulk|\barrive|try_wait|expect_tx|'
                         r'\bwait\w*\s*\(')


def peer_signals(nc):
    """Whether a barrier of the file may be signalled by a peer CTA."""
    for m in CLUSTER_PEERS.finditer(nc):
        if m.group(0) == 'shared::cluster.b64':
            at = nc.rfind('tcgen05', 0, m.start())
            if at >= 0 and OWN_COMMIT.fullmatch(nc, at, m.end()):
                continue
        return True
    return False


def unconfirmed_fence(nc, m, end, limit):
    """Why deleting the init fence at m plants no proven bug, or '': a
    proxy fence or fence.mbarrier_init after an init, with the thread or
    cluster barrier that MBAR-INIT-VISIBLE requires still after it, in a file
    whose barriers no peer CTA signals (no multicast, mapa or remote
    arrive): tma-rules.md marks the need of that fence UNCONFIRMED (PTX 9.1:
    the copies access their mbarrier through the generic proxy)."""
    if not FENCE_ONLY.match(m.group(0)) or peer_signals(nc):
        return ''
    # The thread barrier: the first after the fence in its function, with
    # no use of a barrier in between.
    fn = enclosing_function(nc, nc.count('\n', 0, end) + 1)
    stop = len(nc) if not fn else sum(len(x) + 1 for x in nc.split('\n')[:fn[1]])
    sync = THREAD_BARRIER.search(nc, end, max(limit, stop))
    if not sync or BARRIER_USE.search(nc, end, sync.start()):
        return ''
    return ('only the fence after the init is deleted and a thread barrier still follows: '
            'MBAR-INIT-VISIBLE requires the barrier; the fence\'s need is UNCONFIRMED '
            '(tma-rules.md) and no peer CTA signals a barrier of this file')


SYNC = re.compile(r'__syncthreads\s*\(|fence[._]mbarrier_init|fence_barrier_init|cluster_sync\s*\(|'
                  r'barrier\.cluster\.(?:arrive|wait)|cluster_arrive\w*\s*\(|cluster_wait\s*\(|'
                  r'fence_view_async_shared\s*\(|fence[._]proxy[._]async|__syncwarp\s*\(|'
                  r'\bsync\s*\(\s*\)|bar\.sync|barrier\.sync')
WAIT_CALL = (r'wait|mbarrier_wait\w*|wait_barrier|mbar_wait|mbarrier_try_wait\w*|try_wait\w*|'
             r'wait_parity|barrier_wait|consumer_wait|wait_on_barrier|mbar_try_wait')
TX_CALL = (r'expect_bytes|barrier_arrive_tx|mbarrier_arrive_expect_tx|arrive_and_expect_tx|'
           r'expect_tx|mbarrier_expect_tx|arrive_expect_tx|expect_transaction|set_expect_tx')
def tx_arg(args):
    """Which argument of an expect-tx call is the byte count: not the barrier,
    a predicate, a CTA id or a cuda::ptx tag; the one that says bytes or size,
    else the last one left."""
    idx = [i for i, t in enumerate(args) if not re.search(
        r'(?i)\bpred|cta_id|\bcta\b|mask|^\s*&|bar|storage\(\)|sem_|scope_|space_', t)]
    kw = [i for i in idx if re.search(r'(?i)byte|size|tx|sizeof', args[i])]
    return kw[0] if kw else (idx[-1] if idx else None)


BARLIKE = re.compile(r'(?i)bar|mbar|full|empty|sem|pipe|producer|consumer')


def sites(text, kinds):
    nc, ns = masks(text)
    out = []

    def stmt_sites(kind, positions):
        seen = set()
        for p in positions:
            b = statement(ns, p)
            if b and b not in seen:
                seen.add(b)
                out.append(deletion(text, ns, kind, *b))

    if 'drop-proxy-fence' in kinds:
        pos = [m.start() for m in re.finditer(r'fence\.proxy\.async(?!\w)', nc)]
        pos += [c[0] for c in calls(ns, FENCE_CALL)]
        stmt_sites('drop-proxy-fence', sorted(pos))
    if 'drop-wait-group' in kinds or 'deepen-wait-group' in kinds:
        asm = list(re.finditer(r'cp\.async\.bulk\.wait_group(?:\.read)?\s+(\d+|%\d+)', nc))
        cl = list(calls(ns, WAITG_CALL))
        if 'drop-wait-group' in kinds:
            stmt_sites('drop-wait-group', sorted([m.start() for m in asm] + [c[0] for c in cl]))
        if 'deepen-wait-group' in kinds:
            for m in asm:
                if m.group(1).isdigit():
                    out.append(Site('deepen-wait-group', m.start(1), m.end(1), str(int(m.group(1)) + 1),
                                    line_of(text, m.start()), m.group(0)))
            for start, name, lp, _ in cl:
                seg = ns[start:lp + 1]
                n = re.search(r'<\s*(\d+)\s*>', seg) or re.search(r'n32_t\s*<\s*(\d+)\s*>', ns[lp:lp + 60])
                if not n:
                    a = call_args(ns, lp)
                    if a and len(a[0]) == 1 and re.fullmatch(r'\s*\d+\s*', ns[a[0][0][0]:a[0][0][1]]):
                        s, e = a[0][0]
                        v = int(ns[s:e])
                        out.append(Site('deepen-wait-group', s, e, ' %d' % (v + 1), line_of(text, s),
                                        ' '.join(text[start:a[1] + 1].split())[:90]))
                    continue
                base = start if n.re.pattern.startswith('<') else lp
                s, e = base + n.start(1), base + n.end(1)
                out.append(Site('deepen-wait-group', s, e, str(int(ns[s:e]) + 1), line_of(text, s),
                                ' '.join(text[start:lp + 40].split())[:90]))
    inits = []
    for start, name, lp, qual in calls(ns, INIT_CALL):
        if name == 'init' and qual and not BARLIKE.search(qual):
            continue
        if name == 'init' and not qual:
            a = call_args(ns, lp)       # cde `init(&bar, count)`: two arguments
            if not a or len(a[0]) != 2:
                continue
        inits.append(start)
    inits += [m.start() for m in re.finditer(r'mbarrier\.init\b', nc)]
    if 'drop-init' in kinds:
        stmt_sites('drop-init', sorted(inits))
    if 'drop-init-sync' in kinds:
        init_stmts = [b for b in (statement(ns, q) for q in inits) if b]
        done = set()
        for e in sorted({b[1] for b in init_stmts}):
            limit = e
            for _ in range(12):
                limit = text.find('\n', limit + 1)
                if limit < 0:
                    limit = len(text)
                    break
            found = 0
            for m in SYNC.finditer(nc, e, limit):
                if any(s0 <= m.start() < e0 for s0, e0 in init_stmts):
                    continue
                b = statement(ns, m.start())
                if not b or b in done:
                    continue
                done.add(b)
                site = deletion(text, ns, 'drop-init-sync', *b)
                site.equivalent = unconfirmed_fence(nc, m, b[1], limit)
                out.append(site)
                found += 1
                if found == 2 or 'sync' in m.group(0) or 'cluster' in m.group(0):
                    break
    if 'expect-tx-count' in kinds:
        for start, name, lp, _ in calls(ns, TX_CALL):
            a = call_args(ns, lp)
            if not a or not a[0]:
                continue
            k = tx_arg([text[x:y] for x, y in a[0]])
            if k is None:
                continue
            s, e = a[0][k]
            arg = text[s:e]
            if not arg.strip() or 'cuda::ptx' in arg:
                continue
            out.append(Site('expect-tx-count', s, e, wrap(arg, '(%s) + 16'), line_of(text, s),
                            ' '.join(text[start:a[1] + 1].split())[:90]))
    if 'lower-alignas' in kinds:
        al = re.compile(r'\b(alignas|__align__|aligned)\s*\(\s*(\d+)\s*\)')
        byline = {}
        for m in al.finditer(nc):
            if int(m.group(2)) >= 128:
                byline.setdefault(line_of(text, m.start()), []).append(m)
        for ln, ms in sorted(byline.items()):
            s0, e0 = ms[0].start(), ms[-1].end()
            new, k = [], s0
            for m in ms:
                new += [text[k:m.start()], '%s(16)' % m.group(1)]
                k = m.end()
            ls = text.rfind('\n', 0, s0) + 1
            le = text.find('\n', e0)
            if not shared_type(nc, s0, e0):
                continue
            out.append(Site('lower-alignas', s0, e0, ''.join(new), ln,
                            ' '.join(text[ls:le if le >= 0 else len(text)].split())[:90],
                            equivalent=extern_pool(nc, s0) or
                            same_layout(nc, s0, max(int(m.group(2)) for m in ms))))
    if 'drop-wait' in kinds or 'flip-parity' in kinds:
        for start, name, lp, qual in calls(ns, WAIT_CALL):
            if re.search(r'wgmma|warpgroup|wait_group|cluster|grid', name + qual):
                continue
            if qual and name == 'wait' and not BARLIKE.search(qual) and 'bar' not in qual.lower():
                # `tokenA`-style waits: cuda::barrier::wait(token) keeps a token
                if not re.search(r'\w+\s*\.\s*$', qual):
                    continue
            a = call_args(ns, lp)
            if not a:
                continue
            if 'drop-wait' in kinds:
                b = statement(ns, start)
                if b:
                    out.append(deletion(text, ns, 'drop-wait', *b))
            if 'flip-parity' in kinds and a[0]:
                s, e = a[0][-1]
                arg = text[s:e].strip()
                one_arg_member = len(a[0]) == 1 and qual
                if re.search(r'token|move|state|\bpipe', arg) or (len(a[0]) < 2 and not one_arg_member):
                    continue
                out.append(Site('flip-parity', s, e, wrap(text[s:e], '(%s) ^ 1'), line_of(text, s),
                                ' '.join(text[start:a[1] + 1].split())[:90]))
    if 'drop-grid-constant' in kinds:
        for m in re.finditer(r'\bconst\s+__grid_constant__\s+|\b__grid_constant__\s+const\s+', nc):
            out.append(Site('drop-grid-constant', m.start(), m.end(), ' ' * 0, line_of(text, m.start()),
                            ' '.join(text[m.start():m.end() + 40].split())[:90]))
    # The same edit under two kinds (a proxy fence right after an init):
    # keep it once, as the init-visibility mutant.
    sync = {(x.start, x.end) for x in out if x.kind == 'drop-init-sync'}
    out = [x for x in out if x.kind != 'drop-proxy-fence' or (x.start, x.end) not in sync]
    out.sort(key=lambda s: (s.kind, s.start))
    return out

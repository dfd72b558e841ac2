#!/usr/bin/env python3
"""End-to-end checks of spaa-diff that golden files cannot express.

Each check is a function; each prints "ok NAME" or "FAIL NAME" with the
reason, and the run ends with "N passed, M failed".  Run from the
repository root (make check does).

The reference recomputation re-derives every delta from the SPAA records
in Python, independently of the C aggregation: functions keyed by
(name, DSO name), stacks by their root-to-leaf (name, DSO) sequence.
"""
import json
import math
import os
import re
import subprocess
import tempfile
from clitest import check, finish, lami, run

DIFF = './spaa-diff'
DATA = 'tests/data'
BASIC = os.path.join(DATA, 'basic.spaa')
CWORK_B = os.path.join(DATA, 'diff_cwork_baseline.spaa.zst')
CWORK_T = os.path.join(DATA, 'diff_cwork_hashslow.spaa.zst')
CWORK_MAP = '/tmp/ceo/diff/cwork=/tmp/ceo/diff/cwork_hashslow'
RENAMED = os.path.join(DATA, 'diff_renamed.spaa')
APP_MAP = '/usr/bin/app=/opt/app-2.0/bin/app'
# (baseline, target, options, the DSO renaming they amount to: --dso-map,
# or a renamed binary paired without it)
PAIRS = [
    (BASIC, os.path.join(DATA, 'diff_renumbered.spaa'), [], None),
    (BASIC, os.path.join(DATA, 'diff_doubled.spaa'), [], None),
    (BASIC, os.path.join(DATA, 'diff_newgone.spaa'), [], None),
    (os.path.join(DATA, 'diff_alloc_base.spaa'), os.path.join(DATA, 'diff_alloc_target.spaa'), [], None),
    (CWORK_B, CWORK_T, [], CWORK_MAP),
    (CWORK_B, CWORK_T, ['--dso-map', CWORK_MAP], CWORK_MAP),
    (CWORK_B, CWORK_T, ['--no-dso-pairing'], None),
    (BASIC, RENAMED, [], APP_MAP),
    (BASIC, RENAMED, ['--no-dso-pairing'], None),
]


COLUMNS = {name: [col.get('title') for col in c['column-descriptions']]
           for name, c in lami([DIFF, '--metadata'])['table-classes'].items()}


def tables(doc):
    """{title: rows}, the title's part before the event; a row is a dict
    {column title: cell}, the columns those of the metadata's class."""
    out = {}
    for t in doc['results']:
        c = t['class']
        title = c if isinstance(c, str) else c['title']
        name = c if isinstance(c, str) else c['inherit']
        out[title.split(' (event')[0]] = [dict(zip(COLUMNS[name], row)) for row in t['data']]
    return out


def value(cell):
    if isinstance(cell, dict):
        if cell['class'] == 'unknown':
            return None
        if cell['class'] == 'path':
            return cell['path']
        return cell['value']
    return cell


def records(path):
    """(dsos, frames, stacks) of a plain or zstd SPAA file."""
    if path.endswith('.zst'):
        text = subprocess.run(['zstd', '-dc', path], capture_output=True,
                              check=True).stdout.decode()
    else:
        text = open(path, encoding='utf-8').read()
    header, dsos, frames, stacks = None, {}, {}, []
    for line in text.splitlines():
        r = json.loads(line)
        if r['type'] == 'header':
            header = r
        elif r['type'] == 'dso':
            dsos[r['id']] = r['name']
        elif r['type'] == 'frame':
            frames[r['id']] = (r['func'], r['dso'])
        elif r['type'] == 'stack':
            stacks.append(r)
    return header, dsos, frames, stacks


def side(path, dso_map=None, keep=None):
    """Self and total per (func, dso), weight per path, of the first event;
    only the stacks keep(context, thread commands, leaf-first function
    names) accepts, when given."""
    header, dsos, frames, stacks = records(path)
    comms = {}
    if keep:
        text = subprocess.run(['zstd', '-dcf', path], capture_output=True,
                              check=True).stdout.decode()
        for line in text.splitlines():
            r = json.loads(line)
            if r['type'] == 'thread' and 'comm' in r:
                comms[(r['pid'], r['tid'])] = r['comm']
    event = header['events'][0]
    metric = event['sampling']['primary_metric']
    self_w, total_w, path_w, total = {}, {}, {}, 0
    for s in stacks:
        if s['context']['event'] != event['name']:
            continue
        w = {x['metric']: x['value'] for x in s['weights']}.get(metric)
        if w is None:
            continue
        ids = s['frames'] if header['frame_order'] == 'leaf_to_root' else s['frames'][::-1]

        def fn(fid):
            name, dso = frames[fid]
            dso = dsos[dso]
            return name, (dso_map or {}).get(dso, dso)
        fns = [fn(i) for i in ids]              # leaf first
        if keep and not keep(s['context'], comms, [f[0] for f in fns]):
            continue
        excl = s.get('exclusive', {})
        ew = {x['metric']: x['value'] for x in excl.get('weights', [])}.get(metric)
        leaf = fn(excl['frame']) if ew is not None else fns[0]
        self_w[leaf] = self_w.get(leaf, 0) + (ew if ew is not None else w)
        for f in set(fns):
            total_w[f] = total_w.get(f, 0) + w
        key = tuple(reversed(fns))
        path_w[key] = path_w.get(key, 0) + w
        total += w
    return self_w, total_w, path_w, total


def expected(b, t, B, T, mode):
    """raw delta, normalized delta (None when raw weights are compared),
    share delta, relative change of the compared delta, in raw units."""
    bn = b * T / B
    rel = None if not b else t / b - 1 if mode == 'none' else t / bn - 1
    norm = math.copysign(math.floor(abs(t - bn) + 0.5), t - bn) + 0  # C's llround
    return (t - b, None if mode == 'none' else norm, t / T - b / B, rel)


def close(x, y):
    if x is None or y is None:
        return x is y
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-6)


@check
def reference_recomputation():
    """Every function, inclusive and stack row agrees with Python."""
    for base, target, extra, renaming in PAIRS:
        dso_map = dict([renaming.split('=', 1)] if renaming else [])
        bs, bt, bp, B = side(base, dso_map)
        ts, tt, tp, T = side(target)
        for mode in ('share', 'total', 'none', 'auto'):
            got = tables(lami([DIFF, '--normalize', mode] + extra + [base, target]))
            if mode == 'auto':  # raw for allocation events
                mode = 'none' if 'alloc' in base else 'share'
            ranked_by = 'Raw delta' if mode == 'none' else 'Share delta'
            where = '%s vs %s %s' % (base, target, mode)
            for name, bsum, tsum in (('Function self weight deltas', bs, ts),
                                     ('Function total weight deltas', bt, tt)):
                rows = got[name]
                keys = {k for k in set(bsum) | set(tsum) if bsum.get(k) or tsum.get(k)}
                assert len(rows) == len(keys), (where, name, len(rows), len(keys))
                deltas = []
                for row in rows:
                    k = (row['Function'], value(row['DSO']))
                    b, t = bsum.get(k, 0), tsum.get(k, 0)
                    raw, norm, sd, rel = expected(b, t, B, T, mode)
                    # ns and bytes: the class unit is the raw unit here
                    assert value(row['Baseline']) == b, (where, name, row)
                    assert value(row['Target']) == t, (where, name, row)
                    assert value(row['Raw delta']) == raw, (where, name, row, raw)
                    assert value(row['Normalized delta']) == norm, (where, name, row, norm)
                    assert close(value(row['Share delta']), sd), (where, name, row, sd)
                    assert close(value(row['Relative change']), rel), (where, name, row, rel)
                    deltas.append(abs(value(row[ranked_by])))
                assert all(a >= b - 1e-9 for a, b in zip(deltas, deltas[1:])), (where, name)
            rows = got['Call path deltas']
            assert len(rows) == len(set(bp) | set(tp)), (where, len(rows))
            statuses = {'new': 0, 'gone': 0}
            for row in rows:
                if row['Status'] in statuses:
                    statuses[row['Status']] += 1
            summary = got['Baseline and target'][0]
            assert value(summary['Baseline total']) == B and value(summary['Target total']) == T, \
                (where, summary)
            assert value(summary['Raw total delta']) == T - B, (where, summary)
            new, gone = summary['New stacks'], summary['Gone stacks']
            assert (new, gone) == (len(set(tp) - set(bp)), len(set(bp) - set(tp))), (where, summary)
            assert statuses == {'new': new, 'gone': gone}, (where, statuses)
            assert summary['Matched stacks'] == len(set(tp) & set(bp)), (where, summary)


def selects(pid=None, tid=None, comm=None, focus=None, ignore=None):
    """The stacks --pid/--tid/--comm/--focus/--ignore keep, as filter.h
    says: the record's command name, else its thread's."""
    def keep(ctx, comms, names):
        c = ctx.get('comm', comms.get((ctx.get('pid'), ctx.get('tid'))))
        return ((pid is None or ctx.get('pid') == pid) and
                (tid is None or ctx.get('tid') == tid) and
                (comm is None or c == comm) and
                (focus is None or any(re.search(focus, n) for n in names)) and
                (ignore is None or not any(re.search(ignore, n) for n in names)))
    return keep


@check
def selections_apply_to_both_sides():
    """--pid/--tid/--comm/--focus/--ignore cut the baseline and the target
    alike: every row equals the recomputation of the selected stacks, and
    the header and every title say what was selected."""
    doubled = os.path.join(DATA, 'diff_doubled.spaa')
    cases = [
        (BASIC, doubled, ['--tid', '101'], selects(tid=101), 'thread 101'),
        (BASIC, doubled, ['--pid', '100', '--comm', 'app'], selects(pid=100, comm='app'),
         "process 100, command 'app'"),
        (CWORK_B, CWORK_T, ['--dso-map', CWORK_MAP, '--comm', 'cwork-w0'],
         selects(comm='cwork-w0'), "command 'cwork-w0'"),
        (CWORK_B, CWORK_T, ['--dso-map', CWORK_MAP, '--focus', '^worker$', '--ignore', 'hash'],
         selects(focus='^worker$', ignore='hash'),
         "stacks through '^worker$', no stacks through 'hash'"),
        (CWORK_B, CWORK_T, ['--dso-map', CWORK_MAP, '--symbol-filter', 'msort'],
         selects(focus='msort'), "stacks through 'msort'"),
    ]
    for base, target, args, keep, said in cases:
        dso_map = dict([CWORK_MAP.split('=', 1)]) if base == CWORK_B else {}
        bs, _, bp, B = side(base, dso_map, keep)
        ts, _, tp, T = side(target, None, keep)
        whole = side(base, dso_map)[3]
        assert 0 < B < whole, (args, B, whole)      # the selection cuts something
        doc = lami([DIFF, '--format', 'lami', '--normalize', 'none'] + args + [base, target])
        got = tables(doc)
        rows = got['Function self weight deltas']
        keys = {k for k in set(bs) | set(ts) if bs.get(k) or ts.get(k)}
        assert len(rows) == len(keys), (args, len(rows), len(keys))
        for row in rows:
            k = (row['Function'], value(row['DSO']))
            assert (value(row['Baseline']), value(row['Target'])) == \
                (bs.get(k, 0), ts.get(k, 0)), (args, row)
        assert len(got['Call path deltas']) == len(set(bp) | set(tp)), args
        summary = got['Baseline and target'][0]
        assert (value(summary['Baseline total']), value(summary['Target total'])) == (B, T), args
        for t in doc['results']:
            title = t['class']['title'] if isinstance(t['class'], dict) else ''
            assert '%s in both profiles' % said in title, (args, title)
        rc, out, _ = run([DIFF, '--format', 'text'] + args + [base, target])
        assert rc == 0 and '# Selected: %s, in both profiles\n' % said in out, (args, out[:800])


@check
def a_selection_a_side_lacks_says_why():
    # the ids of one run are not the other's: the side without them says so
    rc, out, err = run([DIFF, '--format', 'lami', '--pid', '7752', CWORK_B, CWORK_T])
    e = json.loads(out)
    assert rc == 1 and e['error-code'] == 'no-data', (rc, out)
    assert e['error-message'] == (
        "%s: the target: --pid 7752 selects nothing: the profile has threads "
        "7761/7764, 7761/7763, 7761/7765 (pid/tid)" % CWORK_T), e
    assert err.count('\n') == 1 and 'the target: --pid 7752 selects nothing' in err, err
    rc, out, _ = run([DIFF, '--format', 'lami', '--tid', '7764', CWORK_B, CWORK_T])
    assert rc == 1 and json.loads(out)['error-message'].startswith(
        '%s: the baseline: --tid 7764 selects nothing: the profile has threads 7752/' % CWORK_B), out
    # a selection that keeps no stack of a side says what the side has
    rc, out, _ = run([DIFF, '--format', 'lami', '--comm', 'nosuch', BASIC, BASIC])
    assert rc == 1 and json.loads(out)['error-message'] == (
        "%s: the baseline: --comm 'nosuch' selects nothing: the profile's commands are "
        "'app', 'worker'" % BASIC), out
    # stacks of the selection, but none of the event compared: named too
    multi = os.path.join(DATA, 'multi_event.spaa')
    rc, out, _ = run([DIFF, '--format', 'lami', '--event', 'page-faults', '--focus', 'compute',
                      multi, multi])
    assert rc == 1 and json.loads(out)['error-message'].endswith(
        "no weight for event 'page-faults', metric 'period' of stacks through 'compute'"), out


@check
def text_keeps_the_raw_delta_at_any_width():
    """A narrow terminal drops other columns first: the raw delta of each
    table is always shown (raw and share comparisons alike)."""
    alloc = [os.path.join(DATA, 'diff_alloc_base.spaa'), os.path.join(DATA, 'diff_alloc_target.spaa')]
    for pair in (alloc, [CWORK_B, CWORK_T]):
        for width in (40, 60, 80, 100, 120):
            rc, out, _ = run([DIFF, '--format', 'text', '--width', str(width)] + pair)
            assert rc == 0, (pair, width)
            lines = out.splitlines()
            heads = [l for l, rule in zip(lines, lines[1:])
                     if rule.startswith('--') and set(rule) <= {'-', ' '} and
                     l.startswith(('Function ', 'Call path ', 'Site '))]
            assert len(heads) == (4 if pair is alloc else 3), (pair, width, heads)
            for h in heads:
                raw = 'Raw allocated delta' if h.startswith('Site') else 'Raw delta'
                assert raw in h, (pair, width, h)
                assert max(len(l) for l in out.splitlines() if not l.startswith('#')) <= width or \
                    width < 60, (pair, width)


@check
def injected_slowdown_tops_the_ranking():
    """cwork_hashslow: hash_phase 20.7 % -> 45.0 % (perf report)."""
    for extra in ([], ['--dso-map', CWORK_MAP]):
        got = tables(lami([DIFF] + extra + [CWORK_B, CWORK_T]))
        top = got['Function self weight deltas'][0]
        assert top['Function'] == 'hash_phase.constprop.0', (extra, top)
        assert value(top['Raw delta']) > 0 and value(top['Normalized delta']) > 0, top
        path = got['Call path deltas'][0]
        assert path['Call path'].endswith(';hash_phase.constprop.0'), path
    # matched across the renamed executable: one row, both shares
    assert abs(value(top['Baseline share']) - 0.207) < 0.001, top
    assert abs(value(top['Target share']) - 0.450) < 0.001, top
    assert path['Status'] == 'changed', path


@check
def heap_snapshots_compare_raw_bytes():
    """Two V8 heap snapshots (node_heap2.js before and after makeStrings):
    allocation events compare raw bytes by default, so a function's self
    delta is its allocation table delta; normalized deltas, which once
    stood alone under the title "Delta", read the opposite way."""
    import v8_heap_reference as ref
    before = os.path.join(DATA, 'v8', 'node_before.heapsnapshot.gz')
    after = os.path.join(DATA, 'v8', 'node_after.heapsnapshot.gz')
    want_b = ref.expected(ref.snapshot_nodes(ref.load(before)))
    want_t = ref.expected(ref.snapshot_nodes(ref.load(after)))
    doc = lami([DIFF, '--limit', '0', before, after])
    titles = [t['class']['title'] for t in doc['results'] if isinstance(t['class'], dict)]
    assert len(titles) == 4 and all(
        'raw weights compared (default for allocation events)' in x for x in titles), titles
    got = tables(doc)
    allocs = {(r['Site'], value(r['DSO'])): value(r['Raw allocated delta'])
              for r in got['allocations']}
    rows = got['Function self weight deltas']
    selfs = {f for w in (want_b, want_t) for f, v in w.items() if v[0]}
    assert len(rows) == len(selfs), (len(rows), len(selfs))
    for r in rows:
        k = (r['Function'], value(r['DSO']))
        raw = want_t.get(k, [0])[0] - want_b.get(k, [0])[0]
        assert value(r['Raw delta']) == raw, (r, raw)
        assert value(r['Normalized delta']) is None, r
        assert allocs.get(k, 0) == raw, (r, allocs)
    mr = next(r for r in rows if r['Function'] == 'makeRecords')
    assert value(mr['Raw delta']) > 0, mr
    # as shares, the same bytes: a normalized delta below zero, beside the raw one
    shares = tables(lami([DIFF, '--normalize', 'share', '--limit', '0', before, after]))
    mr = next(r for r in shares['Function self weight deltas'] if r['Function'] == 'makeRecords')
    assert value(mr['Normalized delta']) < 0 < value(mr['Raw delta']), mr


@check
def weights_and_deltas_are_integers():
    """Trace Compass prints a fraction in scientific notation
    (-1.03680315726168E9): every cell but ratios is an integer, every
    delta of the weights' class (a duration delta a duration)."""
    heap = (os.path.join(DATA, 'v8', 'node_before.heapsnapshot.gz'),
            os.path.join(DATA, 'v8', 'node_after.heapsnapshot.gz'), [], None)
    for base, target, extra, _ in PAIRS + [heap]:
        for mode in ('share', 'none'):
            doc = lami([DIFF, '--normalize', mode] + extra + [base, target])
            for t in doc['results']:
                for row in t['data']:
                    for cell in row:
                        v = cell.get('value') if isinstance(cell, dict) else cell
                        if isinstance(cell, dict) and cell['class'] == 'ratio':
                            continue
                        assert not isinstance(v, float), (base, target, mode, row)
            for name, rows in tables(doc).items():
                for r in rows:
                    for col in ('Raw delta', 'Normalized delta', 'Raw total delta'):
                        if col in r and value(r[col]) is not None:
                            assert r[col]['class'] == r['Target' if 'Target' in r
                                                        else 'Target total']['class'], r


@check
def renamed_binary_is_paired():
    """cwork -> cwork_hashslow: the same program under another name is
    paired by itself, as --dso-map pairs it, and the titles say so;
    --no-dso-pairing leaves each function twice, new and gone, and names
    the --dso-map that would match them."""
    def data(doc):
        return [t['data'] for t in doc['results']]

    def titles(doc):
        return [t['class']['title'] for t in doc['results'] if isinstance(t['class'], dict)]
    # functions with weight per DSO, recomputed from the records
    old, new = CWORK_MAP.split('=')
    nb = {f for f, dso in side(CWORK_B)[1] if dso == old}
    nt = {f for f, dso in side(CWORK_T)[1] if dso == new}
    said = 'baseline DSO %s paired with target DSO %s, a renamed binary (%d of %d function names shared' % (
        old, new, len(nb & nt), max(len(nb), len(nt)))
    paired = lami([DIFF, CWORK_B, CWORK_T])
    assert data(paired) == data(lami([DIFF, '--dso-map', CWORK_MAP, CWORK_B, CWORK_T]))
    assert all(said in x for x in titles(paired)), (said, titles(paired))
    refused = lami([DIFF, '--no-dso-pairing', CWORK_B, CWORK_T])
    hint = 'share %d of %d function names: --dso-map %s matches them' % (
        len(nb & nt), max(len(nb), len(nt)), CWORK_MAP)
    assert all(hint in x for x in titles(refused)), (hint, titles(refused))
    rows = tables(refused)['Function self weight deltas']
    hash_rows = [r for r in rows if r['Function'] == 'hash_phase.constprop.0']
    assert sorted(value(r['DSO']) for r in hash_rows) == [old, new], hash_rows
    # a DSO of other names is not paired, but hinted at
    got = lami([DIFF, BASIC, RENAMED])
    assert all('baseline DSO /usr/bin/app paired with target DSO /opt/app-2.0/bin/app, '
               'a renamed binary (4 of 4 function names shared' in x for x in titles(got))
    assert all('DSOs only in the baseline (/lib/libc.so.6) and only in the target '
               '(/lib/libmusl.so.1): --dso-map OLD=NEW matches a renamed one' in x
               for x in titles(got))


def renamed_libraries(path, prefix, n):
    """n DSOs PREFIX/libI.so of functions fI_0..fI_3, a stack fI_0 <- fI_1
    and one fI_2 <- fI_3 in each."""
    lines = [{'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'perf',
              'frame_order': 'leaf_to_root', 'stack_id_mode': 'local',
              'events': [{'name': 'cpu-clock', 'kind': 'software',
                          'sampling': {'mode': 'period', 'primary_metric': 'period'}}]}]
    for d in range(n):
        lines.append({'type': 'dso', 'id': d + 1, 'name': '%s/lib%d.so' % (prefix, d)})
        for i in range(4):
            lines.append({'type': 'frame', 'id': 4 * d + i + 1, 'func': 'f%d_%d' % (d, i),
                          'dso': d + 1})
        for i in (0, 2):
            lines.append({'type': 'stack', 'id': 's%d_%d' % (d, i),
                          'frames': [4 * d + i + 2, 4 * d + i + 1], 'context': {'event': 'cpu-clock'},
                          'weights': [{'metric': 'period', 'value': 1000 * (d + 1) + i}]})
    with open(path, 'w') as f:
        f.write(''.join(json.dumps(x) + '\n' for x in lines))


@check
def many_renamed_libraries_are_all_paired():
    """Five libraries moved from /old to /new: each pairs (4 of 4 names),
    every call path matches; the titles name three pairs and count the
    rest."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, 'a.spaa'), os.path.join(tmp, 'b.spaa')
        renamed_libraries(a, '/old', 5)
        renamed_libraries(b, '/new', 5)
        doc = lami([DIFF, a, b])
    summary = tables(doc)['Baseline and target'][0]
    assert (summary['Matched stacks'], summary['New stacks'], summary['Gone stacks']) == (10, 0, 0)
    title = doc['results'][0]['class']['title']
    assert title.count('a renamed binary (4 of 4 function names shared') == 3, title
    assert '; 2 more DSO pairs paired alike' in title, title


@check
def baseline_option_forms_agree():
    target = os.path.join(DATA, 'diff_doubled.spaa')
    plain = lami([DIFF, BASIC, target])
    for args in (['--baseline=' + BASIC, target], ['--baseline', BASIC, target],
                 [target, '--baseline', BASIC]):
        assert lami([DIFF] + args) == plain, args


@check
def swapping_sides_negates_deltas():
    a, b = BASIC, os.path.join(DATA, 'diff_newgone.spaa')
    fwd = tables(lami([DIFF, '--normalize', 'none', a, b]))['Function self weight deltas']
    rev = tables(lami([DIFF, '--normalize', 'none', b, a]))['Function self weight deltas']
    def key(r):
        return r['Function'], value(r['DSO'])

    def deltas(r):
        return value(r['Raw delta']), value(r['Share delta'])
    f = {key(x): deltas(x) for x in fwd}
    r = {key(x): deltas(x) for x in rev}
    assert f.keys() == r.keys()
    for k in f:
        assert close(f[k][0], -r[k][0]) and close(f[k][1], -r[k][1]), (k, f[k], r[k])


@check
def limit_keeps_a_prefix():
    full = lami([DIFF, CWORK_B, CWORK_T])['results']
    for n in (1, 2, 5):
        limited = lami([DIFF, '--limit', str(n), CWORK_B, CWORK_T])['results']
        for lt, ft in zip(limited, full):
            assert lt['data'] == ft['data'][:n], n


@check
def protocol_modes_keep_stderr_clean():
    for args in ([DIFF, '--mi-version'], [DIFF, '--metadata'],
                 [DIFF, '--test-compatibility', BASIC],
                 [DIFF, '--test-compatibility', os.path.join(DATA, 'bad', 'junk.spaa')]):
        _, _, err = run(args)
        assert err == '', '%s wrote to stderr: %r' % (args, err)
    assert run([DIFF, '--test-compatibility', BASIC])[:2] == (0, '')


finish()

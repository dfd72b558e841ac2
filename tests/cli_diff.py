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
import subprocess
from clitest import check, finish, lami, run

DIFF = './spaa-diff'
DATA = 'tests/data'
BASIC = os.path.join(DATA, 'basic.spaa')
CWORK_B = os.path.join(DATA, 'diff_cwork_baseline.spaa.zst')
CWORK_T = os.path.join(DATA, 'diff_cwork_hashslow.spaa.zst')
CWORK_MAP = '/tmp/ceo/diff/cwork=/tmp/ceo/diff/cwork_hashslow'
PAIRS = [
    (BASIC, os.path.join(DATA, 'diff_renumbered.spaa'), []),
    (BASIC, os.path.join(DATA, 'diff_doubled.spaa'), []),
    (BASIC, os.path.join(DATA, 'diff_newgone.spaa'), []),
    (os.path.join(DATA, 'diff_alloc_base.spaa'), os.path.join(DATA, 'diff_alloc_target.spaa'), []),
    (CWORK_B, CWORK_T, []),
    (CWORK_B, CWORK_T, ['--dso-map', CWORK_MAP]),
]


def tables(doc):
    """{title: rows}, the title's part before the event."""
    out = {}
    for t in doc['results']:
        c = t['class']
        title = c if isinstance(c, str) else c['title']
        out[title.split(' (event')[0]] = t['data']
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


def side(path, dso_map=None):
    """Self and total per (func, dso), weight per path, of the first event."""
    header, dsos, frames, stacks = records(path)
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
    """delta, share delta, relative change, in raw units."""
    bn = b if mode == 'none' else b * T / B
    delta = t - bn
    return delta, t / T - b / B, (delta / bn if b else None)


def close(x, y):
    if x is None or y is None:
        return x is y
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-6)


@check
def reference_recomputation():
    """Every function, inclusive and stack row agrees with Python."""
    for base, target, extra in PAIRS:
        dso_map = dict(x.split('=', 1) for x in extra[1::2])
        bs, bt, bp, B = side(base, dso_map)
        ts, tt, tp, T = side(target)
        for mode in ('share', 'total', 'none'):
            got = tables(lami([DIFF, '--normalize', mode] + extra + [base, target]))
            where = '%s vs %s %s' % (base, target, mode)
            for name, bsum, tsum in (('Function self weight deltas', bs, ts),
                                     ('Function total weight deltas', bt, tt)):
                rows = got[name]
                keys = {k for k in set(bsum) | set(tsum) if bsum.get(k) or tsum.get(k)}
                assert len(rows) == len(keys), (where, name, len(rows), len(keys))
                deltas = []
                for row in rows:
                    k = (row[0], value(row[1]))
                    b, t = bsum.get(k, 0), tsum.get(k, 0)
                    d, sd, rel = expected(b, t, B, T, mode)
                    assert value(row[3]) == t, (where, name, row)
                    assert close(value(row[7]), sd), (where, name, row, sd)
                    assert close(value(row[8]), rel), (where, name, row, rel)
                    deltas.append(abs(d))
                    # ns and bytes: the class unit is the raw unit here
                    assert close(value(row[4]), d), (where, name, row, d)
                assert deltas == sorted(deltas, reverse=True) or all(
                    a >= b - 1e-6 for a, b in zip(deltas, deltas[1:])), (where, name)
            rows = got['Call path deltas']
            assert len(rows) == len(set(bp) | set(tp)), (where, len(rows))
            statuses = {'new': 0, 'gone': 0}
            for row in rows:
                if row[5] in statuses:
                    statuses[row[5]] += 1
            summary = got['Baseline and target'][0]
            assert value(summary[2]) == B and value(summary[3]) == T, (where, summary)
            assert (summary[8], summary[9]) == (len(set(tp) - set(bp)), len(set(bp) - set(tp))), \
                (where, summary)
            assert statuses == {'new': summary[8], 'gone': summary[9]}, (where, statuses)
            assert summary[7] == len(set(tp) & set(bp)), (where, summary)


@check
def injected_slowdown_tops_the_ranking():
    """cwork_hashslow: hash_phase 20.7 % -> 45.0 % (perf report)."""
    for extra in ([], ['--dso-map', CWORK_MAP]):
        got = tables(lami([DIFF] + extra + [CWORK_B, CWORK_T]))
        top = got['Function self weight deltas'][0]
        assert top[0] == 'hash_phase.constprop.0', (extra, top)
        assert value(top[4]) > 0, top
        path = got['Call path deltas'][0]
        assert path[0].endswith(';hash_phase.constprop.0'), path
    # matched across the renamed executable: one row, both shares
    assert abs(value(top[5]) - 0.207) < 0.001 and abs(value(top[6]) - 0.450) < 0.001, top
    assert path[5] == 'changed', path


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
    f = {(r[0], value(r[1])): (value(r[4]), value(r[7])) for r in fwd}
    r = {(x[0], value(x[1])): (value(x[4]), value(x[7])) for x in rev}
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

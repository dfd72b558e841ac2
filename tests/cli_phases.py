#!/usr/bin/env python3
"""End-to-end checks of spaa-phases that golden files cannot express.

The synthetic profiles of tests/make_phases_data.py have known phase
boundaries; each check prints "ok NAME" or "FAIL NAME" with the reason,
and the run ends with "N passed, M failed".  Run from the repository root
(make check does).
"""
import gzip
import json
import os
import random
import re
import tempfile
import clitest
from clitest import check, finish, run

PH = './spaa-phases'
DATA = 'tests/data'
ABIA = os.path.join(DATA, 'phases_abia.spaa')
SHIFTED = os.path.join(DATA, 'phases_shifted.spaa')
SINGLE = os.path.join(DATA, 'phases_single.spaa')
WINDOWS = os.path.join(DATA, 'phases_windows.spaa')
NS = 10**9
# true boundaries (ns) of the synthetic files, see make_phases_data.py
ABIA_TRUE = [103 * NS, 105 * NS, 106 * NS]
SHIFTED_TRUE = [52_383_000_000, 54_193_000_000]


def table(doc, name):
    for t in doc['results']:
        c = t['class']
        title = c if isinstance(c, str) else c['title']
        if title == name or title.startswith(name + ' (') or \
                (isinstance(c, dict) and c.get('inherit') == name):
            return t
    return None


def val(cell):
    return cell['value'] if isinstance(cell, dict) and 'value' in cell else cell


def phases(doc):
    """[(begin, end, kind)] of the phases table."""
    return [(r[2]['begin'], r[2]['end'], r[1]) for r in table(doc, 'Phases')['data']]


def width(doc):
    r = table(doc, 'Timeline')['data'][0][0]
    return r['end'] - r['begin'] + 1


def boundaries_near(doc, truth, what):
    got = [b for b, _, _ in phases(doc)[1:]]
    w = width(doc)
    assert len(got) == len(truth), '%s: boundaries %s, want near %s' % (what, got, truth)
    for g, t in zip(got, truth):
        assert abs(g - t) <= w, '%s: boundary %d is more than a bin (%d) from %d' % (what, g, w, t)


def samples_of(path):
    """(count, sum of periods) of the sample records, read independently."""
    n = per = 0
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            if rec['type'] == 'sample':
                n += 1
                per += rec['period']
    return n, per


def lami(args):
    return clitest.lami([PH] + args)


@check
def known_boundaries_within_one_bin():
    for args in ([], ['--bins', '40'], ['--bins', '80'], ['--bin-width', '70ms'],
                 ['--bin-width', '1s', '--min-phase', '1s']):
        boundaries_near(lami(args + [ABIA]), ABIA_TRUE, 'abia %s' % args)
        kinds = [k for _, _, k in phases(lami(args + [ABIA]))]
        assert kinds == ['active', 'active', 'idle', 'active'], kinds
    for args in ([], ['--bins', '30'], ['--bin-width', '250ms'], ['--bin-width', '100ms']):
        boundaries_near(lami(args + [SHIFTED]), SHIFTED_TRUE, 'shifted %s' % args)


@check
def no_header_time_range_adapts():
    """Without time_range the grid starts at 1 us and coarsens; same phases."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.spaa')
        with open(ABIA) as f, open(path, 'w') as g:
            for i, line in enumerate(f):
                g.write(re.sub(r',"time_range":\{[^}]*\}', '', line) if i == 0 else line)
        doc = lami([path])
        boundaries_near(doc, ABIA_TRUE, 'abia without time_range')


@check
def sample_order_does_not_matter():
    rnd = random.Random(7)
    with open(ABIA) as f:
        lines = f.readlines()
    head = [l for l in lines if '"sample"' not in l]
    samples = [l for l in lines if '"sample"' in l]
    rnd.shuffle(samples)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.spaa.gz')
        with gzip.open(path, 'wt') as g:
            g.writelines(head[:6] + samples + head[6:])
        assert lami([path])['results'] == lami([ABIA])['results']


@check
def weights_are_conserved():
    for path in (ABIA, SHIFTED, SINGLE, os.path.join(DATA, 'samples.spaa')):
        n, per = samples_of(path)
        doc = lami(['--by-thread', path])
        ph = table(doc, 'Phases')['data']
        tl = table(doc, 'Timeline')['data']
        assert sum(val(r[4]) for r in ph) == n, path
        assert sum(val(r[5]) for r in ph) == per, path
        assert sum(val(r[2]) for r in tl) == n, path
        assert sum(val(r[3]) for r in tl) == per, path
        by_phase = {}
        for r in table(doc, 'Weight per thread in each phase')['data']:
            by_phase[r[0]] = by_phase.get(r[0], 0) + val(r[2])
        for r in ph:
            assert by_phase.get(r[0], 0) == val(r[5]), (path, r[0])
        for r in ph:
            for share in (r[7], r[9]):
                assert share.get('class') == 'unknown' or 0 <= val(share) <= 1


@check
def single_phase():
    for args in ([], ['--bins', '100'], ['--bin-width', '50ms']):
        ph = phases(lami(args + [SINGLE]))
        assert len(ph) == 1, (args, ph)


@check
def max_phases_and_min_phase():
    assert len(phases(lami(['--max-phases', '3', ABIA]))) == 3
    assert len(phases(lami(['--max-phases', '1', ABIA]))) == 1
    # the idle second is shorter than --min-phase: not a phase of its own
    kinds = [k for _, _, k in phases(lami(['--min-phase', '1500ms', ABIA]))]
    assert kinds == ['active'] * 3, kinds


@check
def begin_end():
    whole = lami([ABIA])
    ranged = lami(['--begin', '0', '--end', str(2**62), ABIA])
    # the bins cover the profile's span either way: the same rows
    assert [t['data'] for t in whole['results']] == [t['data'] for t in ranged['results']]
    doc = lami(['--begin', str(103 * NS), '--end', str(106 * NS - 1), ABIA])
    assert table(doc, 'Phases')['time-range'] == {'class': 'time-range', 'begin': 103 * NS,
                                                 'end': 106 * NS - 1}
    ph = phases(doc)
    assert [k for _, _, k in ph] == ['active', 'idle'], ph
    assert ph[0][0] == 103 * NS and ph[1][1] == 106 * NS - 1, ph
    # a window without samples: the window, no phases, a title saying so
    doc = lami(['--begin', '0', '--end', '5', ABIA])
    assert [t['data'] for t in doc['results']] == [[], []], doc
    assert table(doc, 'Phases')['time-range'] == {'class': 'time-range', 'begin': 0,
                                                 'end': 5}
    assert 'no samples between --begin 0 and --end 5 ns' in \
        table(doc, 'Timeline')['class']['title'], doc


@check
def windows_table():
    doc = lami([WINDOWS])
    rows = table(doc, 'Time windows')['data']
    assert [(r[0], val(r[3]), r[4], val(r[5])) for r in rows] == [
        ('w1', 400_000_000, 'main;A', 0.75), ('w2', 400_000_000, 'main;A', 0.5),
        ('w3', 500_000_000, 'main;B', 0.8)], rows
    rows = table(lami(['--begin', str(NS + 1), '--end', str(2 * NS - 1), WINDOWS]),
                 'Time windows')['data']
    assert [r[0] for r in rows] == ['w2'], rows


@check
def counts_when_samples_lack_periods():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.spaa')
        with open(ABIA) as f, open(path, 'w') as g:
            for i, line in enumerate(f):
                if i == 20:
                    line = re.sub(r',"period":\d+', '', line)
                g.write(line)
        doc = lami([path])
        t = table(doc, 'Phases')
        assert 'missing from some samples' in t['class']['title'], t['class']
        assert [val(r[5]) for r in t['data']] == [300, 200, 0, 200]


@check
def limit_bounds_rows():
    for n in (1, 2, 3):
        doc = lami(['--limit', str(n), '--by-thread', ABIA])
        full = lami(['--by-thread', ABIA])
        for t, f in zip(doc['results'], full['results']):
            assert t['data'] == f['data'][:n]


@check
def deterministic():
    for path in (ABIA, SHIFTED, SINGLE):
        assert run([PH, '--by-thread', path]) == run([PH, '--by-thread', path])


def related_profile(late):
    """Samples of a user stack (leaf u) whose related kernel stack (leaf k)
    goes on top: named by the stack's record before the samples, or, when
    late, by a second record of it after them."""
    hdr = {'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'perf',
           'frame_order': 'leaf_to_root', 'stack_id_mode': 'content_addressable',
           'events': [{'name': 'c', 'kind': 'software',
                       'sampling': {'mode': 'period', 'primary_metric': 'period'}}]}
    lines = [hdr, {'type': 'dso', 'id': 1, 'name': 'd'},
             {'type': 'dso', 'id': 2, 'name': '[kernel.kallsyms]', 'is_kernel': True},
             {'type': 'frame', 'id': 1, 'func': 'u', 'dso': 1},
             {'type': 'frame', 'id': 2, 'func': 'k', 'dso': 2}]
    w = [{'metric': 'period', 'value': 10}]
    kst = {'type': 'stack', 'id': 'K', 'frames': [2], 'stack_type': 'kernel',
           'context': {'tid': 1}, 'weights': w}
    ust = {'type': 'stack', 'id': 'U', 'frames': [1], 'stack_type': 'user',
           'context': {'tid': 1}, 'weights': w}
    if not late:
        ust['related_stacks'] = ['K']
    lines += [kst, ust]
    lines += [{'type': 'sample', 'timestamp': 1 + i / 10, 'stack_id': 'U', 'period': 1}
              for i in range(10)]
    if late:
        lines.append(dict(ust, related_stacks=['K'], context={'tid': 2}))
    return ''.join(json.dumps(x) + '\n' for x in lines)


@check
def related_kernel_stack_labels_the_samples():
    with tempfile.TemporaryDirectory() as d:
        for late, top, warned in ((False, 'k', False), (True, 'u', True)):
            path = os.path.join(d, 'r.spaa')
            with open(path, 'w') as f:
                f.write(related_profile(late))
            rc, out, err = run([PH, path])
            assert rc == 0, err
            assert table(json.loads(out), 'Phases')['data'][0][6] == top, (late, out)
            assert ('related kernel stack only after' in err) == warned, err


finish()

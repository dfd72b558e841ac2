#!/usr/bin/env python3
"""End-to-end checks of SPX reports as input (common/formats/spx_reader.h).

Each check prints "ok NAME" or "FAIL NAME" with the reason; the run ends
with "N passed, M failed".  Run from the repository root (make check does).
"""
import glob
import json
import os
import sys
from clitest import check, finish, lami, run

HOT = './spaa-hotspots'
SPX = 'tests/data/spx'
HAND = sorted(glob.glob(os.path.join(SPX, '*.json')))
CORPUS = sorted(glob.glob(os.path.join(SPX, 'corpus', '*', '*.json')))


def tables(doc):
    return [(t['class']['title'], t['data']) for t in doc['results']]


def total(doc):
    """The sum of the stacks table: the whole weight."""
    for title, data in tables(doc):
        if title.startswith('Hot call paths'):
            return sum(r[1]['value'] for r in data)
    raise AssertionError('no stacks table')


@check
def reference_recomputation():
    """Every metric of every report agrees exactly with an independent replay."""
    rc, out, _ = run([sys.executable, 'tests/spx_reference.py', HOT] + HAND + CORPUS)
    assert rc == 0, '\n'.join(l for l in out.splitlines() if not l.startswith('ok'))


@check
def either_file_of_the_pair():
    for j in HAND + CORPUS[:3]:
        a = run([HOT, j])
        b = run([HOT, j[:-5] + '.txt.gz'])
        assert a == b, j


def without_samples(doc):
    """Tables without "Self samples" and "Calls": samples unknown without a
    range and counted with one, calls the other way round (the records
    count them, the slices of a range cannot)."""
    return [(title.split(' (')[0], [r[:-2] for r in rows] if title.startswith('Functions') else rows)
            for title, rows in tables(doc)]


@check
def whole_range_equals_no_filter():
    """The timeline slices fold to exactly the records' sums."""
    for j in HAND + CORPUS:
        rc, out, _ = run([HOT, '--limit', 'unlimited', j])
        if rc:
            continue        # the report without calls
        plain = json.loads(out)
        ranged = lami([HOT, '--limit', 'unlimited', '--begin', '0', '--end', str(2**62), j])
        assert without_samples(plain) == without_samples(ranged), j


@check
def ranges_partition_the_run():
    """Slices are placed at their start: two halves add up to the whole."""
    for j in [os.path.join(SPX, 'basic.json')] + CORPUS[:6]:
        doc = lami([HOT, '--limit', 'unlimited', j])
        whole = total(doc)
        begin, end = doc['results'][0]['time-range']['begin'], doc['results'][0]['time-range']['end']
        mid = (begin + end) // 2
        parts = 0
        for args in (['--begin', str(begin), '--end', str(mid)],
                     ['--begin', str(mid + 1), '--end', str(end)]):
            rc, out, _ = run([HOT, '--limit', 'unlimited'] + args + [j])
            if rc == 0:
                parts += total(json.loads(out))
        assert parts == whole, (j, parts, whole)


@check
def compatibility_probe():
    rc, out, err = run([HOT, '--test-compatibility', os.path.join(SPX, 'basic.txt.gz')])
    assert (rc, out, err) == (0, '', ''), (rc, out, err)
    empty = glob.glob(os.path.join(SPX, 'corpus', '25_zero_functions', '*.json'))[0]
    rc, out, err = run([HOT, '--test-compatibility', empty])
    assert rc == 1 and err == '' and 'error-code' in json.loads(out), (rc, out, err)


@check
def progress_covers_both_files():
    j = [c for c in CORPUS if '02_recursion' in c][0]
    rc, out, _ = run([HOT, '--output-progress', j])
    lines = out.splitlines()
    first = lines.index('{') if '{' in lines else next(
        i for i, l in enumerate(lines) if l.startswith('{'))
    values = [float(l.split()[0]) for l in lines[:first]]
    assert values and values[0] == 0 and values[-1] == 1 and values == sorted(values), values


@check
def directory_tells_processes_apart():
    doc = lami([HOT, '--limit', 'unlimited', SPX])
    threads = [t for t in doc['results'] if t['class']['title'].startswith('Weight per process')]
    assert threads, doc
    pids = sorted(r[0]['pid'] for r in threads[0]['data'])
    assert pids == [4242, 5151, 6161, 7171], pids
    assert total(doc) == 100 + 31 + 20 + 18


@check
def unbalanced_is_noted_on_stderr():
    rc, out, err = run([HOT, os.path.join(SPX, 'unbalanced.json')])
    assert rc == 0 and err.count('\n') == 1 and 'still open' in err, (rc, err)


@check
def deep_recursion_and_large_counts():
    j = [c for c in CORPUS if '26_deep' in c][0]
    doc = lami([HOT, '--limit', '1', j])
    paths = [d for t, d in tables(doc) if t.startswith('Hot call paths')][0]
    assert paths, doc


finish()

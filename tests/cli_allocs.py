#!/usr/bin/env python3
"""End-to-end checks of spaa-allocs that golden files cannot express.

Each check prints "ok NAME" or "FAIL NAME" with the reason; the run ends
with "N passed, M failed".  Run from the repository root (make check does).
"""
import json
import os
import re
import sys
from clitest import check, finish, lami, run

PROG = './spaa-allocs'
DATA = 'tests/data'
PROFILES = [os.path.join(DATA, f) for f in sorted(os.listdir(DATA))
            if re.match(r'allocs_.*\.spaa(\.gz|\.zst)?$', f)] + [os.path.join(DATA, 'alloc.spaa')]
V8 = [os.path.join(DATA, 'allocs_v8_heapsnapshot.spaa.gz'),
      os.path.join(DATA, 'allocs_v8_heaptimeline.spaa.gz')]
FREES = os.path.join(DATA, 'allocs_frees.spaa')
CPU = os.path.join(DATA, 'basic.spaa')


def tables(doc):
    return {(t['class'] if isinstance(t['class'], str) else t['class']['inherit']): t['data']
            for t in doc['results']}


def v(cell):
    return cell['value'] if isinstance(cell, dict) and 'value' in cell else cell


@check
def reference_recomputation():
    """Sites, bytes, counts and shares agree with tests/allocs_reference.py."""
    rc, out, _ = run([sys.executable, 'tests/allocs_reference.py', PROG] + PROFILES)
    assert rc == 0, out


@check
def v8_top_site():
    """The closing note of the README: top V8 allocation site and its bytes."""
    rc, out, _ = run([sys.executable, 'tests/allocs_reference.py', PROG] + V8)
    assert rc == 0, out
    assert 'top site next ((program)): 18593704 bytes' in out, out
    assert 'top site next ((program)): 63217176 bytes' in out, out
    for path in V8:
        t = tables(lami([PROG, path]))
        assert set(t) == {'sites'}, 'no frees tracked: no leaks, no pids: %s' % set(t)
        assert all(isinstance(c, dict) and c['class'] == 'unknown'
                   for row in t['sites'] for c in row[4:9]), 'live/free/peak must be unknown'


@check
def limit_bounds_rows():
    for path in PROFILES:
        full = tables(lami([PROG, path]))
        for n in (1, 2, 3):
            limited = tables(lami([PROG, '--limit', str(n), path]))
            assert limited.keys() == full.keys(), path
            for name in full:
                assert limited[name] == full[name][:n], '%s --limit %d: %s' % (path, n, name)


@check
def whole_range_equals_no_filter():
    plain = tables(lami([PROG, FREES]))
    ranged = tables(lami([PROG, '--begin', '0', '--end', str(2**62), FREES]))
    for name in ('sites', 'leaks', 'processes'):
        assert plain[name] == ranged[name], name


@check
def timeline_adds_up():
    """Whatever the bins, they hold every sample's period exactly once."""
    sites = tables(lami([PROG, FREES]))['sites']
    allocated = sum(v(r[2]) for r in sites)
    freed = sum(v(r[4]) for r in sites)
    for bins in (1, 2, 3, 4, 7, 20, 1000, 10000):
        rows = tables(lami([PROG, '--bins', str(bins), FREES]))['timeline']
        assert len(rows) <= bins
        assert sum(v(r[1]) for r in rows) == allocated, bins
        assert sum(v(r[2]) for r in rows) == freed, bins
        assert sum(v(r[4]) for r in rows) == 11, bins
        assert all(v(r[3]) == v(r[1]) - v(r[2]) for r in rows), bins
        edges = [(r[0]['begin'], r[0]['end']) for r in rows]
        assert edges[0][0] == 1000 and edges[-1][1] == 2000, edges
        assert all(a[1] == b[0] for a, b in zip(edges, edges[1:])), edges


@check
def invariants():
    for path in PROFILES:
        t = tables(lami([PROG, path]))
        for name, rows in t.items():
            for row in rows:
                for cell in row:
                    if isinstance(cell, dict) and cell.get('class') == 'ratio':
                        assert 0 <= cell['value'] <= 1, (path, name, row)
        for row in t.get('leaks', []):
            assert 0 < v(row[1]) <= v(row[3]), (path, row)
        for row in t['sites']:
            if not isinstance(v(row[6]), dict):
                assert v(row[6]) <= v(row[2]) or v(row[2]) == 0, (path, row)
        if 'processes' in t:
            assert sum(v(r[1]) for r in t['processes']) == sum(v(r[2]) for r in t['sites'])


@check
def compatibility():
    for path in PROFILES:
        rc, out, err = run([PROG, '--test-compatibility', path])
        assert (rc, out, err) == (0, '', ''), (path, rc, out, err)
    rc, out, err = run([PROG, '--test-compatibility', CPU])
    assert rc == 1 and err == '', (rc, err)
    obj = json.loads(out)
    assert obj['error-code'] == 'incompatible', obj
    assert CPU in obj['error-message'] and 'not a memory profile' in obj['error-message'], obj


@check
def protocol_modes_keep_stderr_clean():
    for args in ([PROG, '--mi-version'], [PROG, '--metadata'],
                 [PROG, '--test-compatibility', FREES],
                 [PROG, '--test-compatibility', CPU],
                 [PROG, '--test-compatibility', os.path.join(DATA, 'nope.spaa')]):
        _, _, err = run(args)
        assert err == '', '%s wrote to stderr: %r' % (args, err)


@check
def failures_print_one_object_and_one_stderr_line():
    for args, code in (([PROG, CPU], 1), ([PROG, '--skip', '(', FREES], 2),
                       ([PROG, '--sort', 'x', FREES], 2), ([PROG, '--bins', '0', FREES], 2)):
        rc, out, err = run(args)
        assert rc == code, (args, rc)
        obj = json.loads(out)
        assert set(obj) == {'error-code', 'error-message'}, obj
        assert err.count('\n') == 1 and err.startswith('spaa-allocs: error: '), err


@check
def stdin_and_compression_same_answer():
    base = tables(lami([PROG, FREES]))
    rc, out, _ = run([PROG, '-'], stdin=FREES)
    assert rc == 0 and tables(json.loads(out)) == base


@check
def man_page_lists_the_default_allocator_patterns():
    man = open('man/spaa-allocs.1').read().replace('\\-', '-')
    src = open('common/analysis/memory.c').read()
    block = src[src.index('spaa_memory_default_skip[] = {'):src.index('NULL,\n};')]
    pats = re.findall(r'^\t"(.*)",$', block, re.M)
    assert len(pats) >= 10, pats
    for pat in pats:
        pat = pat.replace('\\\\', '\\')
        assert pat.replace('\\', '\\e').replace('-', '\\-') in open('man/spaa-allocs.1').read() \
            or pat in man, 'pattern %s not in the man page' % pat


finish()

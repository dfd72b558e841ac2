#!/usr/bin/env python3
"""End-to-end checks of the programs that golden files cannot express.

Each check is a function; each prints "ok NAME" or "FAIL NAME" with the
reason, and the run ends with "N passed, M failed".  Run from the
repository root (make check does).
"""
import json
import os
import re
import sys
from clitest import check, finish, lami, run

HOT = './spaa-hotspots'
DATA = 'tests/data'
PROFILES = [os.path.join(DATA, f) for f in sorted(os.listdir(DATA))
            if re.search(r'\.spaa(\.gz|\.zst)?$', f)]


def data_of(doc):
    return [(t['class'] if isinstance(t['class'], str) else
             t['class'].get('inherit') or t['class']['title'].split(' (')[0], t['data'])
            for t in doc['results']]


@check
def reference_recomputation():
    """spaa-hotspots agrees with an independent Python computation."""
    rc, out, _ = run([sys.executable, 'tests/hotspots_reference.py', HOT] + PROFILES +
                     ['examples/cwork.spaa.zst'])
    assert rc == 0, out


@check
def limit_bounds_rows():
    for path in PROFILES:
        full = data_of(lami([HOT, path]))
        for n in (1, 2, 3):
            limited = data_of(lami([HOT, '--limit', str(n), path]))
            assert len(limited) == len(full), path
            for (name, rows), (_, all_rows) in zip(limited, full):
                assert rows == all_rows[:n], '%s --limit %d: %s is not a prefix' % (path, n, name)
        assert data_of(lami([HOT, '--limit', 'unlimited', path])) == full


@check
def whole_range_equals_no_filter():
    path = os.path.join(DATA, 'samples.spaa')
    plain = lami([HOT, path])
    ranged = lami([HOT, '--begin', '0', '--end', str(2**62), path])
    assert data_of(plain) == data_of(ranged)


@check
def same_profile_same_answer():
    """Frame order, compression and stdin do not change the tables."""
    base = data_of(lami([HOT, os.path.join(DATA, 'basic.spaa')]))
    for other in ('basic_root_to_leaf.spaa', 'basic.spaa.gz', 'basic.spaa.zst'):
        assert data_of(lami([HOT, os.path.join(DATA, other)])) == base, other
    assert data_of(lami([HOT, '-'], stdin=os.path.join(DATA, 'basic.spaa.zst'))) == base


@check
def shares_are_consistent():
    for path in PROFILES:
        for name, rows in data_of(lami([HOT, path])):
            for row in rows:
                for cell in row:
                    if isinstance(cell, dict) and cell.get('class') == 'ratio':
                        assert 0 <= cell['value'] <= 1, (path, name, row)


@check
def protocol_modes_keep_stderr_clean():
    """TC merges stderr into stdout for these modes."""
    for args in ([HOT, '--mi-version'], [HOT, '--metadata'],
                 [HOT, '--test-compatibility', os.path.join(DATA, 'basic.spaa')],
                 [HOT, '--test-compatibility', os.path.join(DATA, 'bad', 'junk.spaa')],
                 [HOT, '--test-compatibility', os.path.join(DATA, 'nope.spaa')]):
        _, out, err = run(args)
        assert err == '', '%s wrote to stderr: %r' % (args, err)
    rc, out, err = run([HOT, '--mi-version'])
    assert (rc, out) == (0, '1.0\n')
    rc, out, _ = run([HOT, '--test-compatibility', os.path.join(DATA, 'basic.spaa')])
    assert (rc, out) == (0, ''), 'compatible must print nothing'


@check
def failures_print_one_object_and_one_stderr_line():
    for bad in sorted(os.listdir(os.path.join(DATA, 'bad'))):
        path = os.path.join(DATA, 'bad', bad)
        rc, out, err = run([HOT, '--output-progress', path])
        assert rc == 1, (path, rc)
        lines = out.splitlines()
        first = next(i for i, l in enumerate(lines) if l.startswith('{'))
        assert all(re.fullmatch(r'(\*|[01]\.\d\d) .*', l) for l in lines[:first]), lines
        obj = json.loads('\n'.join(lines[first:]))
        assert set(obj) == {'error-code', 'error-message'}, obj
        assert path in obj['error-message'], obj
        assert err.count('\n') == 1 and err.startswith('spaa-hotspots: error: '), err


@check
def progress_lines():
    rc, out, _ = run([HOT, '--output-progress', 'examples/cwork.spaa.zst'])
    lines = out.splitlines()
    first = lines.index('{')
    values = [float(l.split()[0]) for l in lines[:first]]
    assert values and values[0] == 0 and values[-1] == 1, values
    assert values == sorted(values) and len(values) <= 102, values
    rc, out, _ = run([HOT, '--output-progress', '-'], stdin='examples/cwork.spaa.zst')
    lines = out.splitlines()
    assert lines[0].startswith('* '), lines[:2]


finish()

#!/usr/bin/env python3
"""End-to-end checks of --format text and csv and of the progress bar.

- CSV round trip: every analysis' CSV, read with Python's csv module, holds
  the values of its LAMI JSON output cell by cell (read with json).
- --limit: text tables hold at most N rows, as many as the LAMI tables.
- progress bar: drawn on stderr under a pseudo-terminal (python pty) with
  a percentage and MB/s, erased before the output; never when stderr is
  not a terminal, when CI is set, when TERM is dumb, nor for csv or LAMI.

Run from the repository root (make check does).
"""
import csv
import io
import json
import os
import re
import subprocess
from clitest import check, finish, lami, ok, run, run_on_terminal

DATA = 'tests/data'
CASES = [
    ['./spaa-hotspots', DATA + '/text_utf8.spaa'],
    ['./spaa-hotspots', DATA + '/basic.spaa'],
    ['./spaa-hotspots', '--pid', '7', DATA + '/text_utf8.spaa'],
    ['./spaa-hotspots', 'examples/cwork.spaa.zst'],
    ['./spaa-allocs', '--bins', '4', DATA + '/allocs_frees.spaa'],
    ['./spaa-allocs', DATA + '/allocs_v8_heaptimeline.spaa.gz'],
    ['./spaa-phases', DATA + '/phases_abia.spaa'],
    ['./spaa-phases', DATA + '/phases_windows.spaa'],
    ['./spaa-diff', DATA + '/basic.spaa', DATA + '/diff_doubled.spaa'],
    ['./spaa-diff', DATA + '/diff_alloc_base.spaa', DATA + '/diff_alloc_target.spaa'],
    ['./spaa-diff', DATA + '/diff_newgone.spaa', DATA + '/basic.spaa'],
]


def table_classes(doc, meta):
    """(name or None, title, column descriptions) of each result table."""
    for t in doc['results']:
        c = t['class']
        if isinstance(c, str):
            k = meta['table-classes'][c]
            yield c, k['title'], k['column-descriptions']
        elif 'inherit' in c:
            k = meta['table-classes'][c['inherit']]
            yield c['inherit'], c['title'], k['column-descriptions']
        else:
            raise AssertionError('an inline table class: %r' % c)


def csv_blocks(text):
    """Lists of records, one per table (tables are split by an empty line)."""
    blocks, cur = [], []
    for rec in csv.reader(io.StringIO(text, newline=''), strict=True):
        if rec == []:
            blocks.append(cur)
            cur = []
        else:
            cur.append(rec)
    blocks.append(cur)
    return blocks


def fields_of(cell, cls):
    """The CSV fields a JSON cell must become, as Python values."""
    width = {'time-range': 2, 'process': 3}.get(cls, 1)
    if cell is None or (isinstance(cell, dict) and cell['class'] == 'unknown'):
        return [''] * width
    if isinstance(cell, bool):
        return ['true' if cell else 'false']
    if isinstance(cell, (int, float, str)):
        return [cell]
    k = cell['class']
    if k == 'time-range':
        return [cell['begin'], cell['end']]
    if k == 'process':
        return [cell.get('name', ''), cell.get('pid', ''), cell.get('tid', '')]
    if k == 'path':
        return [cell['path']]
    if k == 'cpu':
        return [cell['id']]
    return [cell['value']]


def same(field, want):
    """A CSV field against the JSON value: numbers compared as numbers."""
    if isinstance(want, bool) or isinstance(want, str):
        return field == want
    if isinstance(want, int):
        return re.fullmatch(r'-?\d+', field) is not None and int(field) == want
    return float(field) == want


@check
def csv_round_trip():
    """CSV holds the LAMI values cell by cell, with the unit in the header."""
    metas = {}
    checked = 0
    for case in CASES:
        prog = case[0]
        if prog not in metas:
            metas[prog] = lami([prog, '--metadata'])
        doc = lami(case)
        blocks = csv_blocks(ok(case[:1] + ['--format', 'csv'] + case[1:]))
        tables = list(table_classes(doc, metas[prog]))
        assert len(blocks) == len(tables), (case, len(blocks), len(tables))
        for res, (name, title, cols), block in zip(doc['results'], tables, blocks):
            where = '%s table %r' % (' '.join(case), title)
            assert block[0][1] == title, (where, block[0])
            if name:
                assert block[0][0] == name, (where, block[0])
            header, rows = block[1], block[2:]
            want_header = []
            for j, c in enumerate(cols):
                if c['class'] == 'mixed':
                    # the results name the class; a weight column's unit
                    # follows from its cells where their class has one
                    kinds = {d[j]['class'] for d in res['data']
                             if isinstance(d[j], dict) and d[j]['class'] != 'unknown'}
                    unit = {'duration': 'ns', 'size': 'bytes', 'ratio': 'fraction'}.get(
                        kinds.pop() if len(kinds) == 1 else None)
                    if unit:
                        want_header.append('%s (%s)' % (c['title'], unit))
                    else:   # ints and numbers: the unit is the metric's
                        assert re.fullmatch(re.escape(c['title']) + r'( \(.+\))?',
                                            header[len(want_header)]), (where, header)
                        want_header.append(header[len(want_header)])
                elif c['class'] == 'time-range':
                    want_header += [c['title'] + ' begin (ns)', c['title'] + ' end (ns)']
                elif c['class'] == 'process':
                    want_header += [c['title'] + s for s in (' name', ' pid', ' tid')]
                else:
                    unit = {'duration': 'ns', 'timestamp': 'ns', 'size': 'bytes',
                            'ratio': 'fraction'}.get(c['class'], c.get('unit'))
                    want_header.append(c['title'] + (' (%s)' % unit if unit else ''))
            assert header == want_header, (where, header, want_header)
            assert len(rows) == len(res['data']), (where, len(rows))
            for row, data in zip(rows, res['data']):
                want = [f for cell, c in zip(data, cols)
                        for f in fields_of(cell, c['class'])]
                assert len(row) == len(want), (where, row, want)
                for field, w in zip(row, want):
                    assert same(field, w), (where, field, w, row)
                    checked += 1
    assert checked > 1000, checked


def text_tables(text):
    """(title, rows) per table of --format text output."""
    out = []
    for block in text.rstrip('\n').split('\n\n'):
        if block.startswith('# '):     # the header (cli_header.py)
            continue
        lines = block.split('\n')
        assert re.fullmatch(r'-+(  -+)*', lines[2]), lines[:3]
        out.append((lines[0], lines[3:]))
    return out


@check
def text_limit_honoured():
    path = 'examples/cwork.spaa.zst'
    # --wide: fitted to a width, fewer rows may keep more columns
    full = text_tables(ok(['./spaa-hotspots', '--format', 'text', '--wide', path]))
    assert max(len(rows) for _, rows in full) > 3, 'the limit would not cut'
    for n in (1, 3):
        doc = lami(['./spaa-hotspots', '--limit', str(n), path])
        limited = text_tables(ok(['./spaa-hotspots', '--format', 'text', '--wide',
                                  '--limit=%d' % n, path]))
        assert [len(rows) for _, rows in limited] == \
            [len(t['data']) for t in doc['results']], (n, limited)
        # the same first rows; widths may differ, so compare the cells
        cells = lambda rows: [re.split(r'  +', r.strip()) for r in rows]
        for (title, rows), (ftitle, frows) in zip(limited, full):
            assert title == ftitle and cells(rows) == cells(frows[:n]), (title, rows)


@check
def text_errors_leave_stdout_empty():
    rc, out, err = run(['./spaa-phases', '--format', 'text', DATA + '/basic.spaa'])
    assert rc == 1 and out == '' and 'spaa-phases: error: ' in err, (rc, out, err)
    rc, out, err = run(['./spaa-diff', '--format', 'csv', DATA + '/basic.spaa'])
    assert rc == 2 and out == '' and 'error: ' in err, (rc, out, err)
    # a --format after the mistake counts too; the last one given wins
    for args, lami in ((['--bogus', '--format', 'text'], False), (['--bogus', '--format=csv'], False),
                       (['--format', 'text', '--bogus', '--format', 'lami'], True),
                       (['--bogus', '--', '--format', 'text'], True)):
        rc, out, err = run(['./spaa-hotspots'] + args)
        assert rc == 2 and "error: unknown option '--bogus'" in err, (args, rc, err)
        assert (json.loads(out)['error-code'] == 'usage') if lami else out == '', (args, out)
    # the other programs report usage errors on stderr only
    for prog in ('convert', 'validate', 'report', 'tracecompass-setup'):
        rc, out, err = run(['./spaa-' + prog, '--bogus'])
        assert rc == 2 and out == '' and err.startswith(
            "spaa-%s: error: unknown option '--bogus'" % prog), (prog, rc, out, err)


def under_pty(args, env_changes, stdin=None):
    """(exit status, stdout, stderr) with stderr on a pseudo-terminal."""
    env = dict(os.environ)
    env.pop('CI', None)
    env['TERM'] = 'xterm'
    for k, v in env_changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return run_on_terminal(args, 'stderr', env, stdin)


BAR = re.compile(r'\r\x1b\[K\[[#-]{30}\] +\d{1,3} %  \d+\.\d MB/s')
TEXT = ['./spaa-hotspots', '--format', 'text', DATA + '/basic.spaa']


@check
def progress_bar_on_a_terminal():
    plain = ok(TEXT)
    rc, out, err = under_pty(TEXT, {})
    assert rc == 0, err
    assert BAR.search(err), repr(err)
    # erased before the results: the last thing on the terminal is the erase
    assert err.endswith('\r\x1b[K'), repr(err[-40:])
    assert out == plain, 'the bar changed stdout'
    # unknown size (stdin): bytes read and throughput, no percentage
    rc, out, err = under_pty(TEXT[:-1] + ['-'], {}, stdin=DATA + '/basic.spaa')
    assert rc == 0 and re.search(r'\d+\.\d MB read  \d+\.\d MB/s', err), repr(err)
    # the header names the path: '-' here
    assert out == plain.replace('# Profile: %s/basic.spaa' % DATA, '# Profile: -'), out


@check
def no_progress_bar_elsewhere():
    # stderr not a terminal (a pipe), even with TERM set and CI unset
    env = dict(os.environ, TERM='xterm')
    env.pop('CI', None)
    p = subprocess.run(TEXT, stdin=subprocess.DEVNULL, capture_output=True, env=env)
    assert p.returncode == 0 and p.stderr == b'', p.stderr
    for changes, args in (({'CI': 'true'}, TEXT), ({'TERM': 'dumb'}, TEXT),
                          ({'TERM': None}, TEXT),
                          ({}, TEXT[:1] + ['--format=csv'] + TEXT[3:]),
                          ({}, TEXT[:1] + TEXT[3:]),
                          ({}, TEXT[:1] + ['--output-progress'] + TEXT[3:])):
        rc, out, err = under_pty(args, changes)
        assert rc == 0 and err == '', (changes, args, repr(err))


finish()

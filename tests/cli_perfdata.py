#!/usr/bin/env python3
"""perf.data read through perf script (formats/perf_data.h).

tests/data/perf/busy.perf.data was recorded here with
`perf record -e cpu-clock -F 999 -g` of busy.c.txt (tests/data/README-perf.md).
Symbols of the program itself resolve only where it was built, so the
checks compare each program on the perf.data with the same program on
the text `perf script` prints of it on this machine: the two must agree
whatever perf resolves.  Without perf the comparison cannot run and says
so; the error a missing perf gives is checked either way.
"""
import gzip
import json
import os
import shutil
import subprocess
import tempfile

from clitest import ANALYSES, check, finish, ok, run

DATA = 'tests/data/perf/busy.perf.data'
TMP = tempfile.mkdtemp(prefix='cli_perfdata.')
PERF = shutil.which('perf')


def perf_text():
    path = os.path.join(TMP, 'busy.perf')
    if not os.path.exists(path):
        with open(path, 'wb') as f:
            subprocess.run(['perf', 'script', '--force', '-i', DATA, '-F', '+pid,+period'],
                           stdout=f, stderr=subprocess.DEVNULL, check=True)
    return path


def without_perf(args):
    """(status, stdout) of args with a PATH that holds no perf."""
    empty = os.path.join(TMP, 'empty')
    os.makedirs(empty, exist_ok=True)
    p = subprocess.run(args, env=dict(os.environ, PATH=empty), capture_output=True,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode()


@check
def analyses_read_perf_data_as_its_perf_script_text():
    if not PERF:
        print('    (perf is not installed: comparison not run)')
        return
    text = perf_text()
    for prog in ANALYSES:
        n = 2 if prog == 'spaa-diff' else 1
        rc1, got, _ = run(['./' + prog, '--limit', 'unlimited'] + [DATA] * n)
        rc2, exp, _ = run(['./' + prog, '--limit', 'unlimited'] + [text] * n)
        assert rc1 == rc2 and got.replace(DATA, 'X') == exp.replace(text, 'X'), prog
    assert ok(['./spaa-convert', '--to', 'folded', DATA]) == \
        ok(['./spaa-convert', '--to', 'folded', text])
    # 61 samples of cpu-clock (perf record said "61 samples")
    h = json.loads(ok(['./spaa-convert', DATA]).splitlines()[0])
    assert h['events'][0]['name'] == 'cpu-clock', h
    recs = [json.loads(l) for l in ok(['./spaa-convert', DATA]).splitlines()]
    assert sum(1 for r in recs if r['type'] == 'sample') == 61


@check
def missing_perf_is_a_clear_error():
    for args in (['./spaa-hotspots', DATA], ['./spaa-convert', DATA]):
        rc, out = without_perf(args)
        assert rc == 1, (args, rc, out)
        if args[0] == './spaa-hotspots':
            doc = json.loads(out)
            assert doc['error-code'] == 'io-error', doc
            msg = doc['error-message']
            assert msg.startswith(DATA + ': ') and 'perf is not installed' in msg \
                and "'perf script -i " in msg, msg


@check
def perf_failure_is_reported_with_its_message():
    if not PERF:
        print('    (perf is not installed: not run)')
        return
    cut = os.path.join(TMP, 'cut.perf.data')
    with open(DATA, 'rb') as f, open(cut, 'wb') as g:
        g.write(f.read(2000))
    rc, out, _ = run(['./spaa-hotspots', cut])
    doc = json.loads(out)
    assert rc == 1 and doc['error-message'].startswith(cut + ': perf script failed'), doc


@check
def compressed_perf_data_is_refused():
    gz = os.path.join(TMP, 'busy.perf.data.gz')
    with open(DATA, 'rb') as f, gzip.open(gz, 'wb') as g:
        g.write(f.read())
    rc, out, _ = run(['./spaa-hotspots', gz])
    doc = json.loads(out)
    assert rc == 1 and 'uncompressed' in doc['error-message'], doc


shutil.rmtree(TMP, ignore_errors=True)
finish()

#!/usr/bin/env python3
"""End-to-end checks of the formats the loader reads besides SPAA and SPX:
every analysis reads them directly, as it reads their SPAA conversion.

Run from the repository root (make check does).
"""
import json
import os
import shutil
import tempfile

from clitest import ANALYSES, check, finish, ok, run

CONV = './spaa-convert'
HOT = './spaa-hotspots'
DATA = 'tests/data'
SMALL = os.path.join(DATA, 'convert_small.perf')
FOLDED = os.path.join(DATA, 'convert_small.folded')
DWARF = os.path.join(DATA, 'convert_cwork_dwarf.perf-script.txt.gz')
TMP = tempfile.mkdtemp(prefix='cli_load.')


def converted(src):
    dst = os.path.join(TMP, os.path.basename(src) + '.spaa')
    if not os.path.exists(dst):
        ok([CONV, '-o', dst, src])
    return dst


def results(args, name=None, as_name=None):
    """The results object of a run, or the error object, with its status;
    the path name in an error message written as as_name."""
    rc, out, _ = run(args)
    if name:
        out = out.replace(name, as_name)
    return rc, json.loads(out)


def value(cell):
    return cell['value'] if isinstance(cell, dict) else cell


@check
def every_analysis_reads_them_as_their_conversion():
    for src in (SMALL, FOLDED, DWARF):
        spaa = converted(src)
        for prog in ANALYSES:
            n = 2 if prog == 'spaa-diff' else 1
            got = results(['./' + prog, '--limit', 'unlimited'] + [src] * n)
            exp = results(['./' + prog, '--limit', 'unlimited'] + [spaa] * n,
                          spaa, src)
            assert got == exp, '%s on %s differs from its run on %s' % (
                prog, src, spaa)


@check
def time_range_filters_perf_samples():
    # the cycles samples of convert_small.perf between 10.000000300 and
    # 10.000000600 s: 3000 (tid 101) and 1000 (tid 102), both work <- main
    doc = json.loads(ok([HOT, '--begin', '10000000300', '--end', '10000000600',
                         '--limit', 'unlimited', SMALL]))
    fns = {r[0]: (value(r[2]), value(r[4]))
           for r in doc['results'][0]['data']}
    assert fns == {'work': (4000, 4000), 'main': (0, 4000)}, fns


@check
def folded_counts_are_the_weights():
    # convert_small.folded by hand: work 3+1 self, do_syscall_64 2, mix 1;
    # main is in every line (7)
    doc = json.loads(ok([HOT, '--limit', 'unlimited', FOLDED]))
    fns = {r[0]: (value(r[2]), value(r[4]))
           for r in doc['results'][0]['data']}
    assert fns == {'work': (4, 6), 'do_syscall_64': (2, 2), 'mix': (1, 1),
                   'main': (0, 7), 'fill': (0, 1)}, fns


@check
def errors_name_the_input_not_a_temporary_file():
    rc, doc = results([HOT, os.path.join(DATA, 'convert_bad.perf')])
    assert rc == 1 and doc['error-code'] == 'parse-error', doc
    assert doc['error-message'].startswith('tests/data/convert_bad.perf:3: '), doc
    rc, doc = results([HOT, os.path.join(DATA, 'convert_bad.folded')])
    assert rc == 1 and doc['error-message'].startswith(
        'tests/data/convert_bad.folded:'), doc


@check
def content_decides_not_the_name():
    # perf script text named like a SPAA file, alone in a directory
    d = os.path.join(TMP, 'dir')
    os.mkdir(d)
    shutil.copy(SMALL, os.path.join(d, 'a.spaa'))
    got = results([HOT, '--limit', 'unlimited', d])
    exp = results([HOT, '--limit', 'unlimited', SMALL])
    assert got == exp and got[0] == 0, got


@check
def validate_reads_only_spaa():
    rc, out, _ = run(['./spaa-validate', SMALL])
    assert rc == 1, (rc, out)


shutil.rmtree(TMP, ignore_errors=True)
finish()

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


# A directory's files under names no profile has, each told by content
# (name in the directory: the file it copies).
MIXED = {
    'cpu': 'pprof/go_cpu.pb.gz',
    'node.json': 'v8/node_work.cpuprofile',
    'heap.data': 'v8/node_sampling.heapprofile',
    'run.log': 'basic.spaa',
    'stacks.txt': 'convert_small.folded',
    'trace.out': 'convert_small.perf',
    'zz.txt': 'dtrace/pid_keys.txt',
}
# Not profiles, each skipped with a warning: notes whose second line
# parses as folded stacks ("run 1"), JSON that is not a V8 profile, an
# SPX event file without its metadata (.txt.gz), an empty file.
NOT_PROFILES = {
    'NOTES.md': b'# notes\nrun 1\n',
    'package.json': b'{"name": "x", "version": "1.0.0"}\n',
    'spx-orphan.txt.gz': None,
    'empty': b'',
}


def mixed_dir(name, with_profiles=True):
    d = os.path.join(TMP, name)
    os.mkdir(d)
    for n, src in MIXED.items() if with_profiles else ():
        shutil.copy(os.path.join(DATA, src), os.path.join(d, n))
    for n, text in NOT_PROFILES.items():
        if text is None:
            shutil.copy(os.path.join(DATA, 'bad/spx_orphan_events',
                                     os.listdir(os.path.join(DATA, 'bad/spx_orphan_events'))[0]),
                        os.path.join(d, n))
        else:
            with open(os.path.join(d, n), 'wb') as f:
                f.write(text)
    with open(os.path.join(d, '.hidden'), 'w') as f:
        f.write('a;b 1\n')       # dot files are never read
    return d


@check
def directory_of_mixed_formats_loads_every_profile():
    """Each profile of the directory is read as when named alone: the
    directory gives what a directory of their SPAA conversions gives (the
    same order by name), every analysis; each file that is not a profile
    is skipped with one warning naming it."""
    d = mixed_dir('mixed')
    conv = os.path.join(TMP, 'mixed_spaa')
    os.mkdir(conv)
    for n, src in MIXED.items():
        ok([CONV, '-o', os.path.join(conv, n + '.spaa'), os.path.join(DATA, src)])
    for prog in ANALYSES:
        n = 2 if prog == 'spaa-diff' else 1
        rc, out, err = run(['./' + prog, '--limit', 'unlimited'] + [d] * n)
        # spaa-diff's summary names the directories
        exp = results(['./' + prog, '--limit', 'unlimited'] + [conv] * n, conv, d)
        assert (rc, json.loads(out)) == exp, prog
        skipped = sorted(l for l in err.splitlines() if 'skipped' in l)
        assert skipped == sorted(
            '%s: warning: %s: skipped: its content is not a profile in a format spaa-tools reads'
            % (prog, os.path.join(d, x)) for x in list(NOT_PROFILES) * n), (prog, err)
    # the merge holds every file's events
    merged = ok([CONV, d]).splitlines()
    events = {e['name'] for e in json.loads(merged[0])['events']}
    each = set()
    for src in MIXED.values():
        each |= {e['name'] for e in json.loads(ok([CONV, os.path.join(DATA, src)]).splitlines()[0])['events']}
    assert events == each and len(each) >= 5, (events, each)


@check
def directory_without_profiles_is_an_error():
    d = mixed_dir('no_profiles', with_profiles=False)
    rc, out, err = run([HOT, d])
    doc = json.loads(out)
    assert rc == 1 and doc['error-code'] == 'no-profile', (rc, out)
    assert doc['error-message'] == '%s: no profiles in directory: none of its 4 file(s) holds a format spaa-tools reads (spaa-tools(7), FORMATS)' % d, doc
    assert err.count('\n') == 1 and 'skipped' not in err, err
    rc, out, err = run(['./spaa-validate', d])
    assert rc == 1 and 'no SPAA profile' in err, (rc, out, err)


@check
def validate_reads_only_spaa():
    rc, out, _ = run(['./spaa-validate', SMALL])
    assert rc == 1, (rc, out)


shutil.rmtree(TMP, ignore_errors=True)
finish()

"""Errors and odd results say why (issues 19 and 21): a process, thread,
command or function the profile lacks is named with what it has, in
every analysis; a file of another format is said for what it looks like; --net shows no share
outside 0 to 100 %; an empty path is named as one; a key repeated in a
record is a warning (the first one counts, whether the sample fast path
or the general parser reads the line); SPX reports count calls.
"""
import gzip
import json
import os
import shutil
import tempfile

from clitest import check, finish, lami, ok, run

DATA = 'tests/data'
scratch = tempfile.mkdtemp(prefix='spaa-cli-why-')


@check
def a_thread_the_profile_lacks_lists_those_it_has():
    for args, which in ((['--tid', '99'], '--tid 99'), (['--pid', '5'], '--pid 5')):
        rc, out, err = run(['./spaa-hotspots'] + args + [DATA + '/basic.spaa'])
        assert rc == 1, (rc, err)
        doc = json.loads(out)
        # basic.spaa's thread records: 100/100 (app) and 100/101 (worker)
        assert doc['error-code'] == 'no-data' and doc['error-message'] == \
            '%s selects nothing: the profile has threads 100/100, 100/101 (pid/tid)' % which, doc
    # no thread records: the stack records' contexts (pid 7, tid 7)
    rc, out, err = run(['./spaa-hotspots', '--format', 'text', '--tid', '8',
                        DATA + '/multi_event.spaa'])
    assert rc == 1 and out == '' and \
        'error: --tid 8 selects nothing: the profile has thread 7/7 (pid/tid)' in err, err
    # a thread it has, in a window without its samples: the window's empty tables
    doc = lami(['./spaa-hotspots', '--tid', '101', '--begin', '10000000000', '--end',
                '10050000000', DATA + '/samples.spaa'])
    assert all(not t['data'] for t in doc['results']), doc


@check
def every_filter_that_selects_nothing_says_what_the_profile_has():
    # samples.spaa and allocs_sites.spaa: threads 100/100 'app', 100/101 'worker'
    # (and 200/200 'daemon' with a stack record of pid 200 alone in the latter)
    threads = {'samples': 'threads 100/100, 100/101 (pid/tid)',
               'allocs_sites': 'threads 100/100, 100/101, 200/200, 200/? (pid/tid)'}
    comms = {'samples': "'app', 'worker'", 'allocs_sites': "'app', 'worker', 'daemon'"}
    for prog, data in (('hotspots', 'samples'), ('phases', 'samples'),
                       ('allocs', 'allocs_sites')):
        path = '%s/%s.spaa' % (DATA, data)
        for args, msg in (
                (['--tid', '99'], '--tid 99 selects nothing: the profile has ' + threads[data]),
                (['--pid', '1', '--tid', '100'],
                 '--pid 1 --tid 100 selects nothing: the profile has ' + threads[data]),
                (['--comm', 'nope'],
                 "--comm 'nope' selects nothing: the profile's commands are " + comms[data]),
                (['--tid', '101', '--comm', 'app'],
                 "--tid 101 --comm 'app' selects nothing: that process or thread runs 'worker'")):
            rc, out, err = run(['./spaa-' + prog] + args + [path])
            doc = json.loads(out)
            assert rc == 1 and doc['error-code'] == 'no-data' and \
                doc['error-message'] == msg, (prog, args, rc, doc)
            rc, out, err = run(['./spaa-' + prog, '--format', 'text'] + args + [path])
            assert rc == 1 and out == '' and err == 'spaa-%s: error: %s\n' % (prog, msg), \
                (prog, args, rc, out, err)
        # a thread and command it has: results
        assert lami(['./spaa-' + prog, '--tid', '101', '--comm', 'worker', path])['results']
    # samples.spaa's functions: main, compute, parse, memcpy (4)
    for args, msg in (
            (['--focus', 'zzz'], "--focus 'zzz' selects nothing: it matches none of the "
             "profile's 4 functions"),
            (['--ignore', '.'], "--ignore '.' selects nothing: every stack selected passes "
             "through one of the 4 functions (of 4) that --ignore matches")):
        rc, out, err = run(['./spaa-hotspots'] + args + [DATA + '/samples.spaa'])
        assert rc == 1 and json.loads(out)['error-message'] == msg, (args, out)


@check
def an_event_or_metric_it_lacks_lists_those_it_has():
    # multi_event.spaa: events 'cycles' and 'page-faults'; cycles' records weigh
    # 'samples' and 'period'
    path = DATA + '/multi_event.spaa'
    for prog, extra in (('hotspots', []), ('phases', []), ('diff', [path]),
                        ('convert', ['--to', 'folded'])):
        rc, out, err = run(['./spaa-' + prog] + extra + ['--event', 'nope', path])
        assert rc in (1, 2) and "'nope'" in err and \
            "'cycles', 'page-faults')" in err, (prog, rc, err)
        rc, out, err = run(['./spaa-' + prog] + extra + ['--metric', 'nope', path])
        assert rc in (1, 2) and "'nope'" in err and "'samples', 'period')" in err, \
            (prog, rc, err)
    # a converted input (folded stacks): its one event
    rc, out, err = run(['./spaa-convert', '--to', 'folded', '--event', 'nope',
                        DATA + '/convert_small.folded'])
    assert rc == 2 and "no event 'nope' in the input (it has 'folded')" in err, err


@check
def a_file_of_another_format_says_what_it_is():
    formats = ('; the tools read SPAA, perf script, perf.data, folded stacks, pprof, '
               'V8, DTrace and SPX (spaa-tools(7))')
    cases = (
        ('prog', b'\x7fELF\x02\x01\x01' + bytes(64), '',
         "it looks like an ELF executable, library or core file; profile the program "
         "with 'perf record -g' and give the perf.data it writes"),
        ('page.html', b'\n<!DOCTYPE html>\n<html></html>\n', ':2',
         'it looks like an HTML page (a report or a flame graph?); give the profile it '
         'was made from'),
        ('top.csv', b'function,self\nmain,3\n', ':1', 'it looks like comma-separated values' +
         formats),
        ('notes.txt', b'Hello world\n', ':1',
         "the line is not an SPAA record, a perf script sample header or folded stacks "
         "('a;b;c COUNT')" + formats),
    )
    for name, data, line, what in cases:
        path = os.path.join(scratch, name)
        with open(path, 'wb') as f:
            f.write(data)
        msg = '%s%s: not a profile: %s' % (path, line, what)
        for prog in ('hotspots', 'phases', 'allocs', 'convert'):
            rc, out, err = run(['./spaa-' + prog, path])
            # spaa-convert never reads it as folded stacks
            assert rc == 1 and err == 'spaa-%s: error: %s\n' % (prog, msg), (prog, rc, err)
            if prog != 'convert':
                doc = json.loads(out)
                assert doc['error-code'] == 'parse-error' and doc['error-message'] == msg, doc
    # spaa-validate: one finding, not a page of invalid JSON
    rc, out, err = run(['./spaa-validate', os.path.join(scratch, 'prog'),
                        DATA + '/convert_small.folded'])
    assert rc == 1 and out == (
        '%s: error: not a profile: %s\n%s: invalid: 1 error, 0 warnings\n'
        "%s: error: not SPAA but folded stacks, which the analyses read as it is and "
        "'spaa-convert' writes as SPAA; spaa-validate checks SPAA files and SPX reports\n"
        '%s: invalid: 1 error, 0 warnings\n' % (
            os.path.join(scratch, 'prog'), cases[0][3], os.path.join(scratch, 'prog'),
            DATA + '/convert_small.folded', DATA + '/convert_small.folded')), repr(out)
    # a call path gone wrong is folded stacks, whose reader says what is wrong
    path = os.path.join(scratch, 'bad.folded')
    with open(path, 'w') as f:
        f.write('main;work three\n')
    for prog in ('hotspots', 'convert'):
        rc, out, err = run(['./spaa-' + prog, path])
        assert rc == 1 and "%s:1: folded count 'three' is not a non-negative integer" % path \
            in err, (prog, err)


@check
def net_shares_stay_within_0_and_100():
    spx = [os.path.join(DATA, 'spx/corpus/06_memory_zm_alloc_free', f)
           for f in os.listdir(DATA + '/spx/corpus/06_memory_zm_alloc_free')
           if f.endswith('.json')][0]
    doc = lami(['./spaa-hotspots', '--net', '--metric', 'zm', spx])
    funcs = doc['results'][0]
    nets = {r[0]: r[2] for r in funcs['data']}
    total = sum(nets.values())
    assert total > 0 and any(v < 0 for v in nets.values()) and \
        any(v > total for v in nets.values()), (total, nets)
    for r in funcs['data']:
        share, net = r[3], r[2]
        if 0 <= net <= total:
            assert abs(share['value'] - net / total) < 1e-9, (r, total)
        else:
            assert share == {'class': 'unknown'}, r
    assert 'shares of the net total where they are between 0 and 100 %' in \
        funcs['class']['title']


@check
def an_empty_path_is_named():
    for prog in ('./spaa-hotspots', './spaa-validate', './spaa-convert'):
        rc, out, err = run([prog, ''])
        # spaa-validate reports on stdout, the others on stderr
        assert rc == 1 and ("an empty path ('') names no file or directory" in
                            (out if 'validate' in prog else err)), (prog, out, err)
    assert run(['./spaa-validate', ''])[1].startswith("'': error: an empty path"), \
        run(['./spaa-validate', ''])


@check
def a_repeated_key_warns_and_the_first_counts():
    lines = open(DATA + '/samples.spaa').read().split('\n')
    at = next(i for i, l in enumerate(lines) if '"type":"sample"' in l)
    # the first sample's period twice: 1000000, then 7
    lines[at] = lines[at].replace('}', ',"period":7}')
    path = os.path.join(scratch, 'repeated.spaa')
    with open(path, 'w') as f:
        f.write('\n'.join(lines))
    rc, out, err = run(['./spaa-validate', path])
    assert rc == 0 and '%s:%d: warning: key \'period\' appears twice in one object; ' \
        'the first one counts' % (path, at + 1) in out, (rc, out, err)
    rc, out, err = run(['./spaa-validate', '--json', path])
    f = json.loads(out)['files'][0]
    assert f['warnings'] == 1 and f['valid'], f
    # the weights are those of the original file: the first period counts
    plain = lami(['./spaa-hotspots', '--begin', '0', DATA + '/samples.spaa'])
    rc, out, err = run(['./spaa-hotspots', '--begin', '0', path])
    assert rc == 0 and json.loads(out) == plain and "'period' appears twice" in err, err


def column(cls, title):
    meta = json.loads(ok(['./spaa-hotspots', '--metadata']))
    return [c['title'] for c in meta['table-classes'][cls]['column-descriptions']].index(title)


def spx_calls(txt):
    """Entries per function name, counted from the event lines."""
    with gzip.open(txt, 'rt') as f:
        text = f.read()
    events, names = text.split('[functions]\n')
    names = names.split('\n')
    calls = {}
    for line in events.split('\n')[1:]:
        if line and line.split()[1] == '1':
            name = names[int(line.split()[0])]
            calls[name] = calls.get(name, 0) + 1
    return calls


@check
def spx_reports_count_calls():
    CALLS = column('functions', 'Calls')
    for name in ('basic', 'recursion'):
        want = spx_calls('%s/spx/%s.txt.gz' % (DATA, name))
        doc = lami(['./spaa-hotspots', '%s/spx/%s.json' % (DATA, name)])
        got = {r[0]: r[CALLS] for r in doc['results'][0]['data']}
        assert got == want, (name, got, want)
    assert spx_calls(DATA + '/spx/basic.txt.gz') == {'main': 1, 'a': 1, 'b': 2}
    text = ok(['./spaa-hotspots', '--format', 'text', DATA + '/spx/basic.json'])
    assert '# Total: 100 ns in 4 calls' in text, text
    assert text.split('\n\n')[1].split('\n')[1].split()[-1] == 'Calls', text
    # not SPX: no calls, and no column of them in text
    doc = lami(['./spaa-hotspots', DATA + '/basic.spaa'])
    assert all(r[CALLS] == {'class': 'unknown'} for r in doc['results'][0]['data'])
    assert 'Calls' not in ok(['./spaa-hotspots', '--format', 'text', DATA + '/basic.spaa'])


shutil.rmtree(scratch, ignore_errors=True)
finish()

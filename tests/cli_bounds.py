"""Bounded memory and time on hostile input (issue 21): spaa-validate
folds repeated findings with flat memory, a header of many events is read
in linear time and within SPAA_MAX_EVENTS, a zstd window is checked
against SPAA_MAX_ZSTD_WINDOW.

Memory is measured as in cli_manyfiles.py: the peak RSS of the child
(ru_maxrss), compared between a small and a large input; under valgrind
or a sanitizer, where RSS is mostly the tool's, only the results are
checked.  Time is bounded by
RLIMIT_CPU, generous for linear work and far too small for quadratic
work (not a timing test: no clock is read).
"""
import json
import os
import resource
import subprocess
import threading

from clitest import RSS_IS_THE_PROGRAMS, SLOWDOWN, check, finish, run

BASIC = open('tests/data/basic.spaa').read().split('\n')
HEADER = json.loads(BASIC[0])


def child(args, feed=None, env=None, cpu=None):
    """(exit status, stdout, stderr, peak RSS in kB) of args; feed, a
    function given the stdin pipe, writes the input."""
    def limit():
        if cpu:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    p = subprocess.Popen(args, stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, **(env or {})), preexec_fn=limit)
    def write():
        try:
            feed(p.stdin)
            p.stdin.close()
        except BrokenPipeError:     # the program stopped reading: an error
            pass
    if feed:
        t = threading.Thread(target=write)
        t.start()
    out, err = [], []
    ts = [threading.Thread(target=lambda: out.append(p.stdout.read())),
          threading.Thread(target=lambda: err.append(p.stderr.read()))]
    for x in ts:
        x.start()
    _, status, usage = os.wait4(p.pid, 0)
    for x in ts:
        x.join()
    if feed:
        t.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, out[0].decode(), err[0].decode(), usage.ru_maxrss


def bad_lines(n):
    """A feed: the basic profile's definitions, then n lines of findings
    of three shapes (an unknown record type, a sample naming no stack, a
    stack with a negative weight)."""
    def feed(f):
        f.write(('\n'.join(BASIC[:10]) + '\n').encode())
        block = (b'{"type":"mystery","n":1}\n'
                 b'{"type":"sample","timestamp":100.5,"event":"cpu-clock"}\n'
                 b'{"type":"stack","id":"x","frames":[1],"context":{"event":"cpu-clock"},'
                 b'"weights":[{"metric":"period","value":-1}]}\n')
        whole, rest = divmod(n, 3)
        chunk = block * 10000
        for _ in range(whole // 10000):
            f.write(chunk)
        f.write(block * (whole % 10000))
        f.write(block[:sum(len(l) + 1 for l in block.decode().split('\n')[:rest])])
    return feed


@check
def validate_folds_findings_with_flat_memory():
    rc_small, out_small, _, rss_small = child(['./spaa-validate', '-'], bad_lines(60000))
    rc, out, err, rss = child(['./spaa-validate', '-'], bad_lines(5000000))
    assert rc == rc_small == 1, (rc, err)
    lines = out.split('\n')
    # ten of each of three shapes, then the summary
    assert len(lines) == 3 * 10 + 2 and lines[-1] == '', lines[:5] + lines[-5:]
    assert lines[0] == "-:11: warning: skipped a record of unknown type 'mystery'", lines[0]
    folded = [l for l in lines if 'more like it' in l]
    mystery, sample, stack = (5000000 + 2) // 3, (5000000 + 1) // 3, 5000000 // 3
    assert folded == [
        "-:%d: warning: skipped a record of unknown type 'mystery' (and %d more like it)"
        % (11 + 27, mystery - 10),
        "-:%d: error: 'sample' record has no 'stack_id' (and %d more like it)"
        % (11 + 28, sample - 10),
        "-:%d: error: 'value' in 'stack' record must be a non-negative integer below 2^64,"
        " not -1 (and %d more like it)"
        % (11 + 29, stack - 10)], folded
    assert lines[-2] == '-: invalid: %d errors, %d warnings' % (sample + stack, mystery), \
        lines[-2]
    if RSS_IS_THE_PROGRAMS:
        assert rss - rss_small < 16 * 1024, \
            'peak RSS %d kB on 5 M bad lines, %d kB on 60 k' % (rss, rss_small)
        assert rss < 64 * 1024, 'peak RSS %d kB on 5 M bad lines' % rss


@check
def validate_json_folds_too():
    rc, out, err, _ = child(['./spaa-validate', '--json', '-'], bad_lines(3000))
    assert rc == 1, err
    doc = json.loads(out)
    f = doc['files'][0]
    assert f['errors'] + f['warnings'] == 3000, f
    assert len(f['findings']) == 30, len(f['findings'])
    more = [x['more_like_it'] for x in f['findings'] if 'more_like_it' in x]
    assert more == [990, 990, 990], more
    assert [x['line'] for x in f['findings'] if 'more_like_it' in x] == [38, 39, 40]
    assert [x['line'] for x in f['findings']] == sorted(x['line'] for x in f['findings'])


def many_events(n, named):
    """A profile whose header declares n events; its stacks name event named."""
    h = dict(HEADER, events=[{'name': 'e%d' % i, 'kind': 'software',
                              'sampling': {'mode': 'period', 'primary_metric': 'period'}}
                             for i in range(n)])
    def feed(f):
        f.write((json.dumps(h) + '\n').encode())
        f.write(('\n'.join(BASIC[1:8]) + '\n').encode())
        for i in range(2000):
            f.write(('{"type":"stack","id":"s%d","frames":[%d],"context":{"event":"e%d"},'
                     '"weights":[{"metric":"period","value":%d}]}\n'
                     % (i, 1 + i % 3, named + i % 7 if n > 7 else 0, i + 1)).encode())
    return feed


@check
def header_of_many_events_is_linear():
    n = 200000
    # linear: well under a second; quadratic (before): minutes
    cpu = 30 * SLOWDOWN
    rc, out, err, _ = child(['./spaa-hotspots', '--limit', '1', '--event', 'e199990', '-'],
                            many_events(n, n - 10), env={'SPAA_MAX_EVENTS': str(n)}, cpu=cpu)
    assert rc == 0, (rc, err[-500:])
    doc = json.loads(out)
    row = doc['results'][0]['data'][0]
    # the stacks of e199990 are those with i % 7 == 0, of weight i + 1, on
    # frame 1 + i % 3 (main, parse, compute): the top function by self weight
    self_of = {}
    for i in range(0, 2000, 7):
        fn = ('main', 'parse', 'compute')[i % 3]
        self_of[fn] = self_of.get(fn, 0) + i + 1
    top = max(self_of, key=self_of.get)
    assert row[0] == top and row[2] == self_of[top], (row, self_of)


@check
def events_past_the_bound_are_an_error():
    rc, out, err, _ = child(['./spaa-hotspots', '-'], many_events(4, 0),
                            env={'SPAA_MAX_EVENTS': '3'})
    assert rc == 1, (rc, err)
    doc = json.loads(out)
    assert doc['error-code'] == 'limit-exceeded', doc
    assert doc['error-message'] == \
        '-:1: more than 3 events in the header: the limit (SPAA_MAX_EVENTS)', doc
    rc, out, err, _ = child(['./spaa-hotspots', '-'], many_events(3, 0),
                            env={'SPAA_MAX_EVENTS': '3'})
    assert rc == 0, (rc, err)


@check
def zstd_window_over_the_bound_says_how_to_raise_it():
    path = 'tests/data/limits/long31.spaa.zst'   # zstd --long=31 of basic.spaa
    rc, out, err = run(['./spaa-hotspots', path])
    assert rc == 1, (rc, err)
    doc = json.loads(out)
    assert doc['error-code'] == 'limit-exceeded', doc
    assert 'SPAA_MAX_ZSTD_WINDOW' in doc['error-message'] and \
        '128 MiB' in doc['error-message'], doc
    rc, out, err, _ = child(['./spaa-hotspots', path],
                            env={'SPAA_MAX_ZSTD_WINDOW': str(2 << 30)})
    assert rc == 0, (rc, err)
    rc, plain, err = run(['./spaa-hotspots', 'tests/data/basic.spaa'])
    assert out == plain
    rc, out, err, _ = child(['./spaa-validate', path],
                            env={'SPAA_MAX_ZSTD_WINDOW': str(2 << 30)})
    assert rc == 0 and out.startswith(path + ': valid'), (rc, out, err)


finish()

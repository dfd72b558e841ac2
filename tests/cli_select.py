#!/usr/bin/env python3
"""Which stacks an analysis looks at: --comm, --focus, --ignore,
--symbol-filter (pprof's and perf report's habits), end to end, and
--pid/--tid/--comm in spaa-phases and spaa-allocs too.

Expected weights are counted by hand from tests/data/basic.spaa:
  s1 main;parse;memcpy       thread 100 'app'     3 ms
  s2 main;compute            thread 101 'worker'  5 ms
  s3 main;compute;fib;fib;fib thread 101 'worker' 2 ms
  s4 main;parse              thread 100 'app'     1 ms
and tests/data/phases_abia.spaa (samples, folded in a --begin/--end
range): A on thread 'worker-a' 4 s, B on 'worker-b' 2 s, C on
'worker-c' 1 s.
"""
import json
import os
import tempfile
from fractions import Fraction

from clitest import check, finish, lami, run

BASIC = 'tests/data/basic.spaa'
ABIA = 'tests/data/phases_abia.spaa'
MS = 1000000


def table(results, cls):
    return next(t for t in results['results']
                if cls in (t['class'], t['class'].get('inherit')))


def hotspots(args, path=BASIC):
    """({function: (self, total)}, title) of spaa-hotspots' functions table."""
    t = table(lami(['./spaa-hotspots', '--format', 'lami'] + args + [path]), 'functions')
    return {r[0]: (r[2]['value'], r[4]['value']) for r in t['data']}, t['class']['title']


@check
def comm_keeps_the_threads_of_one_command():
    fns, title = hotspots(['--comm', 'worker'])
    assert fns == {'compute': (5 * MS, 7 * MS), 'fib': (2 * MS, 2 * MS),
                   'main': (0, 7 * MS)}, fns
    assert "command 'worker'" in title, title
    fns, _ = hotspots(['--comm', 'app'])
    assert fns == {'memcpy': (3 * MS, 3 * MS), 'parse': (1 * MS, 4 * MS),
                   'main': (0, 4 * MS)}, fns


@check
def focus_keeps_stacks_through_a_match():
    fns, title = hotspots(['--focus', 'compute'])
    assert fns == {'compute': (5 * MS, 7 * MS), 'fib': (2 * MS, 2 * MS),
                   'main': (0, 7 * MS)}, fns
    assert "stacks through 'compute'" in title, title
    # recursion: fib three times on s3, counted once toward its total
    fns, _ = hotspots(['--focus', '^fib$'])
    assert fns == {'fib': (2 * MS, 2 * MS), 'compute': (0, 2 * MS),
                   'main': (0, 2 * MS)}, fns
    # perf report's name for it
    assert hotspots(['--symbol-filter', 'parse'])[0] == \
        {'memcpy': (3 * MS, 3 * MS), 'parse': (1 * MS, 4 * MS), 'main': (0, 4 * MS)}


@check
def ignore_drops_stacks_through_a_match():
    fns, title = hotspots(['--ignore', 'fib'])
    assert fns == {'compute': (5 * MS, 5 * MS), 'memcpy': (3 * MS, 3 * MS),
                   'parse': (1 * MS, 4 * MS), 'main': (0, 9 * MS)}, fns
    assert "no stacks through 'fib'" in title, title
    # both: through main, not through memcpy or fib: s2 and s4
    fns, _ = hotspots(['--focus', 'main', '--ignore', 'memcpy|fib'])
    assert fns == {'compute': (5 * MS, 5 * MS), 'parse': (1 * MS, 1 * MS),
                   'main': (0, 6 * MS)}, fns
    # shares are of what is kept
    t = table(lami(['./spaa-hotspots', '--format', 'lami', '--ignore', 'fib', BASIC]),
              'functions')
    share = {r[0]: r[3]['value'] for r in t['data']}['compute']
    assert Fraction(share).limit_denominator(1000) == Fraction(5, 9), share


@check
def samples_in_a_range_are_selected_alike():
    rng = ['--begin', '100s', '--end', '108s']
    fns, _ = hotspots(rng + ['--comm', 'worker-c'], ABIA)
    assert fns == {'C': (1000 * MS, 1000 * MS), 'main': (0, 1000 * MS)}, fns
    fns, _ = hotspots(rng + ['--focus', '^[BC]$', '--ignore', 'C'], ABIA)
    assert fns == {'B': (2000 * MS, 2000 * MS), 'main': (0, 2000 * MS)}, fns
    # the same from the stack records, without a range
    assert hotspots(['--focus', '^[BC]$', '--ignore', 'C'], ABIA)[0] == fns


@check
def phases_and_allocs_take_pid_tid_comm():
    def timeline(prog, args, path):
        return table(lami([prog, '--format', 'lami'] + args + [path]), 'timeline')['data']

    # phases_abia: 400 samples of A on 11, 200 of B on 12, 100 of C on 13
    for args, n in [([], 700), (['--comm', 'worker-b'], 200), (['--tid', '13'], 100),
                    (['--pid', '10'], 700)]:
        rows = timeline('./spaa-phases', args, ABIA)
        assert sum(r[2] for r in rows) == n, (args, rows)
    r = lami(['./spaa-phases', '--format', 'lami', '--comm', 'worker-b', ABIA])
    assert "command 'worker-b'" in r['results'][0]['class']['title'], r['results'][0]['class']
    # allocs_frees: tid 300 ('server') allocates 100+200+300+400 and frees 50
    frees = 'tests/data/allocs_frees.spaa'
    for args in [['--tid', '300'], ['--comm', 'server']]:
        rows = timeline('./spaa-allocs', ['--begin', '0'] + args, frees)
        assert sum(r[1]['value'] for r in rows) == 1000, (args, rows)
        assert sum(r[2]['value'] for r in rows) == 50, (args, rows)
    # its sites from the stack records: 'io' (tid 301) allocated 600 in make_buffer
    sites = table(lami(['./spaa-allocs', '--format', 'lami', '--comm', 'io', frees]), 'sites')
    alloc = {r[0]: r[2]['value'] for r in sites['data']}
    assert alloc.get('make_buffer') == 600 and alloc.get('handle_request', 0) == 0, alloc
    sites = table(lami(['./spaa-allocs', '--format', 'lami', '--comm', 'server', frees]), 'sites')
    alloc = {r[0]: r[2]['value'] for r in sites['data']}
    assert alloc.get('handle_request') == 1000 and 'make_buffer' not in alloc, alloc


@check
def allocs_focus_and_ignore_select_sites():
    """By the site stack (allocator frames left out), so an allocation and
    the frees that meet it go together; from allocs_frees.spaa by hand:
    A1 main;handle_request 1000 B (4), A2 main;make_buffer 600 B (3),
    D1 frees 700 B (3) of main;handle_request, D2 50 B (1) of main;cleanup."""
    frees = 'tests/data/allocs_frees.spaa'

    def sites(args):
        r = lami(['./spaa-allocs', '--format', 'lami'] + args + [frees])
        t = table(r, 'sites')
        return t['class']['title'], {row[0]: (row[2]['value'], row[3], row[4]['value'], row[5])
                                     for row in t['data']}
    title, got = sites(['--focus', 'handle_request'])
    assert got == {'handle_request': (1000, 4, 700, 3)}, got
    assert "stacks through 'handle_request'" in title, title
    for args in (['--ignore', 'handle'], ['--symbol-filter', 'make_buffer|cleanup']):
        assert sites(args)[1] == {'make_buffer': (600, 3, 0, 0), 'cleanup': (0, 0, 50, 1)}, args
    # malloc and free are allocator frames, never a site stack's
    rc, out, _ = run(['./spaa-allocs', '--format', 'lami', '--focus', '^(malloc|free)$', frees])
    r = json.loads(out)
    assert rc == 0 and [table(r, 'timeline')] and \
        all(t['class']['inherit'] == 'timeline' for t in r['results']), out[:300]
    assert 'every stack: --focus/--ignore select sites' in r['results'][0]['class']['title']


@check
def phases_focus_ignore_and_label():
    """spaa-phases takes --focus/--ignore as every analysis does (only the
    samples whose stacks pass), and labels a stack by what --focus matched;
    --label REGEX labels without selecting.  ABIA by hand: 300 samples of A
    on worker-a until 103 s, 200 of B on worker-b until 105 s, then from
    106 s 100 of A (worker-a) and 100 of C (worker-c)."""
    def run_phases(args, path=ABIA):
        return lami(['./spaa-phases', '--format', 'lami', '--by-thread'] + args + [path])

    def threads(r):
        return sorted((row[0], row[1]['name'], row[2]['value'])
                      for row in table(r, 'phase-threads')['data'])
    r = run_phases(['--focus', '^(A|B)$'])
    assert sum(row[2] for row in table(r, 'timeline')['data']) == 600
    assert threads(r) == [(1, 'worker-a', 3 * 10**9), (2, 'worker-b', 2 * 10**9),
                          (4, 'worker-a', 10**9)], threads(r)
    r = run_phases(['--ignore', '^A$'])
    assert sum(row[2] for row in table(r, 'timeline')['data']) == 300
    assert [t[1] for t in threads(r)] == ['worker-b', 'worker-c'], threads(r)
    # phases_abia's stack records come after its samples: decided after the
    # pass; with the stack records first, decided as samples stream by
    lines = open(ABIA, encoding='utf-8').read().splitlines(True)
    stacks = [l for l in lines if '"type":"stack"' in l]
    first = next(i for i, l in enumerate(lines) if '"type":"sample"' in l)
    early = lines[:first] + stacks + [l for l in lines[first:] if l not in stacks]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'early.spaa')
        with open(path, 'w', encoding='utf-8') as f:
            f.writelines(early)
        for args in (['--focus', '^(A|B)$'], ['--ignore', '^A$'], ['--focus', 'main', '--ignore', 'C']):
            a, b = run_phases(args), run_phases(args, path)
            for t in b['results']:
                t['class']['title'] = t['class']['title'].replace(path, ABIA)
            assert a == b, args
    # --label: every sample, each labelled by its leaf-most match or not at all
    r = run_phases(['--label', '^(A|B)$', '--min-phase', '1500ms'])
    last = table(r, 'phases')['data'][-1]
    assert last[6] == 'A' and last[8] == '[no frame matches --label]', last
    assert sum(row[2] for row in table(r, 'timeline')['data']) == 700
    # samples all left out after the pass: said, as when left out at once
    rc, out, _ = run(['./spaa-phases', '--format', 'lami', '--ignore', '.', ABIA])
    assert rc == 1 and json.loads(out)['error-message'] == (
        "--ignore '.' selects nothing: every stack selected passes through one of the "
        "4 functions (of 4) that --ignore matches"), out
    # a profile without samples says that, whatever the selection
    rc, out, _ = run(['./spaa-phases', '--format', 'lami', '--ignore', 'zz', BASIC])
    assert rc == 1 and json.loads(out)['error-message'] == \
        "the profile has no time information: no 'sample' or 'window' records", out
    # --percent-limit: the (phase, thread) rows under P % of their phase
    for limit, kept in (('50', 2), ('50.1', 0)):
        r = run_phases(['--percent-limit', limit])
        rows = [t for t in threads(r) if t[0] == 4]
        assert len(rows) == kept, (limit, rows)


@check
def text_headers_say_what_is_selected():
    for prog, path, pid in (('./spaa-hotspots', BASIC, '100'), ('./spaa-phases', ABIA, '10'),
                            ('./spaa-allocs', 'tests/data/allocs_frees.spaa', '300')):
        rc, out, _ = run([prog, '--format', 'text', '--pid', pid, '--ignore', 'zz', path])
        header = [l for l in out.splitlines() if l.startswith('#')]
        assert rc == 0 and "# Selected: process %s, no stacks through 'zz'" % pid in header, \
            (prog, header)
    # nothing selected, no line
    rc, out, _ = run(['./spaa-hotspots', '--format', 'text', BASIC])
    assert rc == 0 and '# Selected' not in out


@check
def the_last_focus_counts():
    assert hotspots(['--focus', 'parse', '--focus', 'compute'])[0] == \
        hotspots(['--focus', 'compute'])[0]


@check
def a_regex_that_does_not_compile_is_a_usage_error():
    for opt in ['--focus', '--ignore', '--symbol-filter']:
        rc, out, err = run(['./spaa-hotspots', '--format', 'lami', opt, 'a(', BASIC])
        assert rc == 2, (opt, rc)
        assert json.loads(out)['error-message'] == \
            "invalid value 'a(' for '%s' (a POSIX extended regular expression)" % opt, out


finish()

#!/usr/bin/env python3
"""spaa-hotspots as perf report and pprof users drive it: --sort,
--percent-limit, --callers/--callees (pprof -peek), --inverted.

Expected values are counted by hand from tests/data/basic.spaa:
  s1 main;parse;memcpy        3 ms
  s2 main;compute             5 ms
  s3 main;compute;fib;fib;fib 2 ms
  s4 main;parse               1 ms
(total 11 ms; self: compute 5, memcpy 3, fib 2, parse 1; total: main 11,
compute 7, parse 4, memcpy 3, fib 2), and compared with go tool pprof
-peek on tests/data/pprof/go_cpu.pb.gz (its output is quoted below).
"""
import json
from fractions import Fraction

from clitest import check, finish, lami, run

BASIC = 'tests/data/basic.spaa'
GO_CPU = 'tests/data/pprof/go_cpu.pb.gz'
MS = 1000000


def tables(args, path=BASIC):
    r = lami(['./spaa-hotspots', '--format', 'lami'] + args + [path])
    return {t['class']['inherit']: t for t in r['results']}


def names(t):
    return [r[0] for r in t['data']]


@check
def sort_orders_the_functions_table():
    t = tables([])['functions']
    assert names(t) == ['compute', 'memcpy', 'fib', 'parse', 'main'], names(t)
    t = tables(['--sort', 'total'])['functions']
    assert names(t) == ['main', 'compute', 'parse', 'memcpy', 'fib'], names(t)
    assert t['class']['title'].startswith('Functions by total weight ('), t['class']
    t = tables(['--sort', 'name'])['functions']
    assert names(t) == ['compute', 'fib', 'main', 'memcpy', 'parse'], names(t)
    t = tables(['--sort', 'samples'])['functions']
    assert names(t) == ['compute', 'memcpy', 'fib', 'parse', 'main'], names(t)
    assert t['class']['title'].startswith('Functions by self samples ('), t['class']
    rc, out, _ = run(['./spaa-hotspots', '--format', 'lami', '--sort', 'cum', BASIC])
    assert rc == 2 and json.loads(out)['error-message'] == \
        "invalid value 'cum' for '--sort' (self, total, samples or name)", out


@check
def percent_limit_leaves_out_small_rows():
    t = tables(['--percent-limit', '20'])
    # 20 % of 11 ms is 2.2 ms: fib's 2 ms self is out
    assert names(t['functions']) == ['compute', 'memcpy'], names(t['functions'])
    assert names(t['stacks']) == ['main;compute', 'main;parse;memcpy'], names(t['stacks'])
    assert [r[0]['tid'] for r in t['threads']['data']] == [101, 100]
    # by the total with --sort total: parse's 4 ms is 36.4 %
    t = tables(['--sort', 'total', '--percent-limit', '27.27'])['functions']
    assert names(t) == ['main', 'compute', 'parse', 'memcpy'], names(t)
    t = tables(['--sort', 'total', '--percent-limit', '27.28'])['functions']
    assert names(t) == ['main', 'compute', 'parse'], names(t)
    assert names(tables(['--percent-limit', '0'])['functions']) == \
        names(tables([])['functions'])
    for bad in ['101', '-1', 'x', '5%']:
        rc, out, _ = run(['./spaa-hotspots', '--format', 'lami', '--percent-limit', bad, BASIC])
        assert rc == 2 and json.loads(out)['error-message'] == \
            "invalid value '%s' for '--percent-limit' (a percentage from 0 to 100)" % bad, out


def calls(t):
    return [(r[0], r[1], r[2]['value'], Fraction(r[3]['value']).limit_denominator(10000))
            for r in t['data']]


@check
def callers_and_callees_by_hand():
    t = tables(['--callers', 'compute|fib', '--callees', '^main$'])
    # fib calling fib is no edge; compute has the larger total, so comes first
    assert calls(t['callers']) == [('compute', 'main', 7 * MS, 1),
                                   ('fib', 'compute', 2 * MS, 1)], calls(t['callers'])
    assert calls(t['callees']) == [('main', 'compute', 7 * MS, Fraction(7, 11)),
                                   ('main', 'parse', 4 * MS, Fraction(4, 11))], calls(t['callees'])
    assert "functions matching 'compute|fib'" in t['callers']['class']['title']
    # only the tables asked for
    assert 'callers' not in tables([]) and 'callees' not in tables(['--callers', 'x'])
    # filters apply: without s3, fib has no caller left; parse keeps s1, s4
    t = tables(['--callers', 'fib|parse', '--ignore', 'fib'])
    assert calls(t['callers']) == [('parse', 'main', 4 * MS, 1)], calls(t['callers'])


@check
def callers_and_callees_match_pprof_peek():
    """go tool pprof -peek 'main\\.(phaseHash|mix)$' -unit=ns
    -nodefraction=0 -edgefraction=0 tests/data/pprof/go_cpu.pb.gz:

                                       830000000ns 57.24% |   main.main
                                       620000000ns 42.76% |   main.worker.func1
    1140000000ns 65.90% 65.90% 1450000000ns 83.82%   | main.phaseHash
                                       300000000ns 20.69% |   main.mix (inline)
                                        10000000ns  0.69% |   runtime.asyncPreempt
                                       300000000ns 96.77% |   main.phaseHash (inline)
                                        10000000ns  3.23% |   main.phaseSort (inline)
    270000000ns 15.61% 81.50% 310000000ns 17.92%     | main.mix
                                        40000000ns 12.90% |   runtime.asyncPreempt
    """
    re = r'main\.(phaseHash|mix)$'
    t = tables(['--callers', re, '--callees', re], GO_CPU)
    assert calls(t['callers']) == [
        ('main.phaseHash', 'main.main', 830000000, Fraction(830, 1450)),
        ('main.phaseHash', 'main.worker.func1', 620000000, Fraction(620, 1450)),
        ('main.mix', 'main.phaseHash', 300000000, Fraction(300, 310)),
        ('main.mix', 'main.phaseSort', 10000000, Fraction(10, 310)),
    ], calls(t['callers'])
    assert calls(t['callees']) == [
        ('main.phaseHash', 'main.mix', 300000000, Fraction(300, 1450)),
        ('main.phaseHash', 'runtime.asyncPreempt', 10000000, Fraction(10, 1450)),
        ('main.mix', 'runtime.asyncPreempt', 40000000, Fraction(40, 310)),
    ], calls(t['callees'])


@check
def callers_refuse_net_and_bad_regexes():
    rc, out, _ = run(['./spaa-hotspots', '--format', 'lami', '--callees', 'a(', BASIC])
    assert rc == 2 and json.loads(out)['error-message'] == \
        "invalid value 'a(' for '--callees' (a POSIX extended regular expression)", out


@check
def inverted_paths_read_leaf_first():
    t = tables(['--inverted'])['stacks']
    assert [(r[0], r[1]['value']) for r in t['data']] == [
        ('compute;main', 5 * MS), ('memcpy;parse;main', 3 * MS),
        ('fib;fib;fib;compute;main', 2 * MS), ('parse;main', 1 * MS)], t['data']
    assert 'leaf first' in t['class']['title'], t['class']


finish()

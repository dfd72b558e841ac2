#!/usr/bin/env python3
"""--begin/--end as people write them, end to end.

- Trace Compass' integer nanoseconds are unchanged; seconds with a
  fraction and a unit (795.1s, 120ms, 3us, 5ns; µs with U+00B5 or
  U+03BC) give the same results as the nanoseconds they stand for, in
  every analysis (spaa-diff cuts its target).
- +T counts from the profile's start: its header's time range (SPAA),
  its own start (V8 startTime, SPX exec time), else its first sample
  (perf script), known before the first sample is cut.
- Expected values are counted by hand from tests/data/phases_abia.spaa:
  a sample every 10 ms of 10 ms from 100.005 s (A until 103 s, B until
  105 s, nothing until 106 s, A and C until 108 s).
- A time that does not parse names the forms accepted.
"""
import json

from clitest import check, finish, lami, run

ABIA = 'tests/data/phases_abia.spaa'
FORMS = ("integer nanoseconds; seconds with a fraction and a unit: 795.1s, "
         "120ms, 3us (or 3\u00b5s), 5ns; or either after '+', from the profile's start: +1.5s")


def table(results, cls):
    return next(t for t in results['results']
                if cls in (t['class'], t['class'].get('inherit')))


def functions(args):
    """{function: (self ns, self samples)} of spaa-hotspots."""
    t = table(lami(['./spaa-hotspots', '--format', 'lami'] + args + [ABIA]), 'functions')
    return {r[0]: (r[2]['value'], r[6]) for r in t['data']}


@check
def units_and_offsets_cut_where_nanoseconds_do():
    # [103 s, 104.5 s]: B's samples 103.005 .. 104.495, 150 of 10 ms
    want = {'B': (1500000000, 150), 'main': (0, 0)}
    ns = ['--begin', '103000000000', '--end', '104500000000']
    assert functions(ns) == want, functions(ns)
    for begin, end in [('103s', '104.5s'), ('+3s', '+4500ms'), ('+3000000us', '104500000000'),
                       ('103000000000ns', '+4.5s'), ('+3000000000', '+4500000000ns')]:
        got = functions(['--begin', begin, '--end', end])
        assert got == want, (begin, end, got)
    # the range results say they cover is the absolute one
    r = lami(['./spaa-hotspots', '--format', 'lami', '--begin', '+3s', '--end', '+4.5s', ABIA])
    assert r['results'][0]['time-range']['begin'] == 103000000000
    assert r['results'][0]['time-range']['end'] == 104500000000


@check
def every_analysis_takes_the_forms():
    for prog in ['./spaa-hotspots', './spaa-phases']:
        ns = lami([prog, '--format', 'lami', '--begin', '106000000000', '--end',
                   '106999999999', ABIA])
        for begin, end in [('106s', '106.999999999s'), ('+6s', '+6999999999ns'),
                           ('106000000\u00b5s', '+6999999.999\u03bcs')]:
            got = lami([prog, '--format', 'lami', '--begin', begin, '--end', end, ABIA])
            assert got == ns, (prog, begin, end)
    # spaa-diff cuts its target (phases_shifted.spaa starts at 100 s too)
    pair = ['tests/data/phases_shifted.spaa', ABIA]
    ns = lami(['./spaa-diff', '--format', 'lami', '--begin', '103000000000', '--end',
               '104500000000'] + pair)
    for begin, end in [('103s', '104.5s'), ('+3s', '+4500ms'), ('+3000000\u00b5s', '104.5s')]:
        got = lami(['./spaa-diff', '--format', 'lami', '--begin', begin, '--end', end] + pair)
        assert got == ns, ('diff', begin, end)
    # allocs_frees.spaa starts at 1000 ns
    frees = 'tests/data/allocs_frees.spaa'
    ns = lami(['./spaa-allocs', '--format', 'lami', '--begin', '1100', '--end', '1500', frees])
    for begin, end in [('1.1us', '+500'), ('+100ns', '0.0000015s')]:
        got = lami(['./spaa-allocs', '--format', 'lami', '--begin', begin, '--end', end, frees])
        assert got == ns, (begin, end)


@check
def phases_bins_start_at_a_begin_from_the_start():
    r = lami(['./spaa-phases', '--format', 'lami', '--begin', '+6s', '--end', '+7s', ABIA])
    rows = table(r, 'timeline')['data']
    assert rows[0][0]['begin'] == 106000000000, rows[0][0]
    # 100 samples of 10 ms in [106 s, 107 s], half A, half C
    assert sum(row[2] for row in rows) == 100, rows


@check
def from_the_first_sample_without_a_header_range():
    """The offset counts from where the profile starts: for formats without
    a header time range, its first sample; the same cut as the absolute
    time that many ns after the start results report for the whole run."""
    for path in ['tests/data/v8/corpus_jswork.cpuprofile.gz',
                 'tests/data/spx/corpus/02_recursion_wt_ct_it',
                 'tests/data/convert_small.perf']:
        whole = lami(['./spaa-hotspots', '--format', 'lami', path])
        start = whole['results'][0]['time-range']['begin']
        rel = lami(['./spaa-hotspots', '--format', 'lami', '--begin', '+1us', path])
        ab = lami(['./spaa-hotspots', '--format', 'lami', '--begin', str(start + 1000), path])
        assert rel == ab, path
        assert rel['results'][0]['time-range']['begin'] == start + 1000, path


@check
def without_samples_from_the_start_of_the_header_range():
    # basic.spaa: stack records only, its header's range [100 s, 101 s]
    r = lami(['./spaa-hotspots', '--format', 'lami', '--begin', '+0.25s', '--end', '+500ms',
              'tests/data/basic.spaa'])
    t = r['results'][0]
    assert t['time-range']['begin'] == 100250000000, t['time-range']
    assert t['time-range']['end'] == 100500000000, t['time-range']
    assert 'whole profile' in t['class']['title'], t['class']


@check
def a_time_that_does_not_parse_names_the_forms():
    for bad in ['1.5', '1.5h', '+-1s', '5 s', '0.5ns', '9223372037s']:
        rc, out, err = run(['./spaa-hotspots', '--format', 'lami', '--begin', bad, ABIA])
        assert rc == 2, (bad, rc)
        e = json.loads(out)
        assert e['error-message'] == "invalid value '%s' for '--begin' (%s)" % (bad, FORMS), e
    rc, out, _ = run(['./spaa-hotspots', '--format', 'lami', '--begin', '+2s', '--end', '+1s', ABIA])
    assert rc == 2 and json.loads(out)['error-message'] == \
        "'--begin' (+2000000000) is after '--end' (+1000000000)", out


finish()

#!/usr/bin/env python3
"""perf report's and pprof's habits in every analysis, end to end.

- --sort orders rows (hotspots: self, total, samples, name; allocs: its
  metrics, name, and hotspots' keys where they mean the same; diff: the
  compared delta, raw, target, baseline, name); a key an analysis does not
  have lists those it has, and perf report's grouping keys say where
  their grouping is.
- --percent-limit P leaves out the rows under P % of their total, in
  spaa-allocs (sites, leak suspects, processes) and spaa-diff (rows under
  P % on both sides); each kept and dropped row is checked against the
  unlimited run's own numbers.
- perf report's and pprof's option names that mean something here are
  accepted (-s, -G) or answered with what they are here.
"""
import json

from clitest import check, finish, lami, run

ALLOCS = './spaa-allocs'
DIFF = './spaa-diff'
SITES = 'tests/data/allocs_sites.spaa'
CWORK = ['--dso-map', '/tmp/ceo/diff/cwork=/tmp/ceo/diff/cwork_hashslow',
         'tests/data/diff_cwork_baseline.spaa.zst', 'tests/data/diff_cwork_hashslow.spaa.zst']


def table(doc, cls):
    return next(t for t in doc['results']
                if cls in (t['class'], t['class'].get('inherit')))


def v(cell):
    return cell['value'] if isinstance(cell, dict) and 'value' in cell else cell


def usage_error(args):
    rc, out, err = run(args)
    assert rc == 2, (args, rc, out)
    msg = json.loads(out)['error-message']
    assert err == '%s: error: %s\n' % (args[0][2:], msg), (args, err)
    return msg


@check
def allocs_sort_keys_and_their_aliases():
    # allocs_sites.spaa, by hand: parse 4000 B in 13 allocations, load_config
    # 2548 B in 7, free_list_pop 64 B in 1, malloc 16 B in 1
    def order(args):
        t = table(lami([ALLOCS, '--format', 'lami'] + args + [SITES]), 'sites')
        return [r[0] for r in t['data']], t['class']['title']
    by_bytes = ['parse', 'load_config', 'free_list_pop', 'malloc']
    assert order([])[0] == by_bytes
    assert order(['--sort', 'self']) == order(['--sort', 'allocated'])
    assert order(['-s', 'samples']) == order(['--sort', 'count'])
    names, title = order(['--sort', 'name'])
    assert names == sorted(by_bytes) and 'sorted by name' in title, (names, title)
    msg = usage_error([ALLOCS, '--format', 'lami', '--sort', 'total', SITES])
    assert msg == ("invalid value 'total' for '--sort' (allocated, live, count, peak, name, "
                   "self (allocated) or samples (count))"), msg


@check
def allocs_percent_limit():
    for limit in ('1', '30', '50.5'):
        p = float(limit)
        full = lami([ALLOCS, '--format', 'lami', SITES])
        cut = lami([ALLOCS, '--format', 'lami', '--percent-limit', limit, SITES])
        dropped = 0
        # sites: allocated bytes of all sites; leaks: live of all live; processes: allocated
        for cls, col in (('sites', 2), ('leaks', 1), ('processes', 1)):
            rows = table(full, cls)['data']
            whole = sum(v(r[col]) for r in rows)
            want = [r for r in rows if v(r[col]) * 100 >= p * whole]
            got = [r for t in cut['results'] if cls == t['class'].get('inherit', t['class'])
                   for r in t['data']]
            assert got == want, (limit, cls, got, want)
            assert want, (limit, cls)
            dropped += len(rows) - len(want)
        assert dropped or limit == '1', limit


@check
def diff_sort_keys():
    def rows(args):
        t = table(lami([DIFF, '--format', 'lami', '--normalize', 'none'] + args + CWORK),
                  'functions')
        return t['data'], t['class']['title']
    # columns: function, DSO, baseline, target, raw delta, normalized, share delta, ...
    for key, col in (('raw', 4), ('target', 3), ('baseline', 2), ('delta', 4)):
        data, title = rows(['--sort', key])
        keys = [abs(v(r[col])) for r in data]
        assert keys == sorted(keys, reverse=True), (key, keys[:5])
        assert ('sorted by' in title) == (key != 'delta'), (key, title)
    data, title = rows(['-s', 'name'])
    names = [r[0] for r in data]
    assert names == sorted(names) and 'sorted by name' in title, names[:5]
    msg = usage_error([DIFF, '--format', 'lami', '--sort', 'self'] + CWORK)
    assert msg == "invalid value 'self' for '--sort' (delta, raw, target, baseline or name)", msg


@check
def diff_percent_limit_keeps_rows_large_on_either_side():
    full = lami([DIFF, '--format', 'lami'] + CWORK)
    cut = lami([DIFF, '--format', 'lami', '--percent-limit', '5'] + CWORK)
    # shares: baseline share and target share columns (7, 8) of functions
    for cls in ('functions', 'inclusive'):
        rows = table(full, cls)['data']
        want = [r for r in rows if max(v(r[7]), v(r[8])) * 100 >= 5]
        assert table(cut, cls)['data'] == want, cls
        assert 0 < len(want) < len(rows), (cls, len(want), len(rows))
    # stacks: weights over each side's total (summary: totals in columns 2, 3)
    summary = table(full, 'summary')['data'][0]
    B, T = v(summary[2]), v(summary[3])
    rows = table(full, 'stacks')['data']
    want = [r for r in rows if max(v(r[1]) / B, v(r[2]) / T) * 100 >= 5]
    assert table(cut, 'stacks')['data'] == want
    assert 0 < len(want) < len(rows)


@check
def perf_and_pprof_names():
    basic = 'tests/data/basic.spaa'
    # aliases with the same meaning
    assert lami(['./spaa-hotspots', '--format', 'lami', '-G', basic]) == \
        lami(['./spaa-hotspots', '--format', 'lami', '--inverted', basic])
    assert lami(['./spaa-hotspots', '--format', 'lami', '-s', 'total', basic]) == \
        lami(['./spaa-hotspots', '--format', 'lami', '--sort', 'total', basic])
    # perf report's sort keys are tables here
    msg = usage_error(['./spaa-hotspots', '--format', 'lami', '--sort', 'dso', basic])
    assert msg == ("invalid value 'dso' for '--sort' (self, total, samples or name); perf "
                   "report's --sort dso groups rows: that is spaa-hotspots' dsos table here, "
                   "and --sort orders the rows"), msg
    msg = usage_error([ALLOCS, '--format', 'lami', '-s', 'sym', SITES])
    assert msg.endswith("perf report's --sort sym groups rows: that is the functions table "
                        "here, and --sort orders the rows"), msg
    msg = usage_error(['./spaa-phases', '--format', 'lami', '--sort', 'self', basic])
    assert msg == ("unknown option '--sort': spaa-phases' tables are in time order; --sort "
                   "orders the rows of spaa-hotspots, spaa-allocs and spaa-diff"), msg
    # names that mean something else here, in every analysis, pprof's with one dash
    for prog, path in (('./spaa-hotspots', basic), ('./spaa-phases', basic),
                       (ALLOCS, SITES), (DIFF, basic)):
        for opt, says in (('-cum', "pprof's -cum is spaa-hotspots' '--sort total' here"),
                          ('-nodefraction=0.01', "pprof's -nodefraction is '--percent-limit P'"),
                          ('--symbols', "perf report's --symbols is '--focus REGEX'"),
                          ('-sample_index=1', "pprof's -sample_index is '--metric NAME'"),
                          ('--header', "perf report's --header is the '#' lines"),
                          ('-base', "pprof's -base is 'spaa-diff BASELINE TARGET' here")):
            args = [prog, '--format', 'lami', opt] + ([path, path] if prog == DIFF else [path])
            msg = usage_error(args)
            assert msg.startswith("unknown option '%s': %s" % (opt.split('=')[0], says)), \
                (prog, opt, msg)


finish()

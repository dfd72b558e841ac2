"""The header of text output (issue 19): what was read and weighed, the
total and its samples, the time range and the part selected, the events
left out by name with the option that picks one.  Every number here is
recomputed from the test file's records, not read from the program.
Only text has it: LAMI and CSV are unchanged.
"""
import json
import os
import shutil
import tempfile

from clitest import check, finish, ok, run

DATA = 'tests/data'
scratch = tempfile.mkdtemp(prefix='spaa-cli-header-')


def records(path, kind):
    with open(path) as f:
        return [r for r in map(json.loads, f) if r['type'] == kind]


def weight(rec, metric):
    return sum(w['value'] for w in rec['weights'] if w['metric'] == metric)


def header(text):
    """The header lines, without '# ', up to the empty line after them."""
    lines = text.split('\n')
    n = lines.index('')
    assert all(l.startswith('# ') for l in lines[:n]) and n, lines[:n + 1]
    return [l[2:] for l in lines[:n]]


@check
def totals_and_samples_are_the_records_sums():
    path = DATA + '/basic.spaa'
    stacks = records(path, 'stack')
    period = sum(weight(s, 'period') for s in stacks)        # ns (cpu-clock)
    samples = sum(weight(s, 'samples') for s in stacks)
    assert (period, samples) == (11000000, 11)
    assert header(ok(['./spaa-hotspots', '--format', 'text', path])) == [
        'Profile: %s (SPAA from perf)' % path,
        'Time: 100.000000000 to 101.000000000 s (1 s)',
        "Weighed: event 'cpu-clock', primary metric 'period'",
        'Total: %d ms in %d samples' % (period // 1000000, samples)]
    # one thread: the sums of its stacks only
    mine = [s for s in stacks if s['context']['tid'] == 101]
    got = header(ok(['./spaa-hotspots', '--format', 'text', '--tid', '101', path]))
    assert got[3] == 'Total: %d ms in %d samples' % (
        sum(weight(s, 'period') for s in mine) // 1000000,
        sum(weight(s, 'samples') for s in mine)), got


@check
def a_time_range_says_what_it_selected():
    path = DATA + '/samples.spaa'
    begin, end = 10200000000, 10500000000
    inside = [s for s in records(path, 'sample')
              if begin <= round(s['timestamp'] * 1e9) <= end]
    assert len(inside) == 4
    got = header(ok(['./spaa-hotspots', '--format', 'text', '--begin', str(begin),
                     '--end', str(end), path]))
    assert got[1] == ('Time: 10.000000000 to 11.000000000 s (1 s); selected '
                      '10.200000000 to 10.500000000 s (300 ms)'), got
    assert got[3] == 'Total: %d ms in %d samples' % (
        sum(s['period'] for s in inside) // 1000000, len(inside)), got


@check
def events_left_out_are_named_in_the_header_not_on_stderr():
    path = DATA + '/multi_event.spaa'
    faults = [s for s in records(path, 'stack') if s['context']['event'] == 'page-faults']
    rc, out, err = run(['./spaa-hotspots', '--format', 'text', path])
    assert rc == 0 and 'note' not in err, err
    assert header(out)[-1] == ("Left out: 'page-faults': %d stack records, 0 samples "
                               "(pick one with --event NAME)" % len(faults)), header(out)
    # LAMI has no header: the note goes to stderr as before
    rc, out, err = run(['./spaa-hotspots', path])
    assert rc == 0 and not out.startswith('#') and "'page-faults'" in err, err
    # spaa-allocs has no --event: its header names none
    assert '--event' not in ok(['./spaa-allocs', '--format', 'text', DATA + '/alloc.spaa'])


@check
def every_analysis_has_one_and_csv_none():
    alloc = DATA + '/alloc.spaa'
    allocated = sum(weight(s, 'alloc_bytes') for s in records(alloc, 'stack'))
    assert allocated == 5120
    assert header(ok(['./spaa-allocs', '--format', 'text', alloc])) == [
        'Profile: %s (SPAA from heaptrack)' % alloc, "Allocated: 5 KiB by 'malloc'"]
    got = header(ok(['./spaa-phases', '--format', 'text', DATA + '/phases_abia.spaa']))
    samples = records(DATA + '/phases_abia.spaa', 'sample')
    assert got[3] == 'Total: %d s in %d samples' % (
        sum(s['period'] for s in samples) // 1000000000, len(samples)), got
    got = header(ok(['./spaa-diff', '--format', 'text', DATA + '/basic.spaa',
                     DATA + '/diff_doubled.spaa']))
    # (a wrapped line goes on indented)
    assert [l.split(':')[0] for l in got if not l.startswith(' ')] == \
        ['Baseline', 'Time', 'Target', 'Time', 'Weighed'], got
    for prog in ('./spaa-hotspots', './spaa-phases'):
        out = ok([prog, '--format', 'csv', DATA + '/phases_abia.spaa'])
        assert not any(l.startswith('#') for l in out.split('\n')), out[:200]


@check
def formats_and_directories():
    spx = DATA + '/spx/basic.json'
    assert header(ok(['./spaa-hotspots', '--format', 'text', spx]))[0] == \
        'Profile: %s (SPX report)' % spx
    pb = DATA + '/pprof/go_cpu.pb.gz'
    assert header(ok(['./spaa-hotspots', '--format', 'text', pb]))[0] == \
        'Profile: %s (pprof)' % pb
    perf = DATA + '/convert_small.perf'
    assert header(ok(['./spaa-hotspots', '--format', 'text', perf]))[0] == \
        'Profile: %s (perf script)' % perf
    d = os.path.join(scratch, 'mixed')
    os.mkdir(d)
    shutil.copy(DATA + '/basic.spaa', d)
    shutil.copy(DATA + '/samples.spaa', d)
    shutil.copy(DATA + '/convert_small.folded', os.path.join(d, 'c.spaa'))
    got = header(ok(['./spaa-hotspots', '--format', 'text', d]))
    assert got[0] == 'Profile: %s (3 files: SPAA from perf, folded stacks)' % d, got


@check
def it_fits_the_width_and_quotes_no_escape():
    d = os.path.join(scratch, 'a' * 60, '\x1b]0;x\x07' + 'b' * 20)
    os.makedirs(os.path.dirname(d))
    shutil.copy(DATA + '/basic.spaa', d)
    out = ok(['./spaa-hotspots', '--format', 'text', '--width', '40', d])
    lines = header(out)
    assert all(len(l) + 2 <= 40 for l in lines), lines
    assert '\x1b' not in out and '\x07' not in out
    # the path keeps its end (the file name), cut at its start
    assert lines[0].startswith('Profile: \u2026') and lines[0].endswith('?' + 'b' * 20), lines
    # a wrapped line goes on indented, and a duration stays whole
    assert lines[1:4] == ['  (SPAA from perf)', 'Time: 100.000000000 to 101.000000000 s',
                          '  (1 s)'], lines
    # --wide: never cut
    assert header(ok(['./spaa-hotspots', '--format', 'text', '--wide', d]))[0] == \
        'Profile: %s (SPAA from perf)' % d.replace('\x1b', '?').replace('\x07', '?')


shutil.rmtree(scratch, ignore_errors=True)
finish()

"""No silent wrong numbers (issue 21): a perf script time the parser
cannot take is an error naming the line, an exclusive weight larger than
its stack's is a warning and never a share over 100 %, a duration that
does not fit 64-bit ns is unknown (never wrapped), and perf input with no
sample that has a frame is an error rather than a header without events.
A count past the 15 digits of a number stays exact (LAMI refuses one past
2^63 - 1 naming the row), and a difference past int64 is an error, never
a clamp.
"""
import json
import os
import shutil
import tempfile

from clitest import check, finish, lami, ok, run

scratch = tempfile.mkdtemp(prefix='spaa-cli-numbers-')
BASIC = open('tests/data/basic.spaa').read().split('\n')


def write(name, text):
    path = os.path.join(scratch, name)
    with open(path, 'w') as f:
        f.write(text)
    return path


def perf(time):
    return write('t.perf', 'app 1234 %s: 1000 cycles:\n'
                 '\t4005d6 main+0x10 (/usr/bin/app)\n\n' % time)


@check
def perf_time_that_cannot_be_read_is_an_error():
    for t in ('9999999999.000000', '9223372036.854775807', '1.5e3', '-5.000000'):
        path = perf(t)
        rc, out, err = run(['./spaa-convert', '--to', 'folded', path])
        assert rc == 1 and out == '', (t, rc, out)
        assert err == ("spaa-convert: error: %s:1: cannot read the time '%s' (expected "
                       "SECONDS.FRACTION, below 9223372035 s)\n" % (path, t)), err
        rc, out, err = run(['./spaa-hotspots', path])
        assert rc == 1 and json.loads(out)['error-code'] == 'parse-error', (t, out)
    # the largest time that fits, exactly
    out = ok(['./spaa-convert', perf('9223372034.999999999')])
    sample = [json.loads(l) for l in out.splitlines() if '"sample"' in l]
    assert len(sample) == 1 and '"timestamp":9223372034999999999,' in out, out


@check
def exclusive_larger_than_its_stack_is_a_warning_and_capped():
    # s1 (memcpy's stack, weight 3 ms) claims 15 ms of exclusive weight
    lines = list(BASIC)
    lines[10] = lines[10].replace('"exclusive":{"frame":4,"weights":[{"metric":"period",'
                                  '"value":3000000}]}',
                                  '"exclusive":{"frame":4,"weights":[{"metric":"period",'
                                  '"value":15000000}]}')
    assert lines[10] != BASIC[10]
    path = write('excl.spaa', '\n'.join(lines))
    rc, out, err = run(['./spaa-validate', path])
    assert rc == 0, (rc, out)
    warning = ("the exclusive 'period' weight 15000000 of stack 's1' is larger than its "
               "weight 3000000 (taken as 3000000)")
    assert out.split('\n')[0] == '%s:11: warning: %s' % (path, warning), out
    rc, out, err = run(['./spaa-hotspots', path])
    assert rc == 0 and warning in err, err
    doc = json.loads(out)
    rows = {r[0]: r for r in doc['results'][0]['data']}
    # memcpy: self 3 ms of the 11 ms total, as in basic.spaa
    assert rows['memcpy'][2]['value'] == 3000000, rows['memcpy']
    assert abs(rows['memcpy'][3]['value'] - 3 / 11) < 1e-12, rows['memcpy']
    for r in rows.values():
        assert r[3]['value'] <= r[5]['value'] <= 1, r


@check
def duration_past_64_bits_is_unknown():
    path = write('span.spaa', '\n'.join(BASIC[:14]) + '\n'
                 '{"type":"sample","timestamp":0,"stack_id":"s1","event":"cpu-clock"}\n'
                 '{"type":"sample","timestamp":9223372036.854775807,"stack_id":"s2",'
                 '"event":"cpu-clock"}\n')
    doc = lami(['./spaa-phases', path])
    table = doc['results'][0]
    assert len(table['data']) == 1, table['data']
    # Phase, Kind, Time range, Duration, ...
    row = table['data'][0]
    assert row[1] == 'active' and row[2]['class'] == 'time-range', row
    assert row[3] == {'class': 'unknown'}, row
    begin, end = row[2]['begin'], row[2]['end']
    assert end == 9223372036854775807 and end - begin + 1 > 2 ** 63, row


@check
def perf_without_frames_is_an_error():
    path = write('noframes.perf', 'app 1234 100.000000: 1000 cycles:\n\n'
                 'app 1234 100.100000: 1000 cycles:\n\n')
    out_path = os.path.join(scratch, 'out.spaa')
    rc, out, err = run(['./spaa-convert', '-o', out_path, path])
    assert rc == 1, (rc, out)
    assert err == ('spaa-convert: error: %s: none of the 2 perf samples has a frame (record '
                   'with -g, or keep ip,sym in perf script -F)\n' % path), err
    assert not os.path.exists(out_path)



def counted(name, period):
    """A profile of one stack of a hardware event: its period a plain count."""
    return write(name, json.dumps({
        'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'perf',
        'frame_order': 'leaf_to_root', 'stack_id_mode': 'local',
        'events': [{'name': 'c', 'kind': 'hardware',
                    'sampling': {'mode': 'period', 'primary_metric': 'period'}}]}) + '\n'
        '{"type":"dso","id":1,"name":"/a","is_kernel":false}\n'
        '{"type":"frame","id":1,"func":"main","dso":1}\n'
        '{"type":"stack","id":"s","frames":[1],"context":{"event":"c"},'
        '"weights":[{"metric":"samples","value":1},{"metric":"period","value":%d}]}\n' % period)


@check
def counts_past_15_digits_stay_exact():
    # a count (no unit) past the 15 digits of a number cell: exact in CSV and text
    for period in (1234567890123456789, 2 ** 64 - 1):
        path = counted('c%d.spaa' % period, period)
        csv = ok(['./spaa-hotspots', '--format', 'csv', path]).split('\n')
        assert csv[2] == 'main,/a,%d,1,%d,1,1,' % (period, period), csv[:3]
        assert ' %d ' % period in ok(['./spaa-hotspots', '--format', 'text', path])
    doc = lami(['./spaa-hotspots', counted('c.spaa', 1234567890123456789)])
    assert doc['results'][0]['data'][0][2] == 1234567890123456789, doc
    # past 2^63 - 1: LAMI names the row instead of clamping or rounding
    rc, out, err = run(['./spaa-hotspots', path])
    assert rc == 1 and json.loads(out)['error-message'] == (
        "table 'Functions by self weight (event 'c', primary metric 'period')', row 1 "
        "('main'), column 'Self': 18446744073709551615 is past 2^63 - 1, the largest integer "
        "Trace Compass reads (a Java long); --format text or csv shows it exactly"), out
    # below 10^15: a number as before
    doc = lami(['./spaa-hotspots', counted('small.spaa', 1000)])
    assert doc['results'][0]['data'][0][2] == 1000


@check
def a_diff_past_64_bits_is_an_error_not_a_clamp():
    # 2^64 - 1 against 1000: a raw delta of about 1.8e19, past int64 (was
    # shown as 9.22e18, the clamp)
    small, big = counted('s.spaa', 1000), counted('b.spaa', 2 ** 64 - 1)
    for fmt in ('lami', 'text', 'csv'):
        rc, out, err = run(['./spaa-diff'] + (['--format', fmt] if fmt != 'lami' else []) +
                           [small, big])
        assert rc == 1 and "row 1 ('main'), column 'Raw delta': the value is past the " \
            "64-bit range (-2^63 to 2^63 - 1)" in err, (fmt, rc, out, err)
        assert '9.22' not in out and '922337' not in out, out


shutil.rmtree(scratch, ignore_errors=True)
finish()

#!/usr/bin/env python3
"""End-to-end checks of spaa-convert and spaa-validate.

Each check prints "ok NAME" or "FAIL NAME" with the reason; the run ends
with "N passed, M failed".  Run from the repository root (make check does).
"""
import gzip
import json
import os
import re
import shutil
import tempfile

from clitest import check, finish, ok, run

CONV = './spaa-convert'
VAL = './spaa-validate'
HOT = './spaa-hotspots'
DATA = 'tests/data'
BASELINE = os.path.join(DATA, 'convert_cwork_baseline.perf-script.txt.gz')
DWARF = os.path.join(DATA, 'convert_cwork_dwarf.perf-script.txt.gz')
SMALL = os.path.join(DATA, 'convert_small.perf')
FOLDED = os.path.join(DATA, 'convert_small.folded')
TMP = tempfile.mkdtemp(prefix='cli_convert.')


def convert(src, *opts):
    dst = os.path.join(TMP, os.path.basename(src) + '.%d.spaa' % len(os.listdir(TMP)))
    ok([CONV] + list(opts) + ['-o', dst, src])
    return dst


def records(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return [json.loads(l) for l in data.decode().splitlines()]


def self_shares(path):
    """Function -> self share (percent) from spaa-hotspots' first table."""
    doc = json.loads(ok([HOT, '--limit', 'unlimited', path]))
    return {row[0]: row[3]['value'] * 100 for row in doc['results'][0]['data']}


def perf_report(path):
    """perf report --no-children --sort sym, recomputed from perf script
    text: the period of each sample goes to the symbol of its first frame,
    unresolved symbols by address (what perf report prints for them)."""
    tot, by = 0, {}
    leaf = None
    with gzip.open(path, 'rt') as f:
        for line in list(f) + ['\n']:
            if line.strip() == '':
                if leaf is not None:
                    by[leaf[0]] = by.get(leaf[0], 0) + leaf[1]
                    tot += leaf[1]
                leaf = None
            elif not line[0].isspace():
                m = re.search(r'\s(\d+)\s+\S+:\s*$', line)
                period = int(m.group(1))
                leaf = [None, period]
            elif leaf is not None and leaf[0] is None:
                ip, rest = line.split(None, 1)
                sym = re.sub(r'\+0x[0-9a-f]+$', '', rest[:rest.rindex('(')].strip())
                leaf[0] = '0x%x' % int(ip, 16) if sym == '[unknown]' else sym
    return {k: v * 100.0 / tot for k, v in by.items()}


@check
def baseline_matches_perf_report():
    """The numbers of perf report --no-children --sort sym on the corpus."""
    shares = self_shares(convert(BASELINE))
    for fn, want in (('msort_with_tmp.part.0', 32.2), ('cmp_u64', 24.3),
                     ('hash_phase.constprop.0', 20.7), ('collatz_phase', 19.1)):
        assert abs(shares[fn] - want) < 0.05, (fn, shares[fn], want)


@check
def top10_equals_perf_report_recomputed():
    for src in (BASELINE, DWARF):
        got = self_shares(convert(src))
        want = perf_report(src)
        top = sorted(want, key=lambda k: -want[k])[:10]
        for fn in top:
            assert abs(got.get(fn, 0) - want[fn]) < 0.1, (src, fn, got.get(fn), want[fn])


@check
def resolved_symbols_equal_reference_converter():
    """Same shares as the reference converter's SPAA of the same text;
    the reference lumps unresolved addresses into one '[unknown]'."""
    for src, ref in ((BASELINE, 'cwork_baseline'), (DWARF, 'cwork_dwarf')):
        got = self_shares(convert(src))
        want = self_shares(os.path.join(DATA, 'convert', ref + '.ref.spaa.zst'))
        for fn, v in want.items():
            if fn != '[unknown]':
                assert abs(got.get(fn, 0) - v) < 1e-9, (ref, fn, got.get(fn), v)


@check
def every_output_validates():
    outs = [convert(BASELINE), convert(DWARF), convert(SMALL), convert(FOLDED),
            convert(SMALL, '--no-samples'), convert(BASELINE, '--compress', 'gzip'),
            convert(BASELINE, '--compress', 'zstd')]
    for path in outs:
        rc, out, _ = run([VAL, path])
        assert rc == 0 and ': valid:' in out and '0 warnings' in out, out


@check
def samples_sum_to_stack_weights():
    recs = records(convert(BASELINE))
    stacks = [r for r in recs if r['type'] == 'stack']
    samples = [r for r in recs if r['type'] == 'sample']
    with gzip.open(BASELINE, 'rt') as f:
        nsample_lines = sum(1 for l in f if l.strip() and not l[0].isspace())
    assert len(samples) == nsample_lines, (len(samples), nsample_lines)
    w = lambda r, m: next(x['value'] for x in r['weights'] if x['metric'] == m)
    assert sum(w(s, 'samples') for s in stacks) == nsample_lines
    assert sum(w(s, 'period') for s in stacks) == sum(s['period'] for s in samples)
    ids = {s['id'] for s in stacks}
    assert all(s['stack_id'] in ids for s in samples)
    hdr = recs[0]
    assert hdr['time_range']['start'] == min(s['timestamp'] for s in samples)
    assert hdr['time_range']['end'] == max(s['timestamp'] for s in samples)
    nos = records(convert(BASELINE, '--no-samples'))
    assert not [r for r in nos if r['type'] == 'sample']
    assert [r for r in nos if r['type'] == 'stack'] == stacks


@check
def stack_ids_are_the_documented_hash():
    """FNV-1a 64 over func, dso, ip, symoff, srcline of each frame (leaf
    first), as spaa_writer.h documents; recomputed here."""
    recs = records(convert(DWARF))
    dsos = {r['id']: r['name'] for r in recs if r['type'] == 'dso'}
    frames = {r['id']: r for r in recs if r['type'] == 'frame'}
    for s in (r for r in recs if r['type'] == 'stack'):
        h = 0xcbf29ce484222325
        for fid in s['frames']:
            f = frames[fid]
            text = '\x1f'.join([f['func'], dsos[f['dso']], f.get('ip', ''),
                                f.get('symoff', ''), f.get('srcline', '')]) + '\x1e'
            for b in text.encode():
                h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
        assert s['id'] == '0x%016x' % h, (s['id'], h)


@check
def same_stack_same_id_across_files():
    a = {r['id'] for r in records(convert(BASELINE)) if r['type'] == 'stack'}
    b = {r['id'] for r in records(convert(BASELINE, '--no-samples')) if r['type'] == 'stack'}
    assert a == b and a


@check
def stdin_stdout_and_compression():
    plain = ok([CONV, SMALL])
    assert ok([CONV, '-'], stdin=SMALL) == plain
    gz = os.path.join(TMP, 'small.spaa.gz')
    ok([CONV, '-o', gz, SMALL])
    with open(gz, 'rb') as f:
        assert f.read(2) == b'\x1f\x8b'
    zs = os.path.join(TMP, 'small.spaa.zst')
    ok([CONV, '-o', zs, SMALL])
    with open(zs, 'rb') as f:
        assert f.read(4) == b'\x28\xb5\x2f\xfd'
    # SPAA to SPAA keeps every line, recompressed
    back = os.path.join(TMP, 'back.spaa')
    ok([CONV, '--compress', 'none', '-o', back, zs])
    with open(back) as f:
        assert f.read() == plain
    # compressed perf script input converts the same as plain
    pgz = os.path.join(TMP, 'small.perf.gz')
    with open(SMALL, 'rb') as f, gzip.open(pgz, 'wb') as g:
        g.write(f.read())
    assert ok([CONV, pgz]) == plain


@check
def folded_round_trip():
    folded = ok([CONV, '--to', 'folded', '--metric', 'samples', BASELINE])
    spaa = os.path.join(TMP, 'rt.spaa')
    path = os.path.join(TMP, 'rt.folded')
    with open(path, 'w') as f:
        f.write(folded)
    ok([CONV, '-o', spaa, path])
    assert ok([CONV, '--to', 'folded', spaa]) == folded
    # the counts are the samples of the perf script text
    with gzip.open(BASELINE, 'rt') as f:
        n = sum(1 for l in f if l.strip() and not l[0].isspace())
    assert sum(int(l.rsplit(' ', 1)[1]) for l in folded.splitlines()) == n


@check
def failed_conversion_leaves_no_file():
    dst = os.path.join(TMP, 'never.spaa')
    rc, out, err = run([CONV, '--from', 'perf', '-o', dst, os.path.join(DATA, 'convert_bad.perf')])
    assert rc == 1 and out == '' and 'convert_bad.perf:3:' in err, (rc, err)
    assert not os.path.exists(dst)
    assert not [f for f in os.listdir(TMP) if '.tmp' in f]


@check
def validator_exit_codes():
    assert run([VAL, os.path.join(DATA, 'validate', 'valid.spaa')])[0] == 0
    assert run([VAL, os.path.join(DATA, 'validate', 'zero_primary.spaa')])[0] == 0
    assert run([VAL, os.path.join(DATA, 'validate', 'unknown_frame.spaa')])[0] == 1
    assert run([VAL])[0] == 2
    assert run([VAL, '--nope', 'x'])[0] == 2
    rc, out, _ = run([VAL, '--json', os.path.join(DATA, 'validate', 'many_problems.spaa')])
    doc = json.loads(out)
    assert rc == 1 and doc['valid'] is False
    f = doc['files'][0]
    assert (f['errors'], f['warnings']) == (4, 2)
    assert [x['line'] for x in f['findings']] == [1, 4, 5, 6, 7, 8]


@check
def validator_judges_every_rule_file():
    """Each tests/data/validate file: invalid exactly when it breaks a
    MUST rule; every finding line is FILE:LINE: error|warning: MESSAGE."""
    vdir = os.path.join(DATA, 'validate')
    warn_only = {'valid', 'blank_line', 'blank_runs', 'repeated_key', 'duplicate_window_id', 'exclusive_over_weight',
                 'related_undefined',
                 'thread_pid_conflict', 'unknown_context_key', 'unknown_record_type',
                 'unknown_source_tool', 'zero_primary'}
    for name in sorted(os.listdir(vdir)):
        path = os.path.join(vdir, name)
        rc, out, err = run([VAL, path])
        base = name[:-len('.spaa')]
        assert rc == (0 if base in warn_only else 1), (name, rc, out)
        lines = out.splitlines()
        for l in lines[:-1]:
            assert re.match(re.escape(path) + r'(:\d+)?: (error|warning): \S', l), l
        assert lines[-1].startswith(path + (': valid:' if rc == 0 else ': invalid:'))
        assert err == ''


SPX = os.path.join(DATA, 'spx')
SPX_INPUTS = sorted(os.path.join(SPX, f) for f in os.listdir(SPX) if f.endswith('.json')) + [
    os.path.join(SPX, 'corpus', d) for d in
    ('02_recursion_wt_ct_it', '06_memory_zm_alloc_free', '20_naming_edge_cases',
     '26_deep_recursion', '31_negative_values')]


def canonical(text):
    return json.dumps(json.loads(text), sort_keys=True)


@check
def spx_converts_to_spaa_with_the_same_hotspots():
    """For each SPX report: the SPAA validates, spaa-hotspots gives exactly
    the same document on it as on the report (every event and metric), and
    folded output is the same from both."""
    for src in SPX_INPUTS:
        dst = convert(src)
        rc, out, _ = run([VAL, dst])
        assert rc == 0 and ': valid:' in out, (src, out)
        recs = records(dst)
        events = recs[0]['events']
        metrics = {w['metric'] for r in recs if r['type'] == 'stack' for w in r['weights']}
        for ev in events:
            for m in [None] + sorted(metrics):
                opts = ['--event', ev['name']] + (['--metric', m] if m else [])
                a = run([HOT] + opts + [src])
                b = run([HOT] + opts + [dst])
                assert a[0] == b[0] and canonical(a[1]) == canonical(b[1]), (src, opts, a[1][:300], b[1][:300])
            fa = ok([CONV, '--to', 'folded', '--event', ev['name'], src])
            fb = ok([CONV, '--to', 'folded', '--event', ev['name'], dst])
            assert fa == fb, (src, ev['name'])
        # a time range weighs samples by their wall time on both (x_period_metric)
        t0 = min(r['timestamp'] for r in recs if r['type'] == 'sample')
        rng = ['--begin', str(t0), '--end', str(t0 + 14)]
        a, b = run([HOT] + rng + [src]), run([HOT] + rng + [dst])
        assert a[0] == b[0] and canonical(a[1]) == canonical(b[1]), (src, 'range', a[1][:300], b[1][:300])
        # --no-samples: the same stacks, no samples, still valid
        nos = records(convert(src, '--no-samples'))
        assert [r for r in nos if r['type'] == 'stack'] == [r for r in recs if r['type'] == 'stack']
        assert not [r for r in nos if r['type'] == 'sample']


@check
def spx_samples_sum_to_wall_time_and_ids_are_the_hash():
    for src in SPX_INPUTS:
        recs = records(convert(src))
        stacks = [r for r in recs if r['type'] == 'stack' and r['context']['event'] == 'spx']
        samples = [r for r in recs if r['type'] == 'sample']
        wt = lambda r: next(w['value'] for w in r['weights'] if w['metric'] == 'wt')
        assert sum(s['period'] for s in samples) == sum(wt(r) for r in stacks), src
        per = {}
        for s in samples:
            per[s['stack_id']] = per.get(s['stack_id'], 0) + s['period']
        want = {}
        for r in stacks:
            want[r['id']] = want.get(r['id'], 0) + wt(r)
        assert {k: v for k, v in per.items() if v} == {k: v for k, v in want.items() if v}, src
        hdr = recs[0]['time_range']
        assert all(hdr['start'] <= s['timestamp'] <= hdr['end'] for s in samples), src
        dsos = {r['id']: r['name'] for r in recs if r['type'] == 'dso'}
        frames = {r['id']: r for r in recs if r['type'] == 'frame'}
        for s in stacks:
            h = 0xcbf29ce484222325
            for fid in s['frames']:
                f = frames[fid]
                text = '\x1f'.join([f['func'], dsos[f['dso']], f.get('ip', ''), '',
                                    f.get('srcline', '')]) + '\x1e'
                for b in text.encode():
                    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
            assert s['id'] == '0x%016x' % h, (src, s['id'])


@check
def spx_detection_and_errors():
    base = ok([CONV, os.path.join(SPX, 'basic.json')])
    assert ok([CONV, os.path.join(SPX, 'basic.txt.gz')]) == base
    assert ok([CONV, '--from', 'spx', os.path.join(SPX, 'basic.json')]) == base
    assert run([CONV, '--from', 'spx', '-'], stdin=os.path.join(SPX, 'basic.json'))[0] == 2
    assert run([CONV, '--from', 'spx', SMALL])[0] == 1
    # a directory of SPAA files is merged (cli_merge.py), not an SPX report
    assert run([CONV, os.path.join(DATA, 'dir')])[0] == 0
    assert run([CONV, '--from', 'spx', os.path.join(DATA, 'dir')])[0] == 1
    for d in sorted(os.listdir(os.path.join(DATA, 'bad'))):
        if d.startswith('spx_'):
            dst = os.path.join(TMP, 'never.spaa')
            rc, out, err = run([CONV, '-o', dst, os.path.join(DATA, 'bad', d)])
            assert rc == 1 and out == '' and 'error:' in err and not os.path.exists(dst), (d, rc, err)


@check
def spaa_to_spaa_validates_and_normalizes():
    # every bad SPAA input is an error and leaves no file
    for name in sorted(os.listdir(os.path.join(DATA, 'bad'))):
        if '.spaa' not in name:
            continue
        dst = os.path.join(TMP, 'never.spaa')
        rc, out, err = run([CONV, '--from', 'spaa', '-o', dst, os.path.join(DATA, 'bad', name)])
        assert rc == 1 and 'error:' in err and not os.path.exists(dst), (name, rc, err)
    # CRLF, blanks around records and blank lines go; everything else stays
    src = os.path.join(DATA, 'basic.spaa')
    with open(src) as f:
        lines = f.read().splitlines()
    messy = os.path.join(TMP, 'messy.spaa')
    with open(messy, 'w', newline='') as f:
        f.write(lines[0] + '\r\n' + '\r\n'.join('  ' + l + '\t' for l in lines[1:]) + '\r\n\r\n')
    rc, out, err = run([CONV, messy])
    assert rc == 0 and out == '\n'.join(lines) + '\n', (rc, err)
    assert 'blank line' in err, err
    # an unknown field and record type survive, with a warning for the type
    extra = os.path.join(TMP, 'extra.spaa')
    with open(extra, 'w') as f:
        f.write(lines[0] + '\n' + '\n'.join(lines[1:]) + '\n{"type":"x_note","x_field":[1,2]}\n')
    rc, out, err = run([CONV, '-', ], stdin=extra)
    assert rc == 0 and out.endswith('{"type":"x_note","x_field":[1,2]}\n'), (rc, err)
    # SPAA to folded from standard input, detected
    assert ok([CONV, '--to', 'folded', '-'], stdin=src) == ok([CONV, '--to', 'folded', src])


shutil.rmtree(TMP, ignore_errors=True)
finish()

#!/usr/bin/env python3
"""pprof profiles against pprof itself.

tests/data/pprof/go_*.pb.gz are real Go profiles (phases.go.txt, see
README-pprof.md); beside them the output of `go tool pprof -top` for each
sample type and of `-raw`, which this test reads as the expected answer:
flat and cum of every function must equal spaa-hotspots' self and total
exactly.  synthetic*.pb come from gen_synthetic.py; their numbers are
worked out by hand in README-pprof.md (and `go tool pprof -top` agrees).
Go is not needed to run this.
"""
import json
import os
import re
import shutil
import tempfile

from clitest import check, finish, ok, run

HOT = './spaa-hotspots'
D = 'tests/data/pprof'
CPU = os.path.join(D, 'go_cpu.pb.gz')
HEAP = os.path.join(D, 'go_heap.pb.gz')
SYN = os.path.join(D, 'synthetic.pb')


def value(cell):
    return cell['value'] if isinstance(cell, dict) else cell


def hotspots(path, *opts):
    """function -> (self, total) of spaa-hotspots' first table."""
    doc = json.loads(ok([HOT, '--limit', 'unlimited'] + list(opts) + [path]))
    return {r[0]: (value(r[2]), value(r[4])) for r in doc['results'][0]['data']}


def pprof_top(name):
    """function -> (flat, cum) of a saved `go tool pprof -top`, numbers
    with their unit suffix (ns, B) removed; "(inline)" names are the
    function's (each appears in one form only in these profiles)."""
    rows = {}
    with open(os.path.join(D, name)) as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip().startswith('flat'))
    for l in lines[start + 1:]:
        flat, _, _, cum, _, fn = l.split(None, 5)
        fn = fn[:-len(' (inline)')] if fn.endswith(' (inline)') else fn
        assert fn not in rows, fn
        rows[fn] = (int(re.sub(r'[^0-9]', '', flat)), int(re.sub(r'[^0-9]', '', cum)))
    return rows


def nonzero(rows):
    return {k: v for k, v in rows.items() if v != (0, 0)}


def records(path):
    return [json.loads(l) for l in ok(['./spaa-convert', path]).splitlines()]


def raw_samples(name):
    """(values, labels) of each sample of a saved `go tool pprof -raw`."""
    out = []
    with open(os.path.join(D, name)) as f:
        lines = f.read().splitlines()
    i = lines.index('Samples:') + 2
    while i < len(lines) and ':' in lines[i] and not lines[i].startswith('Locations'):
        vals = [int(v) for v in lines[i].split(':')[0].split()]
        labels = {}
        while i + 1 < len(lines) and re.match(r'^\s+\S+:\[', lines[i + 1]):
            i += 1
            for k, v in re.findall(r'(\S+):\[([^\]]*)\]', lines[i]):
                labels[k] = v
        out.append((vals, labels))
        i += 1
    return out


@check
def cpu_flat_cum_equal_pprof_top():
    assert hotspots(CPU) == pprof_top('go_cpu.top.txt')
    assert hotspots(CPU, '--metric', 'samples') == pprof_top('go_cpu.top_samples.txt')


@check
def heap_every_sample_type_equals_pprof_top():
    for typ, metric in (('alloc_space', 'alloc_bytes'), ('alloc_objects', 'alloc_count'),
                        ('inuse_space', 'live_bytes'), ('inuse_objects', 'live_count')):
        got = nonzero(hotspots(HEAP, '--metric', metric))
        exp = nonzero(pprof_top('go_heap.top_%s.txt' % typ))
        assert got == exp, (typ, got, exp)


@check
def labels_keep_their_samples():
    # cpu per worker label, from pprof -raw, against the stack records
    want, got = {}, {}
    for vals, labels in raw_samples('go_cpu.raw.txt'):
        k = labels.get('worker', '')
        want[k] = want.get(k, 0) + vals[1]
    for r in records(CPU):
        if r['type'] == 'stack':
            k = r.get('context', {}).get('labels', {}).get('worker', '')
            w = {x['metric']: x['value'] for x in r['weights']}
            got[k] = got.get(k, 0) + w['cpu']
    assert got == want and set(want) == {'', 'hash', 'sort'}, (got, want)


def cpu_by_worker(lines):
    got = {}
    for r in lines:
        if r['type'] == 'stack':
            k = r.get('context', {}).get('labels', {}).get('worker', '')
            got[k] = got.get(k, 0) + {x['metric']: x['value'] for x in r['weights']}['cpu']
    return got


@check
def labels_survive_the_model():
    """Labels are part of a stack record's context in the model, so a
    merge (two copies: twice pprof -raw's cpu per worker) and a SPAA to
    SPAA copy keep them; records that differ only by their labels stay
    apart, and labels written in another order are the same labels."""
    want = {}
    for vals, labels in raw_samples('go_cpu.raw.txt'):
        k = labels.get('worker', '')
        want[k] = want.get(k, 0) + vals[1]
    merged = [json.loads(l) for l in ok(['./spaa-convert', CPU, CPU]).splitlines()]
    assert cpu_by_worker(merged) == {k: 2 * v for k, v in want.items()}, merged
    tmp = tempfile.mkdtemp(prefix='cli_pprof.')
    try:
        spaa = os.path.join(tmp, 'cpu.spaa')
        ok(['./spaa-convert', '-o', spaa, CPU])
        again = [json.loads(l) for l in ok(['./spaa-convert', spaa]).splitlines()]
        assert cpu_by_worker(again) == want, again
        # one stack: labels {a: "x", n: 1} twice (keys in either order),
        # {a: "y"} once, none once: three records, weights 2+3, 4 and 5
        head = ('{"type":"header","format":"spaa","version":"1.0","source_tool":"pprof",'
                '"frame_order":"leaf_to_root","stack_id_mode":"content_addressable",'
                '"events":[{"name":"cpu","kind":"timer","sampling":{"mode":"event","primary_metric":"samples"}}]}\n'
                '{"type":"dso","id":1,"name":"app"}\n{"type":"frame","id":1,"func":"main","dso":1}\n')
        def stack(ctx, w):
            return ('{"type":"stack","id":"0x1","frames":[1],"context":%s,'
                    '"weights":[{"metric":"samples","value":%d}]}\n' % (ctx, w))
        os.mkdir(os.path.join(tmp, 'ab'))
        a, b = os.path.join(tmp, 'ab', 'a.spaa'), os.path.join(tmp, 'ab', 'b.spaa')
        with open(a, 'w') as f:
            f.write(head + stack('{"event":"cpu","labels":{"a":"x","n":1}}', 2)
                    + stack('{"event":"cpu","labels":{"a":"y"}}', 4))
        with open(b, 'w') as f:
            f.write(head + stack('{"event":"cpu","labels":{"n":1,"a":"x"}}', 3)
                    + stack('{"event":"cpu"}', 5))
        recs = [json.loads(l) for l in ok(['./spaa-convert', a, b]).splitlines()]
        got = sorted((json.dumps(r['context'].get('labels'), sort_keys=True), r['weights'][0]['value'])
                     for r in recs if r['type'] == 'stack')
        assert got == [('null', 5), ('{"a": "x", "n": 1}', 5), ('{"a": "y"}', 4)], got
        # an analysis of both counts every record once: 2 + 4 + 3 + 5
        doc = json.loads(ok([HOT, os.path.join(tmp, 'ab')]))
        assert [(r[0], value(r[2]), value(r[4])) for r in doc['results'][0]['data']] == \
            [('main', 14, 14)], doc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@check
def header_names_event_period_time_and_primary():
    h = records(CPU)[0]
    ev = h['events'][0]
    assert ev['name'] == 'cpu' and ev['kind'] == 'timer', ev
    # the last sample type is primary when no default is given (pprof's rule)
    assert ev['sampling'] == {'mode': 'period', 'primary_metric': 'cpu',
                              'sample_period': 10000000}, ev
    # Time: 2026-11-25 15:12:57.00964321 of go_cpu.raw.txt, as ns since 1970
    assert h['time_range']['start'] == 1795619577009643210, h
    heap = records(HEAP)[0]['events'][0]
    assert heap['kind'] == 'allocation' and \
        heap['sampling']['primary_metric'] == 'live_bytes', heap


@check
def inlined_lines_are_inlined_frames():
    frames = [r for r in records(CPU) if r['type'] == 'frame']
    mix = [f for f in frames if f['func'] == 'main.mix']
    assert mix and all(f.get('inlined') and f['inline_depth'] == 1 for f in mix), mix
    # each inlined frame sits on a physical frame of the same address
    phys = {f['ip'] for f in frames if f.get('inline_depth') == 0}
    assert all(f['ip'] in phys for f in mix)


@check
def allocs_reads_go_heap_profiles():
    doc = json.loads(ok(['./spaa-allocs', '--limit', 'unlimited', HEAP]))
    sites = {r[0]: r for r in doc['results'][0]['data']}
    large = sites['main.allocLarge']
    # the first sample of go_heap.raw.txt: 40 41943040 10 10485760
    assert [value(large[i]) for i in (2, 3, 6, 7)] == [41943040, 40, 10485760, 10], large
    total = sum(v[1] for v, _ in raw_samples('go_heap.raw.txt'))
    assert sum(value(r[2]) for r in sites.values()) == total


@check
def synthetic_numbers_by_hand():
    # README-pprof.md: samples main 5, work<-main 3 (inl inlined), kfunc 2,
    # an unsymbolized 0x4242 1; default_sample_type "samples" is primary
    assert hotspots(SYN) == {'main': (5, 11), 'inl': (3, 5), 'kfunc': (2, 2),
                             '0x4242': (1, 1), 'work': (0, 5)}
    # no default: the last type (cpu, ns) is primary, compressed input
    assert hotspots(os.path.join(D, 'synthetic_last.pb.gz')) == {
        'main': (5000, 11000), 'inl': (3000, 5000), 'kfunc': (2000, 2000),
        '0x4242': (1000, 1000), 'work': (0, 5000)}


@check
def recursion_through_inlined_lines():
    # work calls itself where inl is inlined: stack inl,work,inl,work,main
    # (4 samples), then main alone (1); recursion counts once per stack
    assert hotspots(os.path.join(D, 'synthetic_recursive.pb')) == {
        'inl': (4, 4), 'main': (1, 5), 'work': (0, 4)}


@check
def drop_and_keep_frames():
    assert hotspots(os.path.join(D, 'synthetic_drop.pb')) == {
        'main': (5, 11), 'work': (5, 5), '0x4242': (1, 1)}
    assert hotspots(os.path.join(D, 'synthetic_drop_work.pb')) == {
        'main': (10, 11), '0x4242': (1, 1)}
    assert hotspots(os.path.join(D, 'synthetic_keep.pb')) == {
        'main': (5, 11), 'work': (5, 5), '0x4242': (1, 1)}


@check
def synthetic_records():
    recs = records(SYN)
    h = recs[0]
    assert h['time_range'] == {'start': 1000, 'end': 6000, 'unit': 'nanoseconds'}, h
    dsos = {r['name']: r for r in recs if r['type'] == 'dso'}
    assert dsos['/usr/bin/app'].get('build_id') == 'abc123', dsos
    assert dsos['[kernel.kallsyms]']['is_kernel'] is True, dsos
    frames = {r['func']: r for r in recs if r['type'] == 'frame'}
    assert frames['main']['srcline'] == 'app.c:10', frames['main']
    assert frames['kfunc']['kind'] == 'kernel', frames['kfunc']
    assert frames['0x4242']['func_resolved'] is False, frames['0x4242']
    assert frames['inl']['inlined'] and frames['inl']['inline_depth'] == 1
    assert frames['work']['inline_depth'] == 0
    ctx = [r.get('context') for r in recs if r['type'] == 'stack']
    assert {'pid': 7, 'tid': 8, 'labels': {'pid': 7, 'tid': 8}} in ctx, ctx
    assert {'labels': {'worker': 'a'}} in ctx, ctx


@check
def folded_output_of_pprof():
    out = ok(['./spaa-convert', '--to', 'folded', SYN])
    assert out == 'main 5\nmain;0x4242 1\nmain;work;inl 3\nmain;work;inl;kfunc 2\n', out


@check
def limit_on_the_decoded_size():
    env = dict(os.environ, SPAA_MAX_PPROF='100')
    import subprocess
    p = subprocess.run([HOT, SYN], env=env, capture_output=True, stdin=subprocess.DEVNULL)
    doc = json.loads(p.stdout)
    assert p.returncode == 1 and doc['error-code'] == 'limit-exceeded', doc
    assert 'SPAA_MAX_PPROF' in doc['error-message'], doc


finish()

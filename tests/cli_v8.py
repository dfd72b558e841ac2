#!/usr/bin/env python3
"""End-to-end checks of Chrome/V8 CPU profiles as input (common/formats/v8_cpu.h).

Inputs in tests/data/v8/ (README there): two .cpuprofile files of the
corpus with the reference converter's SPAA of each, a .cpuprofile made
here with node --cpu-prof, and a trace of two node processes.  Each
check prints "ok NAME" or "FAIL NAME" with the reason; the run ends with
"N passed, M failed".  Run from the repository root (make check does).
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile
from clitest import check, finish, lami, ok, run

HOT = './spaa-hotspots'
CONV = './spaa-convert'
V8 = 'tests/data/v8'
CORPUS = ['corpus_jswork', 'corpus_server']
WORK = os.path.join(V8, 'node_work.cpuprofile')
TRACE = os.path.join(V8, 'node_trace_2proc.json.gz')
NATIVE = [os.path.join(V8, c + '.cpuprofile.gz') for c in CORPUS] + [WORK, TRACE]
TMP = tempfile.mkdtemp(prefix='cli_v8.')


def functions(path, metric=None):
    """{(function, DSO): (self, total, self samples)} of spaa-hotspots."""
    args = [HOT, '--limit', 'unlimited'] + (['--metric', metric] if metric else []) + [path]
    table = lami(args)['results'][0]
    assert table['class']['title'].startswith('Functions'), table['class']['title']
    return {(r[0], r[1]['path']): (r[2]['value'], r[4]['value'], r[6]) for r in table['data']}


def functions_args(path, extra):
    rc, out, _ = run([HOT, '--limit', 'unlimited', '--metric', 'time_us'] + extra + [path])
    if rc:
        return {}
    table = json.loads(out)['results'][0]
    return {(r[0], r[1]['path']): (r[2]['value'], r[4]['value'], r[6]) for r in table['data']}


@check
def corpus_agrees_with_the_reference_conversion():
    """Every function's self and total, in samples and in time, as the
    reference converter's SPAA says, but for "(root)": the reference keeps
    V8's tree root as a frame under every stack, so it shows a function
    "(root)" with the whole profile as its total; it is no function, and
    this reader leaves it out (doc/V8.md).  Nothing else differs."""
    for c in CORPUS:
        native = os.path.join(V8, c + '.cpuprofile.gz')
        ref = os.path.join(V8, c + '.spaa.gz')
        for metric in (None, 'time_us'):
            mine, theirs = functions(native, metric), functions(ref, metric)
            root = theirs.pop(('(root)', '(program)'))
            assert mine == theirs, (c, metric, set(mine.items()) ^ set(theirs.items()))
            # the root's total is the whole profile: the sum of every self time
            if metric:
                assert root[1] == sum(v[0] for v in mine.values()), (c, root)


@check
def independent_recomputation():
    """Self and total per function from the JSON by another method."""
    rc, out, _ = run([sys.executable, 'tests/v8_reference.py', HOT] + NATIVE)
    assert rc == 0, out


@check
def compressed_and_stdin_read_the_same():
    with open(WORK, 'rb') as f:
        data = f.read()
    gz = os.path.join(TMP, 'w.cpuprofile.gz')
    zst = os.path.join(TMP, 'w.cpuprofile.zst')
    with open(gz, 'wb') as f:
        f.write(gzip.compress(data))
    subprocess.run(['zstd', '-q', '-f', WORK, '-o', zst], check=True)
    base = ok([HOT, WORK]).replace(WORK, 'X')
    for p in (gz, zst):
        assert ok([HOT, p]).replace(p, 'X') == base, p
    assert ok([HOT, '-'], stdin=WORK) == ok([HOT, WORK])


@check
def time_ranges_partition_the_samples():
    """--begin/--end over the whole range change nothing; halves add up."""
    for p in (WORK, TRACE):
        doc = lami([HOT, '--limit', 'unlimited', p])
        begin, end = doc['results'][0]['time-range']['begin'], doc['results'][0]['time-range']['end']
        whole = functions(p, 'time_us')
        ranged = lami([HOT, '--limit', 'unlimited', '--metric', 'time_us',
                       '--begin', str(begin), '--end', str(end), p])['results'][0]['data']
        assert {(r[0], r[1]['path']): (r[2]['value'], r[4]['value'], r[6]) for r in ranged} == whole, p
        mid = (begin + end) // 2
        halves = 0
        for a in (['--begin', str(begin), '--end', str(mid)],
                  ['--begin', str(mid + 1), '--end', str(end)]):
            halves += sum(v[0] for v in functions_args(p, a).values())
        assert halves == sum(v[0] for v in whole.values()), (p, halves)


@check
def trace_processes_are_kept_apart():
    """Two node processes, each with two profiles whose node ids both
    start at 1: the per-thread table has each process with the samples of
    its own chunks, and --pid selects one."""
    with gzip.open(TRACE, 'rt') as f:
        events = json.load(f)['traceEvents']
    samples, names, tids = {}, {}, {}
    for e in events:
        if e['name'] == 'ProfileChunk':
            n = len(e['args']['data'].get('cpuProfile', {}).get('samples', []))
            samples[e['pid']] = samples.get(e['pid'], 0) + n
        if e['name'] == 'Profile':
            tids[e['pid']] = e['tid']
        if e['name'] == 'thread_name':
            names[(e['pid'], e['tid'])] = e['args']['name']
    assert len(samples) == 2
    for pid, n in samples.items():
        rows = functions_args(TRACE, ['--pid', str(pid)])
        assert sum(r[2] for r in rows.values()) == n, (pid, n)
    threads = lami([HOT, TRACE])['results'][2]
    assert threads['class']['title'].startswith('Weight per process'), threads['class']['title']
    got = sorted((r[0]['pid'], r[0].get('name')) for r in threads['data'])
    assert got == sorted((pid, names[(pid, tids[pid])]) for pid in samples), got


@check
def converts_to_spaa_folded_and_svg():
    """The SPAA written from a profile reads back to the same analysis,
    samples and all; folded and SVG come out too."""
    for p in (WORK, TRACE):
        out = os.path.join(TMP, 'c.spaa')
        ok([CONV, '-o', out, p])
        ok(['./spaa-validate', out])
        assert functions(out, 'time_us') == functions(p, 'time_us'), p
        folded = ok([CONV, '--to', 'folded', p])
        total = sum(int(l.rsplit(' ', 1)[1]) for l in folded.splitlines())
        assert total == sum(v[2] for v in functions(p).values()), p
        assert ok([CONV, '--to', 'svg', p]).startswith('<?xml')


@check
def hostile_inputs_fail_cleanly():
    """Each names the file, and the line where the document says it."""
    for name in sorted(os.listdir('tests/data/bad')):
        if not name.startswith('v8_'):
            continue
        path = os.path.join('tests/data/bad', name)
        for prog in (HOT, CONV):
            rc, out, err = run([prog, path])
            assert rc == 1 and path in err and err.count('\n') == 1, (prog, path, rc, err)


finish()

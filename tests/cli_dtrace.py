#!/usr/bin/env python3
"""End-to-end checks of DTrace aggregation text as input (common/formats/dtrace.h).

Inputs in tests/data/dtrace/ (README there): the corpus' two aggregations
with the reference converter's SPAA of each, and small hand-made files
whose every number is worked out below.  Each check prints "ok NAME" or
"FAIL NAME" with the reason; the run ends with "N passed, M failed".  Run
from the repository root (make check does).
"""
import json
import os
import tempfile
from clitest import check, finish, lami, ok, run

HOT = './spaa-hotspots'
CONV = './spaa-convert'
D = 'tests/data/dtrace'
TMP = tempfile.mkdtemp(prefix='cli_dtrace.')


def value(c):
    return c.get('value') if isinstance(c, dict) else c    # None: unknown


def functions(path, metric=None):
    """{(function, DSO): (self, total, self samples)} of spaa-hotspots."""
    args = [HOT, '--limit', 'unlimited'] + (['--metric', metric] if metric else []) + [path]
    table = lami(args)['results'][0]
    assert table['class']['title'].startswith('Functions'), table['class']['title']
    return {(r[0], r[1]['path']): (value(r[2]), value(r[4]), value(r[6])) for r in table['data']}


@check
def corpus_agrees_with_the_reference_conversion():
    """Every function's self and total as the reference converter's SPAA
    says.  Two differences, both explained: a frame without a module is
    in DSO "[unknown]" here (perf's name; the reference says "unknown"),
    and in the macOS file the reference takes the line "  3   2081
    :tick-10s" that dtrace's exit clause printed (corpus README) for the
    leaf frame of the first stack, so its "__exit" has self 0 and a
    function named after that line has the stack's one sample; here the
    line is one of dtrace's messages, skipped with a warning, and "__exit"
    has its sample."""
    for name in ('dtrace_freebsd_syscall_read', 'dtrace_macos_rg_profile'):
        mine = functions(os.path.join(D, name + '.txt'))
        theirs = {(f, '[unknown]' if dso == 'unknown' else dso): v
                  for (f, dso), v in functions(os.path.join(D, name + '.spaa.gz')).items()}
        if name == 'dtrace_macos_rg_profile':
            tick = [k for k in theirs if k[0].endswith(':tick-10s')]
            assert len(tick) == 1 and theirs.pop(tick[0])[2] == 1, tick
            exit_ = ('__exit', 'libsystem_kernel.dylib')
            assert theirs[exit_][2] == 0 and mine[exit_][2] == 1
            theirs[exit_] = mine[exit_]
        assert mine == theirs, (name, set(mine.items()) ^ set(theirs.items()))


@check
def keys_metric_and_event_from_header_lines():
    """malloc_keys.txt, by hand: malloc is the leaf of every entry, 4096 +
    1024 + 512 + 7 + 100 = 5739 bytes; palloc (at +0x1f and +0x33, one
    function) is on 4096 + 1024 + 100 = 5220; walk is recursive, counted
    once: 7; postgres' main 5220 + 7 = 5227; the unresolved 0x7ff012 and
    psql's main 512."""
    path = os.path.join(D, 'malloc_keys.txt')
    doc = lami([HOT, '--limit', 'unlimited', path])
    assert doc['results'][0]['class']['title'] == "Functions by self weight (event 'malloc', primary metric 'bytes')"
    # no samples (an aggregation has none): "Self samples" is unknown
    assert functions(path) == {
        ('malloc', 'libc.so.7'): (5739, 5739, None),
        ('palloc', 'postgres'): (0, 5220, None),
        ('MemoryContextCreate', 'postgres'): (0, 1024, None),
        ('walk', 'postgres'): (0, 7, None),
        ('main', 'postgres'): (0, 5227, None),
        ('0x7ff012', '[unknown]'): (0, 512, None),
        ('main', 'psql'): (0, 512, None),
    }
    # the key (execname) is the records' command name
    spaa = ok([CONV, path])
    assert '"comm":"psql"' in spaa and '"comm":"postgres"' in spaa, spaa


@check
def profile_rate_and_kernel_stacks():
    """kernel_profile.txt: profile-4ms is 250 Hz, so a sample is 4 ms;
    fork_exit is on all 100 samples (400 ms), spinlock_exit 30 (120 ms),
    cpu_idle 70 (280 ms); kernel and zfs.ko frames are kernel frames."""
    path = os.path.join(D, 'kernel_profile.txt')
    f = functions(path)
    assert f[('fork_exit', 'kernel')] == (0, 400000000, 0), f
    assert f[('spinlock_exit', 'kernel')] == (120000000, 120000000, 30), f
    assert f[('cpu_idle', 'kernel')] == (280000000, 280000000, 70), f
    spaa = ok([CONV, path])
    assert '"frequency_hz":250' in spaa, spaa
    assert all('"kind":"kernel"' in l for l in spaa.splitlines() if '"type":"frame"' in l), spaa
    rc, out, err = run([HOT, path])
    assert rc == 0 and 'lines that are not part of an aggregation entry were skipped' in err, err


@check
def jstack_frames():
    """jstack.txt: Java frames have no module; writeBytes is on 3 + 5."""
    f = functions(os.path.join(D, 'jstack.txt'))
    assert f[('java/io/FileOutputStream.writeBytes([BII)V', '[unknown]')] == (0, 8, 0), f
    assert f[('__write', 'libc.so.1')] == (8, 8, 8), f


def threads(path):
    """{process cell text: weight} of spaa-hotspots' threads table."""
    doc = lami([HOT, '--limit', 'unlimited', path])
    t = [t for t in doc['results'] if t['class']['title'].startswith('Weight per process')]
    assert len(t) == 1, [t['class']['title'] for t in doc['results']]
    return {(r[0].get('pid'), r[0].get('tid'), r[0].get('name')): value(r[1]) for r in t[0]['data']}


@check
def pid_and_tid_keys_are_the_records_process_and_thread():
    """pid_keys.txt (@[execname, pid, ustack()] on profile-997, 1 sample =
    1e9/997 ns): app 101 has 5 + 3 = 8 samples, app 102 7, sh 7 2; the
    same stack under two pids stays two records.  pid_only.txt
    (@[pid, ustack()], no stderr line, so told by its first block): 4242
    11, 4243 4 counts.  tid_keys.txt: "# keys: tid, ustack()" makes the
    numbers thread ids: 31 6, 32 1."""
    ns = lambda n: round(n * 1e9 / 997)
    assert threads(os.path.join(D, 'pid_keys.txt')) == {
        (101, None, 'app'): ns(8), (102, None, 'app'): ns(7), (7, None, 'sh'): ns(2)}
    assert threads(os.path.join(D, 'pid_only.txt')) == {(4242, None, None): 11, (4243, None, None): 4}
    assert threads(os.path.join(D, 'tid_keys.txt')) == {(None, 31, None): 6, (None, 32, None): 1}
    spaa = ok([CONV, os.path.join(D, 'pid_keys.txt')])
    recs = [json.loads(l) for l in spaa.splitlines() if '"type":"stack"' in l]
    assert sorted((r['context'].get('pid'), r['context'].get('comm'), r['weights'][0]['value'])
                  for r in recs) == [(7, 'sh', 2), (101, 'app', 3), (101, 'app', 5), (102, 'app', 7)], recs


@check
def converts_and_reads_back():
    for name in os.listdir(D):
        if not name.endswith('.txt'):
            continue
        path = os.path.join(D, name)
        out = os.path.join(TMP, name + '.spaa')
        ok([CONV, '-o', out, path])
        ok(['./spaa-validate', out])
        assert functions(out) == functions(path), name


@check
def hostile_inputs_fail_cleanly():
    for name in sorted(os.listdir('tests/data/bad')):
        if not name.startswith('dtrace_'):
            continue
        path = os.path.join('tests/data/bad', name)
        for prog in (HOT, CONV):
            rc, out, err = run([prog, path])
            assert rc == 1 and path in err and err.count('\n') == 1, (prog, path, rc, err)


finish()

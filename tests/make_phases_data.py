#!/usr/bin/env python3
"""Writes the synthetic spaa-phases test profiles, tests/data/phases_*.spaa.

Deterministic: the same files on every run (a fixed seed where anything
is random).  The true phase boundaries of each file are known by
construction; tests/data/README-phases.md derives the expected output by
hand and tests/cli_phases.py checks the detected boundaries.

    python3 tests/make_phases_data.py [OUTDIR]     # default tests/data

    python3 tests/make_phases_data.py --big N PATH  # N samples for a
        memory benchmark (never committed): the abia pattern repeated
"""
import json
import os
import random
import sys

NS = 10**9


def ts(ns):
    """ns as exact decimal seconds text (no float rounding)."""
    return '%d.%09d' % divmod(ns, NS)


class Profile:
    def __init__(self, time_range=None, funcs=('A', 'B', 'C')):
        self.lines = []
        self.funcs = funcs
        hdr = {'type': 'header', 'format': 'spaa', 'version': '1.0',
               'source_tool': 'perf', 'frame_order': 'leaf_to_root',
               'events': [{'name': 'cpu-clock', 'kind': 'software',
                           'sampling': {'mode': 'period', 'primary_metric': 'period'}}],
               'stack_id_mode': 'local'}
        if time_range:
            hdr['time_range'] = {'start': 'S', 'end': 'E', 'unit': 'seconds'}
        text = json.dumps(hdr, separators=(',', ':'))
        if time_range:
            text = text.replace('"S"', ts(time_range[0])).replace('"E"', ts(time_range[1]))
        self.lines.append(text)
        self.rec({'type': 'dso', 'id': 1, 'name': '/usr/bin/app', 'is_kernel': False})
        self.rec({'type': 'frame', 'id': 1, 'func': 'main', 'dso': 1, 'kind': 'user'})
        for i, f in enumerate(funcs):
            self.rec({'type': 'frame', 'id': i + 2, 'func': f, 'dso': 1, 'kind': 'user'})
        self.threads = {}
        self.stack_stats = {}   # (func, tid) -> [samples, period]

    def rec(self, obj):
        self.lines.append(json.dumps(obj, separators=(',', ':')))

    def thread(self, tid, comm):
        self.rec({'type': 'thread', 'pid': 10, 'tid': tid, 'comm': comm})

    def sample(self, t_ns, func, tid, cpu, period=10_000_000):
        sid = '%s%d' % (func, tid)
        st = self.stack_stats.setdefault((func, tid), [0, 0])
        st[0] += 1
        st[1] += period
        self.lines.append('{"type":"sample","timestamp":%s,"pid":10,"tid":%d,"cpu":%d,'
                          '"event":"cpu-clock","period":%d,"stack_id":"%s"}'
                          % (ts(t_ns), tid, cpu, period, sid))

    def stacks(self):
        for (func, tid), (n, per) in sorted(self.stack_stats.items()):
            fid = self.funcs.index(func) + 2
            self.rec({'type': 'stack', 'id': '%s%d' % (func, tid), 'frames': [fid, 1],
                      'context': {'event': 'cpu-clock', 'pid': 10, 'tid': tid},
                      'weights': [{'metric': 'samples', 'value': n},
                                  {'metric': 'period', 'value': per}],
                      'exclusive': {'frame': fid, 'weights': [{'metric': 'period', 'value': per}]}})

    def write(self, path):
        with open(path, 'w') as f:
            f.write('\n'.join(self.lines) + '\n')


def abia(start=100 * NS, repeat=1, step=10_000_000):
    """3 s of A (tid 11, cpu 0), 2 s of B (tid 12, cpu 1), 1 s idle, 2 s of
    A and C alternating (A: tid 11 cpu 0, C: tid 13 cpu 2); one sample
    every 10 ms at 5 ms past each 10 ms tick.  repeat > 1 (benchmark only)
    repeats the 8 s pattern."""
    p = Profile((start, start + 8 * NS * repeat))
    p.thread(11, 'worker-a')
    p.thread(12, 'worker-b')
    p.thread(13, 'worker-c')
    for r in range(repeat):
        base = start + 8 * NS * r
        for i in range(800):
            t = base + i * step + step // 2
            sec = i * step / NS
            if sec < 3:
                p.sample(t, 'A', 11, 0)
            elif sec < 5:
                p.sample(t, 'B', 12, 1)
            elif sec < 6:
                pass
            elif i % 2 == 0:
                p.sample(t, 'A', 11, 0)
            else:
                p.sample(t, 'C', 13, 2)
    p.stacks()
    return p


def shifted():
    """No time range in the header; boundaries off any round bin edge, and
    samples written out of time order (pairs swapped).  From 50.013 s:
    A until 52.383 s (2.37 s), B until 54.193 s (1.81 s), then A, B, C
    in turn until 56.013 s; a sample every 10 ms."""
    p = Profile(None)
    t0 = 50_013_000_000
    out = []
    for i in range(600):
        t = t0 + i * 10_000_000
        if t < 52_383_000_000:
            f = 'A'
        elif t < 54_193_000_000:
            f = 'B'
        else:
            f = 'ABC'[i % 3]
        out.append((t, f))
    for j in range(0, len(out) - 1, 2):
        out[j], out[j + 1] = out[j + 1], out[j]
    for t, f in out:
        p.sample(t, f, 11, 0)
    p.stacks()
    return p


def single():
    """One phase: 4 s of A (70 %) and B (30 %) drawn at random (seed 4),
    a sample every 10 ms."""
    rnd = random.Random(4)
    p = Profile((0, 4 * NS))
    for i in range(400):
        p.sample(i * 10_000_000 + 5_000_000, 'A' if rnd.random() < 0.7 else 'B', 11, 0)
    p.stacks()
    return p


def windows():
    """Window records only (no samples): three windows of one second."""
    p = Profile((0, 3 * NS))
    p.rec({'type': 'stack', 'id': 'a', 'frames': [2, 1],
           'context': {'event': 'cpu-clock', 'pid': 10, 'tid': 11},
           'weights': [{'metric': 'samples', 'value': 60},
                       {'metric': 'period', 'value': 600_000_000}]})
    p.rec({'type': 'stack', 'id': 'b', 'frames': [3, 1],
           'context': {'event': 'cpu-clock', 'pid': 10, 'tid': 11},
           'weights': [{'metric': 'samples', 'value': 70},
                       {'metric': 'period', 'value': 700_000_000}]})
    wins = [('w1', 0, [('a', 30), ('b', 10)]),
            ('w2', 1, [('a', 20), ('b', 20)]),
            ('w3', 2, [('a', 10), ('b', 40)])]
    for wid, s, entries in wins:
        p.rec({'type': 'window', 'id': wid, 'start': s, 'end': s + 1, 'unit': 'seconds',
               'by_stack': [{'stack_id': sid,
                             'weights': [{'metric': 'samples', 'value': n},
                                         {'metric': 'period', 'value': n * 10_000_000}]}
                            for sid, n in entries]})
    return p


def big(n, path):
    """About n samples of the abia pattern (A, B, idle, A/C), one every
    1 ms, streamed to path: for a memory benchmark, never committed."""
    step = 1_000_000
    per_cycle = 7000                    # samples in one 8 s cycle
    cycles = max(1, -(-n // per_cycle))
    start = 100 * NS
    p = Profile((start, start + 8 * NS * cycles))
    for tid, comm in ((11, 'worker-a'), (12, 'worker-b'), (13, 'worker-c')):
        p.thread(tid, comm)
    counts = {}
    with open(path, 'w') as f:
        f.write('\n'.join(p.lines) + '\n')
        for c in range(cycles):
            base = start + 8 * NS * c
            buf = []
            for i in range(8000):
                sec = i // 1000
                if sec == 5:
                    continue
                func, tid, cpu = (('A', 11, 0) if sec < 3 else ('B', 12, 1) if sec < 5 else
                                  ('A', 11, 0) if i % 2 == 0 else ('C', 13, 2))
                counts[(func, tid)] = counts.get((func, tid), 0) + 1
                buf.append('{"type":"sample","timestamp":%s,"pid":10,"tid":%d,"cpu":%d,'
                           '"event":"cpu-clock","period":1000000,"stack_id":"%s%d"}\n'
                           % (ts(base + i * step + step // 2), tid, cpu, func, tid))
            f.write(''.join(buf))
        p.lines = []
        for k, v in counts.items():
            p.stack_stats[k] = [v, v * 1_000_000]
        p.stacks()
        f.write('\n'.join(p.lines) + '\n')


def main():
    if len(sys.argv) == 4 and sys.argv[1] == '--big':
        big(int(sys.argv[2]), sys.argv[3])
        return
    out = sys.argv[1] if len(sys.argv) > 1 else 'tests/data'
    for name, make in (('abia', abia), ('shifted', shifted), ('single', single),
                       ('windows', windows)):
        make().write(os.path.join(out, 'phases_%s.spaa' % name))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""A second, independent computation of spaa-hotspots' sums.

Reads a SPAA file with Python's json module (no code shared with the C
reader), aggregates the first event's primary metric the way doc/SPAA.md and
spaa-hotspots(1) define it, and compares with the program's LAMI output:

  - functions: self, total (recursion counted once per stack), self samples;
  - stacks: folded root-to-leaf function paths and their weights;
  - dsos: self weight per DSO;
  - threads: weight per (pid, tid);
  - invariants: self weights sum to the event total, total >= self,
    shares in [0, 1] and equal to weight / total.

Usage: hotspots_reference.py PROGRAM FILE...   (exit 1 on any mismatch)
"""
import gzip
import json
import subprocess
import sys
from collections import defaultdict


def open_profile(path):
    with open(path, 'rb') as f:
        magic = f.read(4)
    if magic[:2] == b'\x1f\x8b':
        return gzip.open(path, 'rt', encoding='utf-8')
    if magic == b'\x28\xb5\x2f\xfd':
        text = subprocess.run(['zstd', '-dc', path], check=True,
                              capture_output=True).stdout.decode('utf-8')
        return iter(text.splitlines())
    return open(path, encoding='utf-8')


def expected(path):
    records = [json.loads(line) for line in open_profile(path) if line.strip()]
    header = records[0]
    event = header['events'][0]
    metric = event['sampling']['primary_metric']
    root_first = header['frame_order'] == 'root_to_leaf'
    dsos = {r['id']: r['name'] for r in records if r['type'] == 'dso'}
    frames = {r['id']: (r['func'], dsos[r['dso']]) for r in records if r['type'] == 'frame'}
    pid_of = {r['tid']: r['pid'] for r in records if r['type'] == 'thread'}
    stacks = [r for r in records if r['type'] == 'stack'
              and r.get('context', {}).get('event', event['name']) == event['name']]

    def leaf_first(s):
        f = list(s['frames'])
        return f[::-1] if root_first else f

    def weight(ws, m):
        return next((w['value'] for w in ws if w['metric'] == m), None)

    by_id = defaultdict(list)
    for s in stacks:
        by_id[s['id']].append(s)
    absorbed = set()
    logical = {}
    for i, s in enumerate(stacks):
        fr = leaf_first(s)
        if s.get('stack_type', 'unified') != 'kernel':
            for rid in s.get('related_stacks', []):
                for k in by_id.get(rid, []):
                    if k.get('stack_type') == 'kernel':
                        fr = leaf_first(k) + fr
                        absorbed.add(id(k))
                        break
        logical[id(s)] = (fr, fr != leaf_first(s))

    fn_self, fn_total, fn_samples = defaultdict(int), defaultdict(int), defaultdict(int)
    paths, dso_self, threads = defaultdict(int), defaultdict(int), defaultdict(int)
    total = 0
    for s in stacks:
        if id(s) in absorbed:
            continue
        w = weight(s['weights'], metric)
        if w is None:
            continue
        fr, joined = logical[id(s)]
        self_frame, self_w = fr[0], w
        ex = s.get('exclusive')
        if ex and not joined and weight(ex['weights'], metric) is not None:
            self_frame, self_w = ex['frame'], weight(ex['weights'], metric)
        fn = frames[self_frame]
        total += w
        fn_self[fn] += self_w
        dso_self[fn[1]] += self_w
        n = weight(s['weights'], 'samples')
        if n is None:
            n = weight(s['weights'], 'count')
        fn_samples[fn] += n or 0
        for f in set(frames[x] for x in fr):
            fn_total[f] += w
        paths[';'.join(frames[x][0] for x in reversed(fr))] += w
        ctx = s.get('context', {})
        if 'pid' in ctx or 'tid' in ctx:
            pid = ctx.get('pid', pid_of.get(ctx.get('tid')))
            threads[(pid, ctx.get('tid'))] += w
    # doc/SPAA.md's metric table, for the metrics the test profiles use
    units = {w.get('unit') for s in stacks for w in s['weights'] if w['metric'] == metric}
    time_units = {'ns': 1, 'nanoseconds': 1, 'us': 1e3, 'microseconds': 1e3,
                  'ms': 1e6, 'milliseconds': 1e6, 's': 1e9, 'seconds': 1e9}
    scale = 1
    if len(units) == 1 and next(iter(units)) in time_units:
        scale = time_units[next(iter(units))]
    elif metric == 'samples' and event['sampling'].get('frequency_hz') and \
            event['sampling']['mode'] == 'frequency':
        scale = 1e9 / event['sampling']['frequency_hz']
    return dict(total=total, scale=scale, fn_self=fn_self, fn_total=fn_total, fn_samples=fn_samples,
                paths=paths, dso_self=dso_self, threads=threads)


def raw(cell, scale):
    """A weight cell back to raw units (exact for scale 1)."""
    v = cell['value'] if isinstance(cell, dict) else cell
    return v if scale == 1 else v / scale


def compare(program, path):
    out = subprocess.run([program, path], capture_output=True, text=True)
    if out.returncode:
        return ['%s: exit %d: %s' % (path, out.returncode, out.stdout.strip())]
    tables = {}
    for t in json.loads(out.stdout)['results']:
        tables[t['class']['title'].split(' (')[0]] = (None, t['data'])
    e = expected(path)
    errors = []

    def check(what, got, want):
        if got == want:
            return
        if isinstance(got, dict) and isinstance(want, dict):
            keys = sorted(set(got) | set(want), key=str)
            got = {k: got.get(k) for k in keys if got.get(k) != want.get(k)}
            want = {k: want.get(k) for k in got}
        errors.append('%s: %s: got %r, want %r' % (path, what, got, want))

    cols, rows = tables['Functions by self weight']
    scale = e['scale']
    exact = scale == 1
    got_self = sum(raw(r[2], 1) for r in rows)
    if exact:
        check('sum of self weights', got_self, e['total'])
    for r in rows:
        key = (r[0], r[1]['path'])
        s, tot = raw(r[2], scale), raw(r[4], scale)
        if exact:
            check('self of %s' % (key,), s, e['fn_self'][key])
            check('total of %s' % (key,), tot, e['fn_total'][key])
        else:
            check('self of %s' % (key,), round(s), e['fn_self'][key])
            check('total of %s' % (key,), round(tot), e['fn_total'][key])
        if isinstance(r[6], int):
            check('self samples of %s' % (key,), r[6], e['fn_samples'][key])
        check('self share of %s' % (key,), round(r[3]['value'], 12),
              round(e['fn_self'][key] / e['total'], 12))
        check('total share of %s' % (key,), round(r[5]['value'], 12),
              round(e['fn_total'][key] / e['total'], 12))
        if not 0 <= r[3]['value'] <= r[5]['value'] <= 1:
            errors.append('%s: shares of %s not 0 <= self <= total <= 1' % (path, key))
    check('function rows', len(rows), len([k for k in e['fn_total'] if e['fn_total'][k]]))

    _, rows = tables['Hot call paths']
    check('paths', {r[0]: round(raw(r[1], scale)) for r in rows},
          {k: v for k, v in e['paths'].items() if v})
    _, rows = tables['Self weight per DSO']
    check('dsos', {r[0]['path']: round(raw(r[1], scale)) for r in rows},
          {k: v for k, v in e['dso_self'].items() if v})
    if e['threads']:
        _, rows = tables['Weight per process and thread']
        check('threads', {(r[0].get('pid'), r[0].get('tid')): round(raw(r[1], scale)) for r in rows},
              dict(e['threads']))
    return errors


def main():
    program, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for f in files:
        errors = compare(program, f)
        for msg in errors[:20]:
            print('  ' + msg)
        print('%s %s' % ('FAIL' if errors else 'ok', f))
        failed += bool(errors)
    print('%d passed, %d failed' % (len(files) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

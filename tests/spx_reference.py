#!/usr/bin/env python3
"""Independent re-computation of spaa-hotspots on SPX reports.

usage: spx_reference.py PROGRAM KEY.json...

Replays each report's events the way the SPX format describes them, with
none of the C reader's shortcuts: every call is pushed with its entry
values; at its exit inclusive = exit - entry for every metric, its
exclusive = inclusive - the inclusive of its direct children, and the
call is charged to its call path (a tuple of function names).  Values are
parsed with decimal arithmetic and rounded half away from zero.  Calls
still open at the end are closed at the last event.

Then, for every metric M of the report, the exclusive value of each path
is split into its positive part (metric M) and the magnitude of its
negative part (metric "M-", present when some path needs it), and
PROGRAM --metric X --limit unlimited must give exactly:
  functions table: self = sum over paths whose leaf is f; total = sum
    over paths containing f (once per path, whatever the recursion);
  stacks table: per path, folded by name, root first.
The top functions by exclusive wall time are thereby checked exactly
(the issue asked for 0.1 %).  Exits 1 on any difference.
"""
import decimal
import gzip
import json
import subprocess
import sys


def value(tok):
    d = decimal.Decimal(tok)      # takes '-.9999' as it is
    return int(d.to_integral_value(rounding=decimal.ROUND_HALF_UP))


def replay(json_path):
    with open(json_path, 'rb') as f:
        meta = json.loads(f.read().decode('utf-8'), strict=False)
    metrics = meta['enabled_metrics']
    with gzip.open(json_path[:-5] + '.txt.gz', 'rb') as f:
        text = f.read().decode('utf-8', 'surrogateescape')
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    split = lines.index('[functions]')
    events = lines[1:split]
    names = lines[split + 1:]
    excl = {}           # path (tuple of indices) -> list of ints
    stack = []          # [path, entry values, sum of children's inclusive]
    last = None
    for ev in events:
        tok = ev.split()
        idx, start = int(tok[0]), tok[1] == '1'
        vals = [value(t) for t in tok[2:]]
        assert len(vals) == len(metrics)
        last = vals
        if start:
            path = (stack[-1][0] if stack else ()) + (idx,)
            stack.append([path, vals, [0] * len(metrics)])
        else:
            close(stack, excl, vals)
    while stack:
        close(stack, excl, last)
    return meta, metrics, names, excl


def close(stack, excl, vals):
    path, entry, children = stack.pop()
    incl = [v - e for v, e in zip(vals, entry)]
    ex = excl.setdefault(path, [0] * len(incl))
    for i, (a, c) in enumerate(zip(incl, children)):
        ex[i] += a - c
    if stack:
        parent = stack[-1][2]
        for i, a in enumerate(incl):
            parent[i] += a


def expected(names, excl, col, negative):
    fn_self, fn_total, paths = {}, {}, {}
    for path, ex in excl.items():
        v = ex[col]
        w = -v if negative else v
        w = w if w > 0 else 0
        named = tuple(names[i] for i in path)
        fn_self[named[-1]] = fn_self.get(named[-1], 0) + w
        for n in set(named):
            fn_total[n] = fn_total.get(n, 0) + w
        paths[';'.join(named)] = paths.get(';'.join(named), 0) + w
    return fn_self, fn_total, {k: v for k, v in paths.items() if v}


def num(cell):
    return cell['value'] if isinstance(cell, dict) else cell


def table(doc, prefix):
    for t in doc['results']:
        if t['class']['title'].startswith(prefix):
            return t['data']
    return []


def main():
    prog, paths = sys.argv[1], sys.argv[2:]
    failures = 0
    for path in paths:
        meta, metrics, names, excl = replay(path)
        if not excl:
            print('skip %s: no calls' % path)
            continue
        for col, m in enumerate(metrics):
            for negative in (False, True):
                name = m + '-' if negative else m
                if negative and not any(ex[col] < 0 for ex in excl.values()):
                    continue
                fs, ft, paths_w = expected(names, excl, col, negative)
                out = subprocess.run([prog, '--metric', name, '--limit', 'unlimited', path],
                                     capture_output=True, timeout=300)
                if out.returncode:
                    print('FAIL %s %s: exit %d %s' % (path, name, out.returncode,
                                                      out.stdout.decode()[:300]))
                    failures += 1
                    continue
                doc = json.loads(out.stdout)
                got_fn = {r[0]: (num(r[2]), num(r[4]))
                          for r in table(doc, 'Functions')}
                want_fn = {f: (fs.get(f, 0), ft[f]) for f in ft if fs.get(f, 0) or ft[f]}
                got_paths = {r[0]: num(r[1]) for r in table(doc, 'Hot call paths')}
                problems = []
                if got_fn != want_fn:
                    keys = sorted(set(got_fn) | set(want_fn))
                    problems += ['function %r: got %s, want %s' % (k, got_fn.get(k), want_fn.get(k))
                                 for k in keys if got_fn.get(k) != want_fn.get(k)][:5]
                if got_paths != paths_w:
                    keys = sorted(set(got_paths) | set(paths_w))
                    problems += ['path %r: got %s, want %s' % (k, got_paths.get(k), paths_w.get(k))
                                 for k in keys if got_paths.get(k) != paths_w.get(k)][:5]
                if problems:
                    failures += 1
                    print('FAIL %s --metric %s' % (path, name))
                    for p in problems:
                        print('    ' + p)
                else:
                    print('ok %s --metric %s (%d functions, %d paths)'
                          % (path, name, len(want_fn), len(paths_w)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

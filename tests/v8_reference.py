#!/usr/bin/env python3
"""An independent recomputation of V8 CPU profiles, against spaa-hotspots.

usage: v8_reference.py SPAA-HOTSPOTS FILE...

FILE is a .cpuprofile or a trace (Profile/ProfileChunk events), plain or
gzip.  From the JSON alone, by another method than the reader's (which
makes one stack per sampled node and adds its weight to every distinct
function on it), this computes each function's self and total weight: the
inclusive weight of every node bottom-up (self plus its children's), and a
function's total as the sum of the inclusive weights of its outermost
nodes (those with no ancestor of the same function), so recursion counts
once.  Self weights are samples and microseconds: a sample weighs its own
timeDeltas entry, a negative one counting 0; the tree's "(root)" is no
function (doc/V8.md).  Then every function row of spaa-hotspots (JSON
output, --metric time_us, and the default samples) must agree exactly:
Self and Total in ns = µs x 1000, Self samples, and Total share = total
samples / all samples.  Prints "ok FILE" or the differences; exit 1 on any.
"""
import gzip
import json
import subprocess
import sys
from collections import defaultdict


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return json.loads(data)


def function_of(node):
    cf = node['callFrame']
    return (cf.get('functionName') or '(anonymous)', cf.get('url') or '(program)')


def profiles(doc):
    """[(nodes by id, parent by id, [(node id, delta)])] of one document."""
    if isinstance(doc, dict) and 'nodes' in doc:
        parent = {}
        for n in doc['nodes']:
            for c in n.get('children', []):
                parent[c] = n['id']
        return [({n['id']: n for n in doc['nodes']}, parent,
                 list(zip(doc['samples'], doc['timeDeltas'])))]
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    profs = {}
    for e in events:
        if e.get('name') != 'ProfileChunk':
            continue
        nodes, parent, samples = profs.setdefault((e['pid'], e['id']), ({}, {}, []))
        data = e['args']['data']
        cp = data.get('cpuProfile', {})
        for n in cp.get('nodes', []):
            nodes[n['id']] = n
            if 'parent' in n:
                parent[n['id']] = n['parent']
        samples += zip(cp.get('samples', []), data.get('timeDeltas', []))
    return list(profs.values())


def expected(doc):
    """{function: [self samples, total samples, self µs, total µs]}"""
    out = defaultdict(lambda: [0, 0, 0, 0])
    for nodes, parent, samples in profiles(doc):
        root = [i for i, n in nodes.items() if i not in parent and
                n['callFrame'].get('functionName') == '(root)' and not n['callFrame'].get('url')]
        self_w = defaultdict(lambda: [0, 0])
        for node, delta in samples:
            self_w[node][0] += 1
            self_w[node][1] += max(delta, 0)
        children = defaultdict(list)
        for c, p in parent.items():
            children[p].append(c)
        incl = {}
        # post-order without recursion (trees run thousands deep)
        for top in [i for i in nodes if i not in parent]:
            stack = [(top, False)]
            while stack:
                i, done = stack.pop()
                if done:
                    incl[i] = [self_w[i][0] + sum(incl[c][0] for c in children[i]),
                               self_w[i][1] + sum(incl[c][1] for c in children[i])]
                    continue
                stack.append((i, True))
                stack.extend((c, False) for c in children[i])
        for i, n in nodes.items():
            if i in root:
                continue
            f = function_of(n)
            out[f][0] += self_w[i][0]
            out[f][2] += self_w[i][1]
            a, outermost = parent.get(i), True
            while a is not None:
                if a not in root and function_of(nodes[a]) == f:
                    outermost = False
                    break
                a = parent.get(a)
            if outermost:
                out[f][1] += incl[i][0]
                out[f][3] += incl[i][1]
    return out


def rows(hotspots, path, metric):
    args = [hotspots, '--limit', 'unlimited', path]
    if metric:
        args[1:1] = ['--metric', metric]
    doc = json.loads(subprocess.run(args, capture_output=True, check=True).stdout)
    table = doc['results'][0]
    assert table['class']['title'].startswith('Functions'), table['class']['title']
    got = {}
    for r in table['data']:
        got[(r[0], r[1]['path'])] = r
    return got


def main():
    hotspots, failed = sys.argv[1], 0
    for path in sys.argv[2:]:
        exp = {f: w for f, w in expected(load(path)).items() if w[1]}
        all_samples = sum(w[0] for w in exp.values())
        by_time = rows(hotspots, path, 'time_us')
        by_count = rows(hotspots, path, None)
        bad = []
        if set(by_time) != set(exp) or set(by_count) != set(exp):
            bad.append('functions differ: %s' % sorted(set(by_time) ^ set(exp)))
        for f, (ss, ts, su, tu) in exp.items():
            t, c = by_time.get(f), by_count.get(f)
            if not t or not c:
                continue
            got = (t[2]['value'], t[4]['value'], c[6], round(c[5]['value'] * all_samples, 6))
            want = (su * 1000, tu * 1000, ss, float(ts))
            if got != want:
                bad.append('%s: got %s, expected %s' % (f, got, want))
        if bad:
            failed = 1
            print('FAIL %s\n  %s' % (path, '\n  '.join(bad[:20])))
        else:
            print('ok %s (%d functions)' % (path, len(exp)))
    sys.exit(failed)


if __name__ == '__main__':
    main()

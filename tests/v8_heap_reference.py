#!/usr/bin/env python3
"""An independent recomputation of V8 heap profiles, against spaa-hotspots.

usage: v8_heap_reference.py SPAA-HOTSPOTS FILE...

FILE is a heap snapshot or timeline with an allocation trace, or a
sampling heap profile (.heapprofile), plain or gzip.  From the JSON alone,
by another method than the reader's (a stack per trace node, its weight
added to every distinct function on it), this computes every function's
self and total alloc_bytes and alloc_count: inclusive weights bottom-up,
and a function's total as the sum over its outermost nodes (no ancestor of
the same function).  "(root)" is no caller: what V8 counts on the root
itself is the self and total of a function "(root)".  The snapshot's trace nodes carry their own count and
size; a sampling profile's node has selfSize bytes and as many
allocations as samples name it (doc/V8.md).
spaa-hotspots (JSON output, --metric alloc_bytes and --metric
alloc_count) must agree on every function exactly.  Prints "ok FILE" or
the differences; exit 1 on any.
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


def snapshot_nodes(d):
    """[(function, parent index or None, bytes, count)] in pre-order."""
    meta = d['snapshot']['meta']
    fif, tnf = meta['trace_function_info_fields'], meta['trace_node_fields']
    infos, strings = d['trace_function_infos'], d['strings']
    nodes = []

    def function(fi):
        base = fi * len(fif)
        name = strings[infos[base + fif.index('name')]] or '(anonymous)'
        script = strings[infos[base + fif.index('script_name')]] or '(program)'
        return name, script

    # the flat lists nest: fields..., [children]; walk with a stack
    work = [(d['trace_tree'], None)]
    while work:
        flat, parent = work.pop()
        n = len(tnf)
        for i in range(0, len(flat), n):
            rec = dict(zip(tnf, flat[i:i + n]))
            nodes.append((function(rec['function_info_index']), parent,
                          rec['size'], rec['count']))
            work.append((rec['children'], len(nodes) - 1))
    return nodes


def heapprofile_nodes(d):
    counts = defaultdict(int)
    for s in d['samples']:      # V8 also lists samples of nodes its tree leaves out
        counts[s['nodeId']] += 1
    nodes, work = [], [(d['head'], None)]
    while work:
        n, parent = work.pop()
        cf = n['callFrame']
        nodes.append(((cf['functionName'] or '(anonymous)', cf['url'] or '(program)'),
                      parent, n['selfSize'], counts[n['id']]))
        work.extend((c, len(nodes) - 1) for c in n.get('children', []))
    return nodes


def expected(nodes):
    """{function: [self bytes, total bytes, self count, total count]}"""
    root = {i for i, (f, p, _, _) in enumerate(nodes) if p is None and f == ('(root)', '(program)')}
    incl = [[b, c] for _, _, b, c in nodes]
    for i in range(len(nodes) - 1, -1, -1):     # children come after their parent
        p = nodes[i][1]
        if p is not None:
            incl[p][0] += incl[i][0]
            incl[p][1] += incl[i][1]
    out = defaultdict(lambda: [0, 0, 0, 0])
    for i, (f, p, b, c) in enumerate(nodes):
        if i in root:
            # what V8 counts on the root itself: a function of its own
            out[f] = [b, b, c, c]
            continue
        out[f][0] += b
        out[f][2] += c
        a = p
        while a is not None and not (a not in root and nodes[a][0] == f):
            a = nodes[a][1]
        if a is None:
            out[f][1] += incl[i][0]
            out[f][3] += incl[i][1]
    return {f: w for f, w in out.items() if w[1] or w[3]}


def rows(hotspots, path, metric):
    doc = json.loads(subprocess.run([hotspots, '--limit', 'unlimited', '--metric', metric, path],
                                    capture_output=True, check=True).stdout)
    table = doc['results'][0]
    assert table['class']['title'].startswith('Functions'), table['class']['title']

    def value(c):
        return c['value'] if isinstance(c, dict) else c
    return {(r[0], r[1]['path']): (value(r[2]), value(r[4])) for r in table['data']}


def main():
    hotspots, failed = sys.argv[1], 0
    for path in sys.argv[2:]:
        d = load(path)
        exp = expected(heapprofile_nodes(d) if 'head' in d else snapshot_nodes(d))
        got_b, got_c = rows(hotspots, path, 'alloc_bytes'), rows(hotspots, path, 'alloc_count')
        want_b = {f: (w[0], w[1]) for f, w in exp.items() if w[1]}
        want_c = {f: (w[2], w[3]) for f, w in exp.items() if w[3]}
        bad = []
        for name, got, want in (('alloc_bytes', got_b, want_b), ('alloc_count', got_c, want_c)):
            if got != want:
                bad.append('%s: %s' % (name, sorted(set(got.items()) ^ set(want.items()))[:10]))
        if bad:
            failed = 1
            print('FAIL %s\n  %s' % (path, '\n  '.join(bad)))
        else:
            print('ok %s (%d functions)' % (path, len(exp)))
    sys.exit(failed)


if __name__ == '__main__':
    main()

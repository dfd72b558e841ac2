#!/usr/bin/env python3
"""Writes a deterministic V8 .cpuprofile for make bench.

usage: gen_cpuprofile.py SAMPLES OUT

A call tree of ~3,000 nodes (depth up to 25, 300 functions over 12
scripts) and SAMPLES samples with their timeDeltas, on one line as node
writes it.
"""
import json
import random
import sys


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rnd = random.Random(16)
    scripts = ['file:///srv/app/mod%d.js' % i for i in range(12)] + ['node:internal/x', '']
    fns = [('fn%d' % i, rnd.choice(scripts), rnd.randrange(500), rnd.randrange(80)) for i in range(300)]
    nodes = [{'id': 1, 'callFrame': {'functionName': '(root)', 'scriptId': '0', 'url': '',
                                     'lineNumber': -1, 'columnNumber': -1}, 'hitCount': 0, 'children': []}]
    depth = {1: 0}
    for i in range(2, 3002):
        parent = rnd.choice(nodes[max(0, len(nodes) - 200):])
        if depth[parent['id']] >= 25:
            parent = nodes[0]
        name, url, line, col = rnd.choice(fns)
        nodes.append({'id': i, 'callFrame': {'functionName': name, 'scriptId': '1', 'url': url,
                                             'lineNumber': line, 'columnNumber': col},
                      'hitCount': 0})
        parent.setdefault('children', []).append(i)
        depth[i] = depth[parent['id']] + 1
    ids = [x['id'] for x in nodes[1:]]
    weights = [rnd.random() ** 3 for _ in ids]
    samples = rnd.choices(ids, weights, k=n)
    deltas = [rnd.randrange(90, 140) for _ in range(n)]
    with open(out, 'w') as f:
        json.dump({'nodes': nodes, 'startTime': 1000000, 'endTime': 1000000 + sum(deltas),
                   'samples': samples, 'timeDeltas': deltas}, f, separators=(',', ':'))


if __name__ == '__main__':
    main()

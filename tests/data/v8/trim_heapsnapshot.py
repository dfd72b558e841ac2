#!/usr/bin/env python3
"""Makes a small test copy of a V8 heap snapshot or timeline.

usage: trim_heapsnapshot.py IN OUT [NODES]

Keeps what the reader uses exactly as V8 wrote it (the meta, the
allocation trace: trace_function_infos, trace_tree, samples) and a cut of
the heap graph it reads past: the first NODES nodes (default 300) with
their names, no edges or locations.  Strings are renumbered to those kept.
IN may be gzip or zstd (zstd needs the zstd program); OUT is written
plain (compress it yourself).
"""
import gzip
import json
import subprocess
import sys


def load(path):
    data = open(path, 'rb').read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    elif data[:4] == b'\x28\xb5\x2f\xfd':
        data = subprocess.run(['zstd', '-dc', path], capture_output=True, check=True).stdout
    return json.loads(data)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    keep_nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    d = load(src)
    meta = d['snapshot']['meta']
    nf = len(meta['node_fields'])
    name_at = meta['node_fields'].index('name')
    fif = meta['trace_function_info_fields']
    strings, new = d['strings'], {}

    def remap(i):
        if i not in new:
            new[i] = len(new)
        return new[i]

    infos = list(d['trace_function_infos'])
    for i in range(0, len(infos), len(fif)):
        for f in ('name', 'script_name'):
            j = i + fif.index(f)
            infos[j] = remap(infos[j])
    nodes = list(d['nodes'][:keep_nodes * nf])
    for i in range(0, len(nodes), nf):
        nodes[i + name_at] = remap(nodes[i + name_at])
    out = dict(d)
    out['snapshot'] = dict(d['snapshot'], node_count=len(nodes) // nf, edge_count=0)
    out['nodes'], out['edges'], out['locations'] = nodes, [], []
    out['trace_function_infos'] = infos
    out['strings'] = [strings[i] for i, _ in sorted(new.items(), key=lambda kv: kv[1])]
    with open(dst, 'w') as f:
        json.dump(out, f, separators=(',', ':'))


if __name__ == '__main__':
    main()

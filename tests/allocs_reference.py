#!/usr/bin/env python3
"""Recomputes spaa-allocs' allocation-sites table from the SPAA text alone.

usage: allocs_reference.py PROGRAM PROFILE...

A second method, written apart from common/analysis/memory.c: every stack record of
an allocation event adds its alloc_bytes / alloc_count to its site (the
first frame from the leaf whose function is not an allocator), every
record of a deallocation event its free_bytes / free_count to the site
with the same call path once allocator frames are dropped.  Sites are
(function name, DSO name) pairs.  For each profile the program's sites
table must list the same sites in the same order with the same numbers
and shares, and the top site is printed (the README's closing note uses
it for the V8 heap profiles).  Exit 0 when everything agrees.
"""
import gzip
import json
import re
import subprocess
import sys

# The documented default allocator frames (spaa-allocs(1)), re-typed.
ALLOCATORS = re.compile('|'.join([
    r'^(malloc|calloc|realloc|reallocarray|free|cfree|valloc|pvalloc|memalign'
    r'|posix_memalign|aligned_alloc|strdup|strndup)(@plt)?$',
    r'^(__libc_|__GI___libc_|_int_)(malloc|calloc|realloc|free|memalign)$',
    r'^(sysmalloc|tcache_get|tcache_put|malloc_consolidate)$',
    r'^operator (new|delete)(\[\])?(\(.*\))?$',
    r'^_Zn[wa][jmy]', r'^_Zd[la]Pv', r'^je_',
    r'^(mallocx|rallocx|xallocx|sallocx|dallocx|sdallocx|nallocx)$',
    r'^tc_', r'^tcmalloc::', r'^__rust_(alloc|alloc_zeroed|realloc|dealloc)$',
]))


def records(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def reference(path):
    dsos, frames, kinds, order = {}, {}, {}, 'leaf_to_root'
    stacks = []
    for r in records(path):
        t = r.get('type')
        if t == 'header':
            order = r['frame_order']
            kinds = {e['name']: e['kind'] for e in r['events']}
        elif t == 'dso':
            dsos[r['id']] = r['name']
        elif t == 'frame':
            frames[r['id']] = (r['func'], r['dso'])
        elif t == 'stack':
            stacks.append(r)
    sites = {}
    for s in stacks:
        kind = kinds.get(s['context']['event'])
        if kind not in ('allocation', 'deallocation'):
            continue
        fr = [(frames[i][0], dsos[frames[i][1]]) for i in s['frames']]
        if order == 'root_to_leaf':
            fr.reverse()
        keep = [f for f in fr]
        while keep and ALLOCATORS.search(keep[0][0]):
            keep.pop(0)
        site = (keep or fr)[0]
        w = {x['metric']: x['value'] for x in s['weights']}
        row = sites.setdefault(site, [0, 0, 0, 0])
        if kind == 'allocation':
            row[0] += w.get('alloc_bytes', 0)
            row[1] += w.get('alloc_count', 0)
        row[2] += w.get('free_bytes', 0)
        row[3] += w.get('free_count', 0)
    total = sum(r[0] for r in sites.values())
    ranked = sorted(sites.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0][0]))
    return ranked, total


def value(cell):
    return cell['value'] if isinstance(cell, dict) and 'value' in cell else cell


def check(prog, path):
    """Returns the list of disagreements between prog and the reference."""
    ranked, total = reference(path)
    out = subprocess.run([prog, path], capture_output=True, check=True).stdout
    doc = json.loads(out)
    rows = next(t['data'] for t in doc['results']
                if (t['class'].get('inherit') if isinstance(t['class'], dict)
                    else t['class']) == 'sites')
    got = [((r[0], r[1]['path']), [value(r[2]), value(r[3])]) for r in rows]
    want = [(site, v[:2]) for site, v in ranked]
    if got != want:
        diff = next((g, w) for g, w in zip(got + [None], want + [None]) if g != w)
        return ['sites differ: got %s, want %s' % diff]
    bad = []
    for r, (site, v) in zip(rows, ranked):
        share, freed = value(r[9]), value(r[4])
        if total and abs(share - v[0] / total) > 1e-12:
            bad.append('share of %s is %s, want %s' % (site, share, v[0] / total))
        # unknown (a dict) when the profile does not track frees
        if not isinstance(freed, dict) and freed != v[2]:
            bad.append('freed of %s is %s, want %s' % (site, freed, v[2]))
    if not bad:
        top, v = ranked[0]
        print('ok %s: %d sites, %d bytes allocated; top site %s (%s): %d bytes in %d allocations'
              % (path, len(ranked), total, top[0], top[1], v[0], v[1]))
    return bad


def main():
    prog, paths = sys.argv[1], sys.argv[2:]
    ok = True
    for path in paths:
        bad = check(prog, path)
        for b in bad[:5]:
            print('FAIL %s: %s' % (path, b))
        ok = ok and not bad
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()

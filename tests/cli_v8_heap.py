#!/usr/bin/env python3
"""End-to-end checks of V8 heap profiles as input (common/formats/v8_heap.h).

Inputs in tests/data/v8/ (README there): the corpus' heap timeline, cut
to its allocation trace, with the reference converter's SPAA; snapshots
before and after a phase, a timeline and a sampling heap profile made here
with Node 20.  Each check prints "ok NAME" or "FAIL NAME" with the reason;
the run ends with "N passed, M failed".  Run from the repository root
(make check does).
"""
import json
import os
import sys
import tempfile
from clitest import check, finish, lami, ok, run

HOT = './spaa-hotspots'
V8 = 'tests/data/v8'
TL = os.path.join(V8, 'corpus_heaptimeline_trimmed.heaptimeline.gz')
BEFORE = os.path.join(V8, 'node_before.heapsnapshot.gz')
AFTER = os.path.join(V8, 'node_after.heapsnapshot.gz')
NODE_TL = os.path.join(V8, 'node_timeline.heaptimeline.gz')
SAMPLING = os.path.join(V8, 'node_sampling.heapprofile')
TMP = tempfile.mkdtemp(prefix='cli_v8_heap.')


def value(c):
    return c.get('value') if isinstance(c, dict) else c


def functions(path, metric):
    table = lami([HOT, '--limit', 'unlimited', '--metric', metric, path])['results'][0]
    assert table['class']['title'].startswith('Functions'), table['class']['title']
    return {(r[0], r[1]['path']): (value(r[2]), value(r[4])) for r in table['data']}


@check
def corpus_agrees_with_the_reference_conversion():
    """Every function's self and total, bytes and counts, as the reference
    converter's SPAA says, but for the total of "(root)": the reference
    keeps V8's root as the caller of every stack, so its total is the whole
    profile; here it is no caller (doc/V8.md), and what V8 counts on the
    root itself (568 bytes in 7 allocations) is its self and total."""
    for metric in ('alloc_bytes', 'alloc_count'):
        mine = functions(TL, metric)
        theirs = functions(os.path.join(V8, 'corpus_heaptimeline.spaa.gz'), metric)
        root = ('(root)', '(program)')
        my_root, their_root = mine.pop(root), theirs.pop(root)
        assert my_root == (their_root[0], their_root[0]), (metric, my_root, their_root)
        assert their_root[1] == their_root[0] + sum(v[0] for v in theirs.values()), metric
        assert mine == theirs, (metric, set(mine.items()) ^ set(theirs.items()))


@check
def independent_recomputation():
    """Self and total per function from the JSON by another method."""
    rc, out, _ = run([sys.executable, 'tests/v8_heap_reference.py', HOT, TL, BEFORE, AFTER,
                      NODE_TL, SAMPLING])
    assert rc == 0, out


@check
def allocation_analyses_work():
    """spaa-allocs ranks the trace's sites; spaa-diff of the snapshot
    before against the one after shows what the phase between allocated:
    makeStrings, absent before, with its whole total after."""
    sites = lami(['./spaa-allocs', '--limit', 'unlimited', AFTER])['results'][0]
    assert sites['class']['title'].startswith('Allocation sites'), sites['class']['title']
    hot = functions(AFTER, 'alloc_bytes')
    top = max(hot.items(), key=lambda kv: kv[1][0])
    assert (sites['data'][0][0], value(sites['data'][0][2])) == (top[0][0], top[1][0]), sites['data'][0]
    doc = lami(['./spaa-diff', '--limit', 'unlimited', BEFORE, AFTER])
    totals = next(t for t in doc['results'] if t['class']['title'].startswith('Function total'))
    row = next(r for r in totals['data'] if r[0] == 'makeStrings')
    assert (value(row[2]), value(row[3])) == (0, hot[('makeStrings', '/tmp/heap/heap2.js')][1]), row


@check
def timeline_has_its_time_range():
    """The timeline's samples (µs from the start of tracking) give the
    range; a snapshot has none."""
    spaa = ok(['./spaa-convert', NODE_TL])
    header = json.loads(spaa.splitlines()[0])
    ev = header['events'][0]
    assert ev['kind'] == 'allocation' and ev['allocation_tracking'] == {
        'tracks_frees': False, 'has_timestamps': True}, ev
    assert 'time_range' in header, header
    header = json.loads(ok(['./spaa-convert', AFTER]).splitlines()[0])
    assert 'time_range' not in header and \
        header['events'][0]['allocation_tracking']['has_timestamps'] is False, header


@check
def converts_and_reads_back():
    for p in (TL, AFTER, SAMPLING):
        out = os.path.join(TMP, 'h.spaa')
        ok(['./spaa-convert', '-o', out, p])
        ok(['./spaa-validate', out])
        assert functions(out, 'alloc_bytes') == functions(p, 'alloc_bytes'), p


@check
def sampling_profile_warns_of_samples_outside_the_tree():
    """Node's file lists 16 samples of node 126, which its tree lacks."""
    rc, out, err = run([HOT, SAMPLING])
    assert rc == 0 and '16 samples name nodes that are not in the tree' in err, err


@check
def hostile_inputs_fail_cleanly():
    for name in sorted(os.listdir('tests/data/bad')):
        if not name.startswith(('v8_heap', 'v8_heapprofile')):
            continue
        path = os.path.join('tests/data/bad', name)
        for prog in (HOT, './spaa-convert'):
            rc, out, err = run([prog, path])
            assert rc == 1 and path in err and err.count('\n') == 1, (prog, path, rc, err)


finish()

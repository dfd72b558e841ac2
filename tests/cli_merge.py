#!/usr/bin/env python3
"""spaa-convert merging several profiles into one (convert.h).

Run from the repository root (make check does).
"""
import json
import os
import shutil
import tempfile

from clitest import ANALYSES, check, finish, ok, run

CONV = './spaa-convert'
D = 'tests/data'
A = os.path.join(D, 'convert_small.perf')
B = os.path.join(D, 'convert_cwork_dwarf.perf-script.txt.gz')
C = os.path.join(D, 'pprof/synthetic.pb')
F = os.path.join(D, 'convert_small.folded')
TMP = tempfile.mkdtemp(prefix='cli_merge.')


def merged(name, *inputs, opts=()):
    out = os.path.join(TMP, name + '.spaa')
    ok([CONV] + list(opts) + ['-o', out] + list(inputs))
    return out


def records(path):
    with open(path) as f:
        return [json.loads(l) for l in f]


def analyses(path):
    """Every analysis' results on path (each event of it), as compared."""
    out = {}
    events = [e['name'] for e in records(path)[0]['events']]
    for prog in ANALYSES:
        for ev in events:
            n = 2 if prog == 'spaa-diff' else 1
            rc, text, _ = run(['./' + prog, '--limit', 'unlimited', '--event', ev]
                              + [path] * n)
            out[prog, ev] = (rc, json.loads(text.replace(path, 'X')))
    return out


@check
def merge_is_associative_and_order_independent():
    abc = merged('abc', A, B, C)
    ab = merged('ab', A, B)
    ab_c = merged('ab_c', ab, C)
    cba = merged('cba', C, B, A)
    a_bc = merged('a_bc', A, merged('bc', B, C))
    want = analyses(abc)
    assert len(want) >= 12, len(want)
    for other in (ab_c, cba, a_bc):
        got = analyses(other)
        diff = [k for k in want if want[k] != got[k]]
        assert not diff, (other, diff[:3])


@check
def equal_stacks_are_stored_once_weights_summed():
    # A alone through the same path: a directory holding it
    d = os.path.join(TMP, 'just_a')
    os.mkdir(d)
    shutil.copy(A, os.path.join(d, 'a.perf'))
    one = records(merged('a', d, opts=['--no-samples']))
    two = records(merged('aa', A, A, opts=['--no-samples']))
    stacks = lambda rs: sorted((r['id'], json.dumps(r.get('context'), sort_keys=True),
                                tuple((w['metric'], w['value']) for w in r['weights']))
                               for r in rs if r['type'] == 'stack')
    s1, s2 = stacks(one), stacks(two)
    assert len(s1) == len(s2), (len(s1), len(s2))
    assert [(i, c, tuple((m, 2 * v) for m, v in w)) for i, c, w in s1] == s2


@check
def header_is_the_union():
    recs = records(merged('af', A, F, opts=['--no-samples']))
    h = recs[0]
    assert [e['name'] for e in h['events']] == ['cycles', 'page-faults', 'folded'], h
    # A's samples run from 10.000000100 to 10.000001000 s; F has no time
    assert h['time_range'] == {'start': 10000000100, 'end': 10000001000,
                               'unit': 'nanoseconds'}, h
    assert not [r for r in recs if r['type'] == 'sample']
    ids = [r['id'] for r in recs if r['type'] in ('dso', 'frame')]
    assert len(ids) == len(set((r['type'], r['id']) for r in recs
                               if r['type'] in ('dso', 'frame'))), ids
    rc, out, _ = run(['./spaa-validate', os.path.join(TMP, 'af.spaa')])
    assert rc == 0, out


@check
def samples_of_every_input_are_kept():
    n = lambda p: sum(1 for r in records(p) if r['type'] == 'sample')
    assert n(merged('abs', A, B)) == n(merged('as', A)) + n(merged('bs', B))


@check
def directories_and_mixed_formats():
    d = os.path.join(TMP, 'dir')
    os.mkdir(d)
    shutil.copy(A, os.path.join(d, 'host1.perf'))
    shutil.copy(C, os.path.join(d, 'host2.pb'))
    shutil.copy(F, os.path.join(d, 'host3.folded'))
    with open(os.path.join(d, 'notes.txt'), 'w') as f:
        f.write('not a profile\n')
    assert analyses(merged('dir', d)) == analyses(merged('files', A, C, F))


@check
def conflicting_events_name_both_files():
    other = os.path.join(TMP, 'other.spaa')
    with open(other, 'w') as f:
        f.write(json.dumps({'type': 'header', 'format': 'spaa', 'version': '1.0',
                            'source_tool': 'perf', 'frame_order': 'leaf_to_root',
                            'stack_id_mode': 'content_addressable',
                            'events': [{'name': 'folded', 'kind': 'hardware',
                                        'sampling': {'mode': 'event',
                                                     'primary_metric': 'samples'}}]})
                + '\n')
    rc, out, err = run([CONV, '-o', os.path.join(TMP, 'x.spaa'), F, other])
    assert rc == 1, (rc, err)
    assert other in err and F in err and "event 'folded'" in err, err
    assert not os.path.exists(os.path.join(TMP, 'x.spaa'))


@check
def from_applies_to_one_input():
    rc, _, err = run([CONV, '--from', 'perf', A, B])
    assert rc == 2 and '--from' in err, err


shutil.rmtree(TMP, ignore_errors=True)
finish()

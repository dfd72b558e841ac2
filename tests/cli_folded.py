"""Folded output keeps what it can and says what it cannot (issue 21):
frames without a name are written as '[unknown]' (never dropped, nor
their stack), names with tabs come back unchanged through a round trip,
';', line breaks and other control characters are replaced with a
warning, and a profile of several events says which events folded
stacks left out, by name.  Runs of blank lines are skipped at once,
and the lines after them keep their numbers.
"""
import json
import os
import shutil
import tempfile

from clitest import check, finish, ok, run

scratch = tempfile.mkdtemp(prefix='spaa-cli-folded-')
HEADER = {'type': 'header', 'format': 'spaa', 'version': '1.0', 'source_tool': 'perf',
          'frame_order': 'leaf_to_root', 'stack_id_mode': 'local',
          'events': [{'name': 'cycles', 'kind': 'hardware',
                      'sampling': {'mode': 'period', 'primary_metric': 'period'}}]}


def profile(name, funcs, stacks, events=None):
    """A SPAA file: frame i + 1 is funcs[i]; stacks are (frames leaf
    first, weight[, event])."""
    path = os.path.join(scratch, name)
    h = dict(HEADER)
    if events:
        h['events'] = [dict(HEADER['events'][0], name=e) for e in events]
    with open(path, 'w') as f:
        f.write(json.dumps(h) + '\n')
        f.write(json.dumps({'type': 'dso', 'id': 1, 'name': '/bin/app', 'is_kernel': False}) + '\n')
        for i, fn in enumerate(funcs):
            f.write(json.dumps({'type': 'frame', 'id': i + 1, 'func': fn, 'dso': 1}) + '\n')
        for i, st in enumerate(stacks):
            ev = st[2] if len(st) > 2 else h['events'][0]['name']
            f.write(json.dumps({'type': 'stack', 'id': 's%d' % i, 'frames': st[0],
                                'context': {'event': ev},
                                'weights': [{'metric': 'period', 'value': st[1]}]}) + '\n')
    return path


def folded(path, *args):
    rc, out, err = run(['./spaa-convert', '--to', 'folded'] + list(args) + [path])
    assert rc == 0, (rc, err)
    return out, err


@check
def frames_without_a_name_are_kept():
    p = profile('empty.spaa', ['main', '', 'work'], [([2, 1], 5), ([2], 3), ([3, 2, 1], 2)])
    out, err = folded(p)
    # root first; the one-frame stack of an empty name is a line too
    assert out == '[unknown] 3\nmain;[unknown] 5\nmain;[unknown];work 2\n', out
    assert "3 frames without a name written as '[unknown]'" in err, err


@check
def tabs_round_trip_and_what_cannot_is_said():
    funcs = ['main', 'tab\there', 'semi;colon', 'new\nline']
    p = profile('names.spaa', funcs, [([2, 1], 7), ([3, 1], 4), ([4, 1], 1)])
    out, err = folded(p)
    assert out == 'main;new line 1\nmain;semi:colon 4\nmain;tab\there 7\n', repr(out)
    assert '2 frame names changed in folded output' in err, err
    # back to SPAA and to folded again: the same text, tab included
    with open(os.path.join(scratch, 'names.folded'), 'w') as f:
        f.write(out)
    back = os.path.join(scratch, 'back.spaa')
    ok(['./spaa-convert', '-o', back, os.path.join(scratch, 'names.folded')])
    again, err = folded(back)
    assert again == out and 'changed' not in err, (again, err)


@check
def other_events_are_named():
    p = profile('two.spaa', ['main', 'work'],
                [([2, 1], 5, 'cycles'), ([1], 2, 'faults'), ([2, 1], 1, 'faults')],
                events=['cycles', 'faults'])
    out, err = folded(p)
    assert out == 'main;work 5\n', out
    assert ("folded output holds one event, 'cycles': left out 2 stack records of "
            "'faults' (pick another with --event NAME)") in err, err
    out, err = folded(p, '--event', 'faults')
    assert out == 'main 2\nmain;work 1\n' and "left out 1 stack records of 'cycles'" in err, \
        (out, err)
    # one event: nothing to say
    _, err = folded(profile('one.spaa', ['main'], [([1], 1)]))
    assert err == '', err


@check
def perf_script_of_two_events_says_so_too():
    path = os.path.join(scratch, 'two.perf')
    with open(path, 'w') as f:
        f.write('app 1 10.0: 100 cycles:\n\t1 main (/bin/app)\n\n'
                'app 1 10.1: 3 faults:\n\t2 work (/bin/app)\n\t1 main (/bin/app)\n\n')
    out, err = folded(path)
    assert out == 'main 100\n', out
    assert "left out 1 stacks of 'faults' (pick another with --event NAME)" in err, err



@check
def blank_lines_are_skipped_and_counted():
    # runs of blank lines (skipped at once) keep the lines after them numbered
    path = os.path.join(scratch, 'blank.folded')
    with open(path, 'w') as f:
        f.write('main;work 3\n' + '\n' * 100000 + ' \t\n# note\n\n' + 'main;idle 2\n\n\nmain;x zz\n')
    rc, out, err = run(['./spaa-hotspots', path])
    assert rc == 1 and json.loads(out)['error-message'] == \
        "%s:100008: folded count 'zz' is not a non-negative integer below 2^64" % path, out
    with open(path, 'w') as f:
        f.write('\n' * 100000 + '# only blank lines and a comment\n' + '\n' * 100000)
    for prog in ('./spaa-hotspots', './spaa-convert'):
        rc, out, err = run([prog, path])
        assert rc == 1 and err == '%s: error: %s: no folded stacks in the input: only blank ' \
            "lines, '#' comments and stacks of count 0\n" % (prog[2:], path), (prog, err)


shutil.rmtree(scratch, ignore_errors=True)
finish()

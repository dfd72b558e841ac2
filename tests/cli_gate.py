#!/usr/bin/env python3
"""The regression gate: spaa-diff --fail-if.

Two recordings of one unchanged program (data/gate_twowork_*.spaa.zst,
data/README-gate.md) must pass even a tight condition, their differences
marked within noise; the corpus pair whose hashing phase got 3x slower
(data/diff_cwork_*.spaa.zst) must trip, naming hash_phase.  Every row's
noise bound is recomputed here from the shares and sample counts the
other tables print, and the exit statuses are checked.
"""
import json
import math

from clitest import check, finish, run

DIFF = './spaa-diff'
SAME = ['tests/data/gate_twowork_1.spaa.zst', 'tests/data/gate_twowork_2.spaa.zst']
SLOW = ['--dso-map', '/tmp/ceo/diff/cwork=/tmp/ceo/diff/cwork_hashslow',
        'tests/data/diff_cwork_baseline.spaa.zst', 'tests/data/diff_cwork_hashslow.spaa.zst']


def value(c):
    if isinstance(c, dict):
        return None if c['class'] == 'unknown' else c.get('value', c)
    return c


def tables(out):
    """{title prefix: rows of plain values} of a LAMI results document."""
    got = {}
    for t in json.loads(out)['results']:
        title = t['class']['title'].split(' (')[0]
        got[title] = [[value(c) for c in row] for row in t['data']]
    return got


def gate(args):
    """(exit status, tables, stderr) of spaa-diff with args."""
    rc, out, err = run([DIFF] + args)
    assert rc in (0, 3), (args, rc, err)
    return rc, tables(out), err


def check_noise(t):
    """Each gate row's noise and verdict, recomputed from the other tables."""
    summary = t['Baseline and target'][0]
    nb, nt = summary[5], summary[6]
    shares = {r[0]: (r[7], r[8]) for r in t['Function self weight deltas']}
    for cond, name, schange, snoise, tchange, tnoise, verdict in t['Regression gate']:
        # each row fills the pair of its kind, the other is empty
        change, noise = (tchange, tnoise) if cond.startswith('total') else (schange, snoise)
        assert (schange, snoise, tchange, tnoise).count(None) >= 2, (cond, schange, tchange)
        if name == '(whole profile)':
            want = 3 * math.sqrt(1 / nb + 1 / nt)
            assert abs(change - (summary[3] / summary[2] - 1)) < 1e-9, (cond, change)
        elif name is not None:
            pb, pt = shares[name]
            want = 3 * math.sqrt(pb * (1 - pb) / nb + pt * (1 - pt) / nt)
            assert abs(change - (pt - pb)) < 1e-9, (cond, name, change)
        else:
            continue
        assert abs(noise - want) < 1e-9, (cond, name, noise, want)
        if verdict != 'held':
            assert verdict == ('within noise' if abs(change) <= noise else 'tripped'), \
                (cond, name, change, noise, verdict)


@check
def same_program_twice_passes():
    conds = ['share+>0.1pp', 'total+>1%', 'work_b:share->0.1pp']
    rc, t, err = gate(sum((['--fail-if', c] for c in conds), []) + SAME)
    assert rc == 0 and 'tripped' not in err, (rc, err)
    rows = t['Regression gate']
    assert [r[0] for r in rows if r[0] != 'share+>0.1pp'] == conds[1:], rows
    verdicts = {(r[0], r[1]): r[6] for r in rows}
    # work_a's and a scheduler function's shares grew by 0.2 pp, far
    # within the noise of 1700 samples a side
    assert verdicts[('share+>0.1pp', 'work_a')] == 'within noise', verdicts
    assert verdicts[('work_b:share->0.1pp', 'work_b')] == 'within noise', verdicts
    assert verdicts[('total+>1%', '(whole profile)')] == 'held', verdicts
    assert 'tripped' not in verdicts.values(), verdicts
    check_noise(t)
    # the text output marks them
    rc, out, _ = run([DIFF, '--format', 'text', '--fail-if', 'share+>0.1pp'] + SAME)
    assert rc == 0 and 'within noise' in out, out[-800:]


@check
def real_slowdown_trips_naming_the_function():
    rc, t, err = gate(['--fail-if', 'share+>2pp', '--fail-if', 'total+>10%',
                       '--fail-if', 'msort:share+>1pp'] + SLOW)
    assert rc == 3, rc
    assert err.strip() == 'spaa-diff: --fail-if: 2 rows tripped a condition (see the gate table)', err
    rows = t['Regression gate']
    # only hash_phase grew (20.7 % -> 45.0 %); msort shrank: held
    assert [(r[0], r[1], r[6]) for r in rows] == [
        ('share+>2pp', 'hash_phase.constprop.0', 'tripped'),
        ('total+>10%', '(whole profile)', 'tripped'),
        ('msort:share+>1pp', 'msort_with_tmp.part.0', 'held')], rows
    assert abs(rows[0][2] - (0.450 - 0.207)) < 0.002, rows[0]
    check_noise(t)
    # text: a share change in percentage points, a total change in %
    rc, out, _ = run([DIFF, '--format', 'text', '--width', '100', '--fail-if', 'share+>2pp',
                      '--fail-if', 'total+>10%'] + SLOW)
    gate_text = out[out.index('Regression gate'):].splitlines()
    head = next(l for l in gate_text if l.startswith('Condition'))
    assert head.split('  ')[:1] == ['Condition'] and 'Share change (pp)' in head and \
        'Total change' in head, head
    share_row = next(l for l in gate_text if l.startswith('share+>2pp'))
    total_row = next(l for l in gate_text if l.startswith('total+>10%'))
    assert '%' not in share_row and '%' in total_row, (share_row, total_row)


@check
def conditions_combine_with_or():
    rc, _, _ = gate(['--fail-if', 'total+>50%', '--fail-if', 'hash_phase:share+>1pp'] + SLOW)
    assert rc == 3, rc
    rc, t, err = gate(['--fail-if', 'total+>50%', '--fail-if', 'nosuchfunction:share+>1pp'] + SLOW)
    assert rc == 0 and not err, (rc, err)
    # a condition no function matches: one held row, nothing to show
    assert t['Regression gate'][1] == ['nosuchfunction:share+>1pp', None, None, None, None, None,
                                       'held'], \
        t['Regression gate']
    # without --fail-if the gate table is absent and the status 0
    rc, out, _ = run([DIFF] + SLOW)
    assert rc == 0 and 'Regression gate' not in tables(out), rc


@check
def usage_errors():
    for expr in ('share>2pp', 'x:total+>1%', '(:share+>1pp'):
        rc, out, err = run([DIFF, '--fail-if', expr] + SAME)
        assert rc == 2 and "invalid '--fail-if' condition '%s'" % expr in err, (expr, rc, err)
        assert json.loads(out)['error-code'] == 'usage', out


finish()

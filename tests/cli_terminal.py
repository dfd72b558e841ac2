#!/usr/bin/env python3
"""End-to-end checks of the output people read at a terminal.

- The default format: text when stdout is a terminal (a python pty), the
  LAMI JSON otherwise; SPAA_FORMAT and --format override it, --format
  winning; --output-progress alone stays LAMI.
- The width: the terminal's (TIOCSWINSZ), COLUMNS before it, --width
  before both, 100 when stdout is no terminal; --wide never cuts.
- Every analysis' text on each corpus-like profile of tests/data fits 100
  columns.
- --limit 0 is no limit.

Run from the repository root (make check does).
"""
import json
import os
import subprocess
from clitest import check, finish, ok, run, run_on_terminal, ANALYSES

DATA = 'tests/data'
HOT = ['./spaa-hotspots', DATA + '/text_utf8.spaa']
LONG_NAME = ('std::vector<int, std::allocator<int> >::_M_realloc_insert'
             '<int const&>(iterator, int const&)')


def env_with(changes):
    env = dict(os.environ)
    env.pop('COLUMNS', None)
    env.pop('SPAA_FORMAT', None)
    for k, v in changes.items():
        env[k] = v
    return env


def on_terminal(args, cols=120, **env):
    """(exit status, stdout, stderr) with stdout on a terminal cols wide."""
    return run_on_terminal(args, 'stdout', env_with(env), cols=cols)


def piped(args, **env):
    with open(os.devnull, 'rb') as f:
        p = subprocess.run(args, stdin=f, capture_output=True, env=env_with(env),
                           timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def widest(text):
    return max(len(line) for line in text.splitlines())


@check
def text_on_a_terminal_lami_elsewhere():
    rc, out, err = on_terminal(HOT)
    assert rc == 0 and out.startswith('# Profile: ') and \
        '\n\nFunctions by self weight' in out, (rc, out[:200], err)
    assert out == ok(HOT + ['--format', 'text', '--width', '120']), out
    rc, out, err = piped(HOT)
    assert rc == 0 and 'results' in json.loads(out), out[:200]


@check
def text_fits_the_terminal():
    for cols in (120, 80, 60):
        rc, out, err = on_terminal(HOT, cols)
        assert rc == 0 and widest(out) <= cols, (cols, widest(out), out)
        assert out == ok(HOT + ['--format', 'text', '--width', str(cols)]), (cols, out)
    # 60 columns: names cut, a long one at its template arguments
    assert LONG_NAME not in out and 'std::vector<\u2026>' in out, out


@check
def columns_before_the_terminal_width_before_both():
    rc, out, err = on_terminal(HOT, 120, COLUMNS='70')
    assert rc == 0 and out == ok(HOT + ['--format', 'text', '--width', '70']), out
    assert 60 < widest(out) <= 70, out
    rc, out, err = on_terminal(HOT + ['--width', '50'], 120, COLUMNS='70')
    assert rc == 0 and widest(out) <= 50, out
    # not a terminal, no COLUMNS: 100
    rc, out, err = piped(HOT + ['--format', 'text'])
    assert out == ok(HOT + ['--format', 'text', '--width', '100']), out
    rc, out, err = piped(HOT + ['--format', 'text'], COLUMNS='64')
    assert out == ok(HOT + ['--format', 'text', '--width', '64']), out


@check
def wide_never_cuts():
    rc, out, err = on_terminal(HOT + ['--wide'], 60)
    assert rc == 0 and LONG_NAME in out and widest(out) > 100, out
    assert 'Self samples' in out, out


@check
def spaa_format_and_format():
    text = ok(HOT + ['--format', 'text'])
    csv = ok(HOT + ['--format', 'csv'])
    assert piped(HOT, SPAA_FORMAT='text')[1] == text
    assert piped(HOT, SPAA_FORMAT='csv')[1] == csv
    rc, out, err = on_terminal(HOT, SPAA_FORMAT='lami')
    assert rc == 0 and 'results' in json.loads(out), out[:200]
    rc, out, err = on_terminal(HOT, SPAA_FORMAT='json')
    assert rc == 0 and 'results' in json.loads(out), out[:200]
    # --format wins
    rc, out, err = on_terminal(HOT + ['--format', 'lami'], SPAA_FORMAT='text')
    assert rc == 0 and 'results' in json.loads(out), out[:200]
    assert piped(HOT + ['--format', 'csv'], SPAA_FORMAT='text')[1] == csv
    rc, out, err = piped(HOT, SPAA_FORMAT='yaml')
    assert rc == 2 and "invalid value 'yaml' for SPAA_FORMAT" in err, (rc, out, err)


@check
def progress_lines_stay_lami_on_a_terminal():
    rc, out, err = on_terminal(HOT + ['--output-progress'])
    lines = out.splitlines()
    assert rc == 0 and lines[0].split(' ', 1)[0] in ('0', '0.0', '*') or \
        lines[0][0].isdigit(), out[:300]
    assert json.loads(out[out.index('\n{') + 1:])['results'], out[-300:]


@check
def limit_zero_is_no_limit():
    for prog, path in (('./spaa-hotspots', DATA + '/basic.spaa'),
                       ('./spaa-allocs', DATA + '/allocs_frees.spaa')):
        assert ok([prog, '--limit', '0', path]) == ok([prog, path])
        assert ok([prog, '--limit', '0', path]) == ok([prog, '--limit', 'unlimited', path])
    assert ok(['./spaa-diff', '--limit', '0', DATA + '/basic.spaa', DATA + '/diff_doubled.spaa']) \
        == ok(['./spaa-diff', DATA + '/basic.spaa', DATA + '/diff_doubled.spaa'])


def corpus_like():
    """The profiles of tests/data that come from real tools."""
    paths = [DATA + '/corpus/' + f for f in sorted(os.listdir(DATA + '/corpus'))]
    paths += ['examples/cwork.spaa.zst', DATA + '/allocs_v8_heaptimeline.spaa.gz',
              DATA + '/allocs_v8_heapsnapshot.spaa.gz',
              DATA + '/diff_cwork_baseline.spaa.zst']
    spx = DATA + '/spx/corpus'
    paths += [spx + '/' + d for d in sorted(os.listdir(spx))
              if os.path.isdir(spx + '/' + d)]
    return paths


@check
def every_analysis_fits_100_columns_on_real_profiles():
    runs = 0
    cases = [(prog, [path]) for path in corpus_like() for prog in ANALYSES]
    # spaa-diff: each profile against itself, and the corpus' pair
    cases = [(p, a * 2 if p == 'spaa-diff' else a) for p, a in cases]
    cases.append(('spaa-diff', [DATA + '/diff_cwork_baseline.spaa.zst',
                                DATA + '/diff_cwork_hashslow.spaa.zst']))
    for prog, paths in cases:
        rc, out, err = run(['./' + prog, '--format', 'text'] + paths)
        if rc:
            # the analyses that do not apply say so on stderr only
            assert out == '' and 'error: ' in err, (prog, paths, rc, out, err)
            continue
        runs += 1
        assert widest(out) <= 100, (prog, paths, widest(out), [
            line for line in out.splitlines() if len(line) > 100][:3])
    # hotspots and diff on all but the SPX report without functions,
    # phases on the SPX reports, allocs on the memory profiles
    assert runs == 2 * (len(corpus_like()) - 1) + 1 + 12 + 5, runs


finish()

#!/usr/bin/env python3
"""End-to-end checks of the output people read at a terminal.

- The default format: text when stdout is a terminal (a python pty), the
  LAMI JSON otherwise; SPAA_FORMAT and --format override it, --format
  winning; --output-progress alone stays LAMI.
- The width: the terminal's (TIOCSWINSZ), COLUMNS before it, --width
  before both, 100 when stdout is no terminal; --wide never cuts.
- Every analysis' text on a copy of each profile of the shared corpus
  fits 100 terminal cells (spaa-diff against a sibling profile); broken
  SPX reports fail with a message on stderr alone.
- Columns line up in terminal cells (CJK names, combining accents).
- --limit 0 is no limit.

Run from the repository root (make check does).
"""
import json
import os
import re
import unicodedata
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
def a_narrow_terminal_keeps_the_raw_delta():
    """spaa-diff at an 80- and a 60-column terminal: other columns go, each
    delta table keeps its raw delta, the gate its changes and noise."""
    pair = [DATA + '/diff_alloc_base.spaa', DATA + '/diff_alloc_target.spaa']
    for cols in (80, 60):
        rc, out, err = on_terminal(['./spaa-diff', '--fail-if', 'share+>1pp'] + pair, cols)
        lines = out.splitlines()
        heads = [l for l, rule in zip(lines, lines[1:]) if rule.startswith('--')]
        assert rc == 3 and len(heads) == 5, (cols, rc, heads, err)
        for h in heads[:3]:
            assert 'Raw delta' in h and 'Share delta (pp)' in h, (cols, h)
        assert 'Raw allocated delta' in heads[3], (cols, heads[3])
        assert 'Share change (pp)' in heads[4] and 'Share noise (pp)' in heads[4], heads[4]
        assert widest(out) <= cols, (cols, widest(out))


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
    """Copies (or, for SPX 21_large_default, a prefix) of every profile of
    the shared corpus: its SPAA files, the perf script, V8 and DTrace
    texts they were converted from, and the SPX reports."""
    paths = [DATA + '/corpus/' + f for f in sorted(os.listdir(DATA + '/corpus'))]
    paths += ['examples/cwork.spaa.zst', DATA + '/allocs_v8_heaptimeline.spaa.gz',
              DATA + '/diff_cwork_baseline.spaa.zst', DATA + '/diff_cwork_hashslow.spaa.zst']
    paths += [DATA + '/perf-script/' + f for f in sorted(os.listdir(DATA + '/perf-script'))]
    paths += [DATA + '/convert_cwork_baseline.perf-script.txt.gz',
              DATA + '/convert_cwork_dwarf.perf-script.txt.gz',
              DATA + '/v8/corpus_jswork.cpuprofile.gz', DATA + '/v8/corpus_server.cpuprofile.gz',
              DATA + '/v8/corpus_heaptimeline_trimmed.heaptimeline.gz',
              DATA + '/dtrace/dtrace_freebsd_syscall_read.txt',
              DATA + '/dtrace/dtrace_macos_rg_profile.txt']
    for spx in (DATA + '/spx/corpus', DATA + '/spx/excerpt'):
        paths += [spx + '/' + d for d in sorted(os.listdir(spx))]
    return paths


def cells(line):
    """The cells a terminal gives line: East Asian wide characters two,
    combining and zero-width format characters none (Python's Unicode
    database, a second opinion on the programs' own table)."""
    n = 0
    for ch in line:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ('Mn', 'Me', 'Cf'):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in ('W', 'F') else 1
    return n


def siblings(paths, event):
    """Each profile's sibling for spaa-diff: the one before it among the
    profiles weighing the same event (event[path], from its header; the
    last for the first), itself when no other does."""
    pairs = []
    for path in paths:
        same = [p for p in paths if event[p] == event[path]]
        pairs.append((same[same.index(path) - 1], path))
    return pairs


def assert_fits(prog, paths, out, width=100):
    wide = [line for line in out.splitlines() if cells(line) > width]
    assert not wide, (prog, paths, wide[:3])


@check
def every_analysis_fits_100_columns_on_real_profiles():
    profiles = corpus_like()
    runs, event = {}, {}

    def fits(prog, paths):
        rc, out, err = run(['./' + prog, '--format', 'text'] + paths)
        if rc:
            # the analyses that do not apply say so on stderr only
            assert out == '' and 'error: ' in err, (prog, paths, rc, out, err)
            return ''
        runs[prog] = runs.get(prog, 0) + 1
        assert_fits(prog, paths, out)
        return out

    for path in profiles:
        m = re.search(r"^# Weighed: event '([^']*)'", fits('spaa-hotspots', [path]), re.M)
        event[path] = m.group(1) if m else None
        for prog in ANALYSES:
            if prog not in ('spaa-hotspots', 'spaa-diff'):
                fits(prog, [path])
    for pair in siblings(profiles, event):
        fits('spaa-diff', list(pair))
    # hotspots and diff on all but the SPX report without functions; phases
    # on the profiles with times: 6 perf scripts, 2 V8 CPU profiles, 13 SPX
    # reports (the converters' SPAA files have none); allocs on the memory
    # profiles: 3 V8 heap profiles, 2 SPX reports with zm metrics
    n = len(profiles)
    assert runs == {'spaa-hotspots': n - 1, 'spaa-diff': n - 1, 'spaa-phases': 21,
                    'spaa-allocs': 5}, runs


@check
def broken_reports_say_why_on_stderr_only():
    for d in sorted(os.listdir(DATA + '/spx/broken')):
        for prog in ANALYSES:
            paths = [DATA + '/spx/broken/' + d] * (2 if prog == 'spaa-diff' else 1)
            rc, out, err = run(['./' + prog, '--format', 'text'] + paths)
            assert rc == 1 and out == '' and \
                'without the metadata *.json beside them' in err, (prog, d, rc, out, err)


@check
def columns_line_up_in_terminal_cells():
    """A CJK name takes two cells, a combining accent none: every row of a
    table whose last column is right-aligned ends where its rule ends."""
    path = DATA + '/spx/corpus/20_naming_edge_cases'
    for width in ('100', '60'):
        out = ok(['./spaa-hotspots', '--format', 'text', '--width', width, path])
        assert '\u65e5\u672c\u8a9e' in out and 'o\u0327' in out, out
        tables = [t.splitlines() for t in out.split('\n\n')[1:]]
        checked = 0
        for lines in tables:
            rule = [i for i, line in enumerate(lines) if re.fullmatch(r'[- ]+', line)][0]
            if cells(lines[rule - 1]) != cells(lines[rule]):
                continue    # the last column is left-aligned
            for line in lines[rule + 1:]:
                assert cells(line) == cells(lines[rule]), (width, line, lines[rule])
                checked += 1
        assert checked >= 30, (width, checked, out)
        assert_fits('spaa-hotspots', [path], out, int(width))


finish()

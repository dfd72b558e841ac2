"""Nothing skipped or dropped in silence (issue 21): zero option values
are usage errors, --event/--metric are refused where they choose nothing,
a directory's entries named like profiles that are not files are warned
about (findings for spaa-validate), spaa-validate judges SPX reports with
the analyses' reader, and messages quoting the input never carry its
terminal escape sequences to stderr or to spaa-validate's text.
"""
import os
import shutil
import subprocess
import tempfile

from clitest import check, finish, run

scratch = tempfile.mkdtemp(prefix='spaa-cli-silence-')
BASIC = open('tests/data/basic.spaa').read().split('\n')
SAMPLES = 'tests/data/samples.spaa'


@check
def zero_option_values_are_usage_errors():
    for args in (['./spaa-phases', '--bins', '0', SAMPLES],
                 ['./spaa-phases', '--max-phases', '0', SAMPLES],
                 ['./spaa-allocs', '--bins', '0', 'tests/data/alloc.spaa'],
                 ['./spaa-convert', '--to', 'svg', '--svg-width', '0', SAMPLES],
                 ['./spaa-hotspots', '--svg', os.path.join(scratch, 'x.svg'),
                  '--svg-width', '0', SAMPLES]):
        rc, out, err = run(args)
        name = args[args.index('0') - 1]
        assert rc == 2, (args, rc, err)
        assert "invalid value '0' for '%s' (a positive integer)" % name in err, err
    assert not os.path.exists(os.path.join(scratch, 'x.svg'))


@check
def event_and_metric_are_refused_for_spaa_output():
    for opt in ('--event', '--metric'):
        rc, out, err = run(['./spaa-convert', opt, 'nope', 'tests/data/basic.spaa'])
        assert rc == 2 and out == '', (opt, rc, out)
        assert err == ("spaa-convert: error: '--event' and '--metric' choose what folded and "
                       "svg output write, not SPAA (see --help)\n"), err


def odd_directory():
    d = os.path.join(scratch, 'dir')
    os.makedirs(os.path.join(d, 'sub.spaa'))
    shutil.copy('tests/data/basic.spaa', d)
    os.symlink('nowhere.spaa', os.path.join(d, 'dangling.spaa'))
    os.symlink('loop.spaa', os.path.join(d, 'loop.spaa'))
    os.mkfifo(os.path.join(d, 'fifo.spaa'))
    return d


SKIPPED = [('dangling.spaa', 'a dangling symbolic link'), ('fifo.spaa', 'a FIFO'),
           ('loop.spaa', 'a symbolic link loop'), ('sub.spaa', 'a directory')]


@check
def directory_entries_that_are_not_files_are_said():
    d = odd_directory()
    rc, out, err = run(['./spaa-hotspots', d])
    assert rc == 0, (rc, err)
    assert err.splitlines() == [
        'spaa-hotspots: warning: %s/%s: skipped: %s, not a profile file' % (d, n, why)
        for n, why in SKIPPED], err
    # the same profile as the file alone
    assert out == run(['./spaa-hotspots', os.path.join(d, 'basic.spaa')])[1]
    # never in the probe modes, where Trace Compass reads stderr with stdout
    rc, out, err = run(['./spaa-hotspots', '--test-compatibility', d])
    assert rc == 0 and err == '', (rc, err)
    rc, out, err = run(['./spaa-validate', d])
    assert rc == 1, (rc, out)
    lines = out.splitlines()
    for n, why in SKIPPED:
        p = os.path.join(d, n)
        assert '%s: error: not a profile file: %s' % (p, why) in lines, (n, out)
        assert '%s: invalid: 1 error, 0 warnings' % p in lines, (n, out)
    assert lines[-1].startswith(os.path.join(d, 'basic.spaa') + ': valid:'), out


@check
def validate_judges_spx_reports():
    rc, out, err = run(['./spaa-validate', 'tests/data/bad/spx_bad_value'])
    assert rc == 1, (rc, out)
    assert out.splitlines() == [
        "tests/data/bad/spx_bad_value/report.json:3: error: value '1.2.3' of 'wt' is not a "
        "decimal number that fits in 64 bits",
        'tests/data/bad/spx_bad_value/report.json: invalid: 1 error, 0 warnings'], out
    rc, out, err = run(['./spaa-validate', 'tests/data/spx/basic.json'])
    assert rc == 0, (rc, out)
    # the counts of the model the analyses read
    assert out == ('tests/data/spx/basic.json: valid: 1 events, 1 dsos, 3 frames, 1 threads, '
                   '4 stacks in 4 stack records, 7 samples, 0 windows; 0 warnings\n'), out


@check
def escape_sequences_of_the_input_never_reach_the_terminal():
    path = os.path.join(scratch, 'esc.spaa')
    with open(path, 'w') as f:
        f.write('\n'.join(BASIC[:14]) + '\n'
                '{"type":"\\u001b]0;pwned\\u0007"}\n'
                '{"type":"sample","timestamp":100.5,"stack_id":"s1",'
                '"event":"\\u001b[2J\\u0085"}\n')
    for args, stream in ((['./spaa-hotspots', path], 2), (['./spaa-convert', path], 2),
                         (['./spaa-validate', path], 1)):
        p = subprocess.run(args, capture_output=True, stdin=subprocess.DEVNULL)
        text = (p.stdout, p.stderr)[stream - 1]
        assert p.returncode == 1, (args, p.returncode)
        assert not any(c in text for c in (b'\x1b', b'\x07', b'\xc2\x85')), (args, text)
        assert b"unknown type '?]0;pwned?'" in text, (args, text)
        assert b"names event '?[2J?'" in text, (args, text)
    # the JSON of the LAMI error keeps the name exactly, escaped
    p = subprocess.run(['./spaa-hotspots', path], capture_output=True, stdin=subprocess.DEVNULL)
    assert b'\\u001b[2J\\u0085' in p.stdout, p.stdout


shutil.rmtree(scratch, ignore_errors=True)
finish()

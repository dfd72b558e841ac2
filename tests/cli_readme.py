"""The README's five-minute tour, run as a newcomer would run it.

Every command of the tour runs in a scratch directory that holds the built
programs and tests/ (so ./spaa-X and tests/data/... resolve as in a clone).
In a block with `$ ` prompts, what the README shows under a command is
compared with what the command prints, line by line, up to a `...` line
(which marks a cut); a block without prompts is only run.  Commands that
need something a test machine lacks (perf, a desktop) are skipped, and
with them the rest of their block (which works on what they made).
"""
import os
import re
import shutil
import subprocess
import tempfile

from clitest import PROGRAMS, check, finish

SKIP = ('perf ', 'xdg-open ')


def tour_blocks():
    text = open('README.md', encoding='utf-8').read()
    m = re.search(r'^## A five-minute tour\n(.*?)^## ', text, re.S | re.M)
    assert m, 'README.md has no "A five-minute tour" section'
    return re.findall(r'^```sh\n(.*?)^```', m.group(1), re.S | re.M)


def join_continuations(lines):
    out = []
    for line in lines:
        if out and out[-1].endswith('\\'):
            out[-1] = out[-1][:-1] + line.strip()
        else:
            out.append(line)
    return out


def steps(block):
    """(command, expected lines or None) for each command of a block."""
    lines = block.splitlines()
    if not any(l.startswith('$ ') for l in lines):
        for cmd in join_continuations(lines):
            cmd = re.sub(r'\s+#.*$', '', cmd).strip()
            if cmd:
                yield cmd, None
        return
    cmd, expect = None, []
    for line in join_continuations(lines):
        if line.startswith('$ '):
            if cmd:
                yield cmd, expect
            cmd, expect = line[2:].strip(), []
        else:
            expect.append(line)
    if cmd:
        yield cmd, expect


def run_tour(scratch):
    nsteps = ncompared = 0
    for block in tour_blocks():
        for cmd, expect in steps(block):
            if cmd.startswith(SKIP):
                if cmd.startswith('perf '):
                    break
                continue
            p = subprocess.run(['bash', '-c', cmd], cwd=scratch, capture_output=True,
                               stdin=subprocess.DEVNULL, timeout=120)
            nsteps += 1
            got = p.stdout.decode('utf-8').splitlines()
            if expect is None:
                assert p.returncode == 0, '%s: exit %d: %s' % (cmd, p.returncode,
                                                               p.stderr.decode())
                continue
            cut = expect.index('...') if '...' in expect else None
            want = expect[:cut]
            have = got[:cut] if cut is not None else got
            assert have == want, '%s:\nREADME shows:\n%s\nprogram prints:\n%s' % (
                cmd, '\n'.join(want), '\n'.join(have))
            if cut is not None:
                assert len(got) > cut, '%s: nothing after the lines shown' % cmd
            ncompared += 1
    return nsteps, ncompared


@check
def tour_runs_and_prints_what_the_readme_shows():
    scratch = tempfile.mkdtemp(prefix='spaa-tour-')
    try:
        for prog in PROGRAMS:
            os.symlink(os.path.abspath(prog), os.path.join(scratch, prog))
        os.symlink(os.path.abspath('tests'), os.path.join(scratch, 'tests'))
        nsteps, ncompared = run_tour(scratch)
        # the tour's own promises: a flame graph and a differential one
        for svg in ('run.svg', 'diff.svg'):
            head = open(os.path.join(scratch, svg), encoding='utf-8').read(200)
            assert '<svg' in head, '%s is not an SVG' % svg
        assert nsteps >= 9 and ncompared >= 7, (nsteps, ncompared)
    finally:
        shutil.rmtree(scratch)


finish()

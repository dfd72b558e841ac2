"""The small harness the tests/cli_*.py files share.

Each check is a function decorated with @check; it runs at once and
prints "ok NAME" or "FAIL NAME" with the reason.  finish() prints the
closing "N passed, M failed" line and exits with the status.  Programs run
with stdin from a file or /dev/null (never a terminal), as under CI.

SPAA_TEST_WRAPPER (make valgrind sets it to a valgrind command) is put
before every spaa-X program run; a valgrind or sanitizer report on its
stderr fails the check that ran it.  SPAA_SANITIZE (make check passes the
Makefile's SANITIZE) says the programs carry a sanitizer.
"""
import fcntl
import json
import os
import pty
import re
import shlex
import struct
import subprocess
import sys
import termios

_WRAPPER = shlex.split(os.environ.get('SPAA_TEST_WRAPPER', ''))

# Under valgrind or a sanitizer (make valgrind, make asan, make tsan) peak
# RSS says nothing about the program's own memory: ASan's quarantine alone
# keeps up to 256 MB of freed blocks.  Memory-bound checks assert their
# bounds only when RSS_IS_THE_PROGRAMS; CPU limits are scaled by SLOWDOWN.
INSTRUMENTED = bool(_WRAPPER) or bool(os.environ.get('SPAA_SANITIZE'))
RSS_IS_THE_PROGRAMS = not INSTRUMENTED
SLOWDOWN = 20 if INSTRUMENTED else 1
_REPORT = re.compile(r'^==\d+== |ERROR: AddressSanitizer|runtime error: ', re.M)

_results = []

# The programs, from the sources as the Makefile finds them: analyses/NAME.c
# are the LAMI analyses spaa-NAME, tools/NAME.c the other tools.
ANALYSES = sorted('spaa-' + f[:-2] for f in os.listdir('analyses') if f.endswith('.c'))
TOOLS = sorted('spaa-' + f[:-2] for f in os.listdir('tools') if f.endswith('.c'))
PROGRAMS = sorted(ANALYSES + TOOLS)


def run(args, stdin=None, timeout=300):
    """(exit status, stdout, stderr) of args."""
    if _WRAPPER and os.path.basename(args[0]).startswith('spaa-'):
        args = _WRAPPER + list(args)
    with open(stdin or os.devnull, 'rb') as f:
        p = subprocess.run(args, stdin=f, capture_output=True, timeout=timeout)
    err = p.stderr.decode()
    if _REPORT.search(err):
        raise AssertionError('%s: a valgrind or sanitizer report:\n%s'
                             % (' '.join(args), err[:3000]))
    return p.returncode, p.stdout.decode(), err


def ok(args, stdin=None):
    """stdout of args, which must succeed."""
    rc, out, err = run(args, stdin)
    if rc:
        raise AssertionError('%s: exit %d: %s' % (' '.join(args), rc, err))
    return out


def lami(args, stdin=None):
    """The LAMI document args print, which must succeed."""
    rc, out, err = run(args, stdin)
    if rc:
        raise AssertionError('%s: exit %d: %s' % (' '.join(args), rc, out + err))
    return json.loads(out)


def check(fn):
    try:
        fn()
        _results.append(True)
        print('ok', fn.__name__)
    except AssertionError as e:
        _results.append(False)
        print('FAIL', fn.__name__)
        print('   ', str(e)[:2000])
    return fn


def run_on_terminal(args, stream, env, stdin=None, cols=80):
    """(exit status, stdout, stderr) of args (not wrapped) with stream
    ('stdout' or 'stderr') on a pseudo-terminal cols wide, the other on a
    pipe; the terminal's "\r\n" read back as "\n"."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 40, cols, 0, 0))
    pipe = {'stdout': 'stderr', 'stderr': 'stdout'}[stream]
    with open(stdin or os.devnull, 'rb') as f:
        p = subprocess.Popen(args, stdin=f, env=env,
                             **{stream: slave, pipe: subprocess.PIPE})
    os.close(slave)
    tty = b''
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:         # EIO: the child closed the terminal
            break
        if not chunk:
            break
        tty += chunk
    piped = getattr(p, pipe).read()
    getattr(p, pipe).close()
    rc = p.wait(timeout=120)
    os.close(master)
    tty = tty.decode().replace('\r\n', '\n')
    if stream == 'stdout':
        return rc, tty, piped.decode()
    return rc, piped.decode(), tty


def finish():
    print('%d passed, %d failed' % (_results.count(True), _results.count(False)))
    sys.exit(0 if all(_results) else 1)

"""Output targets: what -o (spaa-convert) and --svg (spaa-diff) do to what
they write to, in a scratch directory (never the real /dev).

A regular file or a new name is written through a temporary file and
renamed, symbolic links followed (the link stays, its target is replaced
with the target's mode); a read-only file is refused; a device, a FIFO
and a link into /proc (what /dev/stdout is) are written in place, their
errors being errors; a signal removes the temporary file and the program
dies of it; temporary files go to $TMPDIR; SPAA to SPAA on stdout writes
only the records before a rejected one.
"""
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time

from clitest import check, finish, run

BASIC = 'tests/data/basic.spaa'
PERF = 'tests/data/convert_small.perf'
CONVERT = os.path.abspath('spaa-convert')
BASIC_BYTES = open(BASIC, 'rb').read()

scratch = tempfile.mkdtemp(prefix='spaa-cli-output-')


def path(*names):
    return os.path.join(scratch, *names)


def fresh(name):
    """An empty directory scratch/name."""
    d = path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def device(p, minor):
    """A character device of the mem driver (3 null, 7 full) at p, or
    False where mknod is not allowed."""
    try:
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except PermissionError:
        return False
    try:
        with open(p, 'wb'):
            pass
    except OSError:     # a nodev mount
        os.unlink(p)
        return False
    return True


def link_of(p):
    """Where the symbolic link p leads, None when p is not one."""
    return os.readlink(p) if os.path.islink(p) else None


@check
def device_written_in_place_with_its_errors():
    d = fresh('dev')
    if not device(path('dev', 'full'), 7) or not device(path('dev', 'null'), 3):
        print('    (mknod not allowed here: checked with a FIFO only)')
        return
    rc, out, err = run(['./spaa-convert', '-o', path('dev', 'full'), BASIC])
    assert rc == 1, (rc, err)
    assert 'No space left on device' in err, err
    assert out == '', out
    rc, out, err = run(['./spaa-convert', '-o', path('dev', 'null'), BASIC])
    assert rc == 0, (rc, err)
    for name in ('full', 'null'):
        assert stat.S_ISCHR(os.lstat(path('dev', name)).st_mode), name
    assert sorted(os.listdir(d)) == ['full', 'null'], os.listdir(d)


@check
def fifo_with_a_reader_gets_the_output():
    d = fresh('fifo')
    fifo = path('fifo', 'out')
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, 'rb').read()))
    reader.start()
    rc, out, err = run(['./spaa-convert', '-o', fifo, BASIC], timeout=60)
    reader.join(60)
    assert rc == 0, (rc, err)
    assert got == [BASIC_BYTES], got
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(d) == ['out'], os.listdir(d)


@check
def link_into_proc_writes_to_the_descriptor():
    # /dev/stdout is a link to /proc/self/fd/1: the same, without /dev
    d = fresh('proc')
    link = path('proc', 'stdout')
    os.symlink('/proc/self/fd/1', link)
    rc, out, err = run(['./spaa-convert', '-o', link, BASIC])
    assert rc == 0, (rc, err)
    assert out == BASIC_BYTES.decode(), out[:200]
    assert link_of(link) == '/proc/self/fd/1'
    # stdout appending to a file: the descriptor is shared, not reopened
    log = path('proc', 'log')
    with open(log, 'wb') as f:
        f.write(b'before\n')
    with open(log, 'ab') as f:
        p = subprocess.run([CONVERT, '-o', link, BASIC], stdout=f,
                           stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr
    assert open(log, 'rb').read() == b'before\n' + BASIC_BYTES
    assert sorted(os.listdir(d)) == ['log', 'stdout'], os.listdir(d)


@check
def link_stays_and_its_target_is_replaced_keeping_the_mode():
    d = fresh('link')
    os.makedirs(path('link', 'sub'))
    real = path('link', 'sub', 'real.spaa')
    with open(real, 'w') as f:
        f.write('old\n')
    os.chmod(real, 0o640)
    os.symlink('sub/real.spaa', path('link', 'a'))
    os.symlink('a', path('link', 'b'))          # a chain, relative links
    rc, out, err = run(['./spaa-convert', '-o', path('link', 'b'), BASIC])
    assert rc == 0, (rc, err)
    assert link_of(path('link', 'b')) == 'a'
    assert link_of(path('link', 'a')) == 'sub/real.spaa'
    assert open(real, 'rb').read() == BASIC_BYTES
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640, oct(os.stat(real).st_mode)
    assert sorted(os.listdir(path('link', 'sub'))) == ['real.spaa']
    # spaa-diff --svg goes through the same code
    rc, out, err = run(['./spaa-diff', '--svg', path('link', 'b'), BASIC, BASIC])
    assert rc == 0, (rc, err)
    assert open(real).read().startswith('<?xml'), open(real).read()[:100]
    assert os.path.islink(path('link', 'b'))
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert sorted(os.listdir(d)) == ['a', 'b', 'sub'], os.listdir(d)


@check
def new_file_follows_the_umask_and_a_dangling_link_is_followed():
    d = fresh('new')
    os.symlink('made.spaa', path('new', 'link'))
    old = os.umask(0o027)
    try:
        rc, out, err = run(['./spaa-convert', '-o', path('new', 'link'), BASIC])
    finally:
        os.umask(old)
    assert rc == 0, (rc, err)
    assert link_of(path('new', 'link')) == 'made.spaa'
    assert open(path('new', 'made.spaa'), 'rb').read() == BASIC_BYTES
    assert stat.S_IMODE(os.stat(path('new', 'made.spaa')).st_mode) == 0o640
    assert sorted(os.listdir(d)) == ['link', 'made.spaa']


@check
def read_only_file_is_refused():
    d = fresh('ro')
    ro = path('ro', 'ro.spaa')
    with open(ro, 'w') as f:
        f.write('keep\n')
    os.chmod(ro, 0o444)
    for prog in (['./spaa-convert', '-o', ro, BASIC],
                 ['./spaa-diff', '--svg', ro, BASIC, BASIC]):
        rc, out, err = run(prog)
        assert rc == 1, (prog, rc, err)
        assert 'read-only' in err and ro in err, err
        assert open(ro).read() == 'keep\n'
        assert stat.S_IMODE(os.stat(ro).st_mode) == 0o444
    assert os.listdir(d) == ['ro.spaa'], os.listdir(d)


@check
def directory_is_refused():
    d = fresh('dir')
    rc, out, err = run(['./spaa-convert', '-o', d, BASIC])
    assert rc == 1, (rc, err)
    assert 'Is a directory' in err, err
    assert os.listdir(d) == []


def wait_for(cond, what, limit=120):
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError('waited %d s for %s' % (limit, what))
        time.sleep(0.02)


def default_signals():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


@check
def signal_removes_the_temporary_file_and_kills():
    lines = BASIC_BYTES.split(b'\n')
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        d = fresh('sig')
        fifo = path('sig', 'in')
        os.mkfifo(fifo)
        out = path('sig', 'out.spaa')
        # A shell starts background jobs with SIGINT ignored, and the
        # program rightly keeps an ignored signal ignored: give the child
        # the default dispositions so the test means the same everywhere.
        p = subprocess.Popen([CONVERT, '--from', 'spaa', '-o', out, fifo],
                             stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=default_signals)
        w = open(fifo, 'wb')
        w.write(b'\n'.join(lines[:3]) + b'\n')
        w.flush()
        wait_for(lambda: any(n.startswith('out.spaa.tmp') for n in os.listdir(d)),
                 'the temporary file')
        p.send_signal(sig)
        rc = p.wait(120)
        err = p.stderr.read()
        w.close()
        assert rc == -sig, (sig, rc, err)
        assert os.listdir(d) == ['in'], (sig, os.listdir(d))


@check
def tmpdir_is_honoured_by_every_temporary_file():
    missing = path('no-such-dir')
    env = dict(os.environ, TMPDIR=missing)
    for to in ('spaa', 'svg'):
        p = subprocess.run([CONVERT, '--to', to, PERF], env=env, capture_output=True,
                           stdin=subprocess.DEVNULL)
        assert p.returncode == 1, (to, p.returncode, p.stderr)
        assert missing.encode() in p.stderr, (to, p.stderr)
    d = fresh('tmp')
    env['TMPDIR'] = d
    for to in ('spaa', 'svg'):
        p = subprocess.run([CONVERT, '--to', to, PERF], env=env, capture_output=True,
                           stdin=subprocess.DEVNULL)
        assert p.returncode == 0, (to, p.stderr)
        assert os.listdir(d) == [], (to, os.listdir(d))


@check
def spaa_to_stdout_stops_before_the_rejected_record():
    lines = BASIC_BYTES.decode().split('\n')
    bad = '{"type":"frame","id":1,"func":"twice","dso":1,"kind":"user"}'
    src = path('bad.spaa')
    with open(src, 'w') as f:
        # a padded good record (normalised), then a duplicate frame id
        f.write('\n'.join(lines[:5]) + '  \r\n' + bad + '\n' + '\n'.join(lines[5:]))
    rc, out, err = run(['./spaa-convert', src])
    assert rc == 1, (rc, err)
    assert ':6:' in err, err
    assert out == '\n'.join(lines[:5]) + '\n', out


shutil.rmtree(scratch, ignore_errors=True)
finish()

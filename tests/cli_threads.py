"""--threads N and SPAA_THREADS: the thread count changes who reads,
decodes and scans, never what comes out.

Every analysis on every test profile (the SPAA files of data/, the real
profiles of data/corpus/, the SPX reports of data/spx/corpus/, the
directories data/dir/ and data/spx/) gives the same bytes on stdout
and the same exit status with --threads 1 and --threads 8; the inputs
where the count matters -- files of 1 MiB and more (the size from which
a lone compressed file gets a decoding thread, input.h; 4 MiB plain), a
generated one of ~5 MB of sample records and one of ~5 MB of a real
recording's stack records among them,
and directories (the prefetch thread) -- with 1, 2, 3 and 8.  So do
spaa-convert, spaa-validate and spaa-report on those.
SPAA_STATS shows that the count is obeyed: with one thread no record
but samples is parsed ahead (there is no decoding thread), and sample
records are scanned in blocks, by the reader itself, only in a file of
4 MiB and more (SPAA_INPUT_SYNC_MIN, input.h); with 2, 3 or 8 other
records are parsed ahead too; in a directory
of small files no other thread touches them: the reader opens, decodes,
scans and parses each on its own core, with any count (prefetch.h says
why).
"""
import os
import shutil
import tempfile

from clitest import ANALYSES, check, finish, run

COUNTS = (1, 2, 3, 8)
BIG = 1 << 20
PLAIN_BIG = 4 << 20


def spaa_files(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if '.spaa' in f and os.path.isfile(os.path.join(d, f)))


def size(path):
    return os.path.getsize(path) if os.path.isfile(path) else 0


def same_for_counts(args_of, counts):
    """args_of(n) run for each count n: one stdout and exit status."""
    first = None
    for n in counts:
        rc, out, err = run(args_of(n))
        if first is None:
            first = (n, rc, out)
        elif (rc, out) != first[1:]:
            raise AssertionError('%s: --threads %d and --threads %d differ (exit %d, %d)'
                                 % (' '.join(args_of(n)), first[0], n, first[1], rc))
    return first[1]


def stats(args, env):
    """The SPAA_STATS line of args run with env added."""
    saved = dict(os.environ)
    os.environ.update(env, SPAA_STATS='1')
    try:
        rc, _, err = run(args)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert rc == 0, err
    return [line for line in err.splitlines() if ': stats: ' in line]


root = tempfile.mkdtemp(prefix='cli_threads.')
try:
    # ~5 MB: the sample records of a real recording twenty times over
    src = 'tests/data/gate_twowork_1.spaa.zst'
    big = os.path.join(root, 'big.spaa')
    rc, text, _ = run(['./spaa-convert', '--from', 'spaa', src])
    assert rc == 0
    lines = text.splitlines(keepends=True)
    samples = [line for line in lines if '"type":"sample"' in line]
    with open(big, 'w') as f:
        f.writelines(line for line in lines if '"type":"sample"' not in line)
        for _ in range(20):
            f.writelines(samples)
    assert size(big) > PLAIN_BIG and len(samples) > 1000
    # ~5 MB of stack records: a real recording's, decompressed, five
    # times over (content-addressable ids: the repeats add up)
    stacks = os.path.join(root, 'stacks.spaa')
    lines = run(['zstd', '-dc', 'tests/data/corpus/perf_sort_mt.spaa.zst'])[1].splitlines(
        keepends=True)
    with open(stacks, 'w') as f:
        f.writelines(line for line in lines if '"type":"stack"' not in line)
        for _ in range(5):
            f.writelines(line for line in lines if '"type":"stack"' in line)
    assert size(stacks) > PLAIN_BIG
    copies = os.path.join(root, 'copies')
    os.mkdir(copies)
    for i in range(30):
        os.link(src, os.path.join(copies, 'p%02d.spaa.zst' % i))

    profiles = (spaa_files('tests/data') + spaa_files('tests/data/corpus') +
                sorted(os.path.join('tests/data/spx/corpus', d)
                       for d in os.listdir('tests/data/spx/corpus')) +
                ['tests/data/dir', 'tests/data/spx', big, stacks, copies])
    threaded = [p for p in profiles if size(p) >= BIG or os.path.isdir(p)]
    single = ['spaa-hotspots', 'spaa-phases', 'spaa-allocs']
    assert set(single) | {'spaa-diff'} == set(ANALYSES), ANALYSES

    @check
    def analyses_the_same_with_any_thread_count():
        statuses = set()
        for prog in single:
            for p in profiles:
                counts = COUNTS if p in threaded else (1, 8)
                statuses.add(same_for_counts(
                    lambda n: ['./' + prog, '--format', 'lami', '--threads', str(n), p],
                    counts))
        # not a test that passes on nothing: most runs give tables
        assert 0 in statuses, statuses

    @check
    def diff_the_same_with_any_thread_count():
        pairs = [('tests/data/diff_cwork_baseline.spaa.zst',
                  'tests/data/diff_cwork_hashslow.spaa.zst'),
                 (big, 'tests/data/gate_twowork_2.spaa.zst'), (copies, big)]
        for a, b in pairs:
            assert same_for_counts(
                lambda n: ['./spaa-diff', '--format', 'lami', '--threads', str(n), a, b],
                COUNTS) == 0

    @check
    def text_and_csv_the_same_with_any_thread_count():
        for fmt in ('text', 'csv'):
            for p in (big, copies):
                assert same_for_counts(
                    lambda n: ['./spaa-hotspots', '--format', fmt, '--threads', str(n), p],
                    COUNTS) == 0

    @check
    def tools_the_same_with_any_thread_count():
        for p in threaded:
            same_for_counts(lambda n: ['./spaa-convert', '--to', 'folded',
                                       '--threads', str(n), p], COUNTS)
            same_for_counts(lambda n: ['./spaa-validate', '--json', '--threads', str(n), p],
                            COUNTS)

    @check
    def report_the_same_with_any_thread_count():
        pages = set()
        for n in COUNTS:
            page = os.path.join(root, 'report-%d.html' % n)
            rc, out, err = run(['./spaa-report', '--threads', str(n), '-o', page,
                                '--baseline', 'tests/data/gate_twowork_2.spaa.zst', big])
            assert rc == 0, err
            with open(page, 'rb') as f:
                pages.add(f.read())
        assert len(pages) == 1

    @check
    def one_thread_reads_alone():
        n = len(samples) * 20
        one = stats(['./spaa-hotspots', '--threads', '1', big], {})
        counts = one[0].split(': stats: %d sample records: ' % n)[1].split()
        # a block's first line may be a sample line that began in the
        # block before, which is read line by line
        assert int(counts[0]) > n * 9 // 10 and counts[1:3] == ['scanned', 'in'], one
        assert ': stats: 0 other records parsed ahead' in one[2], one
        one = stats(['./spaa-hotspots', '--threads', '1', src], {})
        n = len(samples)
        assert (': stats: %d sample records: 0 scanned in blocks, %d by the fast path'
                % (n, n)) in one[0], one
        # the stack records of a real recording: the fast path's, by the
        # reader alone, and with more threads mostly scanned ahead
        one = stats(['./spaa-hotspots', '--threads', '1', stacks], {})
        n = int(one[1].split(': stats: ')[1].split()[0])
        assert n > 10000, one
        assert ': stats: %d stack records: 0 scanned in blocks, %d by the fast path' % (
            n, n) in one[1], one
        assert ': stats: 0 other records parsed ahead' in one[2], one
        for threads in ('2', '3', '8'):
            more = stats(['./spaa-hotspots', '--threads', threads, big], {})
            assert ' 0 scanned in blocks' not in more[0], more
            more = stats(['./spaa-hotspots', '--threads', threads, stacks], {})
            scanned = int(more[1].split(' stack records: ')[1].split()[0])
            assert scanned > n // 2 and ' 0 by the JSON parser' in more[1], more

    @check
    def small_files_of_a_directory_are_read_alone_or_in_place():
        one = stats(['./spaa-hotspots', '--threads', '1', copies], {})
        assert ' 0 scanned in blocks' in one[0] and ': stats: 0 other' in one[2], one
        assert ': stats: 0 small files read ahead' in one[3], one
        # no decoding thread for small files: each is read whole on one
        # thread, the reader's or one reading ahead into a model of its
        # own (how many of them depends on timing; tests/unit/check_ahead.c
        # grafts every one): the sample counts add up the same
        for n in ('2', '3'):
            more = stats(['./spaa-hotspots', '--threads', n, copies], {})
            assert more[:3] == one[:3], (n, one, more)
            grafted = int(more[3].split(': stats: ')[1].split()[0])
            assert 0 <= grafted < 30, more

    @check
    def spaa_threads_sets_the_count_and_the_option_wins():
        one = stats(['./spaa-hotspots', stacks], {'SPAA_THREADS': '1'})
        assert ' records: 0 scanned in blocks' in one[1], one
        two = stats(['./spaa-hotspots', '--threads', '2', stacks], {'SPAA_THREADS': '1'})
        assert ' records: 0 scanned in blocks' not in two[1], two

    @check
    def bad_counts_are_usage_errors():
        for args, env, want in [
                (['--threads', '0'], {}, "invalid value '0' for '--threads'"),
                (['--threads', 'x'], {}, "invalid value 'x' for '--threads'"),
                (['--threads', '257'], {},
                 "invalid value '257' for '--threads': expected an integer from 1 to 256"),
                ([], {'SPAA_THREADS': '0'},
                 "invalid value '0' for SPAA_THREADS: expected an integer from 1 to 256"),
                ([], {'SPAA_THREADS': 'many'}, "invalid value 'many' for SPAA_THREADS")]:
            for prog in ('spaa-hotspots', 'spaa-convert', 'spaa-validate'):
                saved = dict(os.environ)
                os.environ.update(env)
                try:
                    rc, out, err = run(['./' + prog] + args + ['tests/data/basic.spaa'])
                finally:
                    os.environ.clear()
                    os.environ.update(saved)
                assert rc == 2 and want in out + err, (prog, args, env, rc, out, err)
finally:
    shutil.rmtree(root)
finish()

"""Directories of many profiles: memory grows with what differs, not with
the number of files (spaa_load_opts.fold_repeats).  And SPAA_STATS, which
make bench reads the fast path's hit rate from.

Hard links to one profile make directories of 200, 2,000 and 3,000 files
in a scratch directory; spaa-hotspots' peak RSS (VmHWM, as SPAA_STATS
says it; not time) on 200 and 2,000 must differ by less than 4 MiB (the model of
each copy kept apart costs ~40 kB a file: 70 MB here), on 200 and 3,000
with one thread by less than 256 kB (a file entry, its interned path and
a path string each cost ~170 bytes a file: 470 kB), and the weights of
the 2,000 copies must be 2,000 times those of one.  The same for SPX
reports: 20 and 400 links to one report within 1 MiB (a stack, record
and frame of each call path of each report cost ~26 kB a report: 10 MB),
weights and calls 400 times one report's.  Reports of distinct
processes (a PHP site's: the report's metadata with a pid each, its
events linked): 20 and 400 within 20 kB a report added, what a process
adds being its call paths' records (~17 kB here; 25 kB when the
repeats index kept a copy of each record's key and the fold indexed
every record), and each process weighs what the one report does.  The text header counts the files,
also in a directory of both formats.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

from clitest import RSS_IS_THE_PROGRAMS, check, finish, lami, run

PROFILE = 'tests/data/diff_cwork_baseline.spaa.zst'
SPX = 'tests/data/spx/corpus/04_oop_wt_ct_it/spx-full-20261122_015405-vm-27626-1804289383'


def links(root, name, n, src, d=None):
    """A directory (d, or root/name) of n hard links to each file of src."""
    d = d or os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    for s in src if isinstance(src, list) else [src]:
        tail = os.path.basename(s).split('.', 1)[1]
        for i in range(n):
            os.link(s, os.path.join(d, 'p%05d.%s' % (i, tail)))
    return d


def peak_rss_kb(args):
    """Peak RSS of the analysis args, in kB, and its stdout: what
    SPAA_STATS says (VmHWM), as the child's ru_maxrss counts this
    Python process's memory from before the exec."""
    p = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       env=dict(os.environ, SPAA_STATS='1'))
    if p.returncode:
        raise AssertionError('%s: exit %d' % (' '.join(args), p.returncode))
    kb = re.search(r': stats: peak RSS (\d+) kB', p.stderr)
    assert kb, p.stderr
    return int(kb.group(1)), json.loads(p.stdout)


def self_weights(doc):
    """(function, DSO) -> self weight, from the functions by self weight."""
    return {(r[0], r[1]['path']): r[2]['value'] for r in doc['results'][0]['data']}


root = tempfile.mkdtemp(prefix='cli_manyfiles.')
try:
    src = os.path.join(root, 'src.spaa.zst')
    shutil.copy(PROFILE, src)
    few = links(root, 'few', 200, src)
    many = links(root, 'many', 2000, src)
    more = links(root, 'more', 3000, src)
    spx = []
    for ext in ('json', 'txt.gz'):
        spx.append(os.path.join(root, 'r.' + ext))
        shutil.copy(SPX + '.' + ext, spx[-1])
    spx_few = links(root, 'spx_few', 20, spx)
    spx_many = links(root, 'spx_many', 400, spx)

    def spx_pids(name, n):
        """n reports of processes 10000, 10001, ...: SPX's metadata
        with its pid, tid and key changed, the event file linked."""
        d = os.path.join(root, name)
        os.makedirs(d)
        meta = open(SPX + '.json').read()
        pid = json.loads(meta)['process_pid']
        key = os.path.basename(SPX)
        for i in range(n):
            k = key.replace('-%d-' % pid, '-%d-' % (10000 + i))
            with open(os.path.join(d, k + '.json'), 'w') as f:
                f.write(meta.replace('"process_pid": %d' % pid, '"process_pid": %d' % (10000 + i))
                        .replace('"process_tid": %d' % pid, '"process_tid": %d' % (10000 + i))
                        .replace(key, k))
            os.link(spx[1], os.path.join(d, k + '.txt.gz'))
        return d
    pids_few = spx_pids('pids_few', 20)
    pids_many = spx_pids('pids_many', 400)

    @check
    def many_files_flat_memory():
        rss_few, _ = peak_rss_kb(['./spaa-hotspots', few])
        rss_many, _ = peak_rss_kb(['./spaa-hotspots', many])
        assert rss_many - rss_few < 4096 or not RSS_IS_THE_PROGRAMS, \
            'peak RSS %d kB for 2,000 files, %d kB for 200' % (rss_many, rss_few)

    @check
    def files_cost_no_memory_each():
        rss_few, _ = peak_rss_kb(['./spaa-hotspots', '--threads', '1', few])
        rss_more, _ = peak_rss_kb(['./spaa-hotspots', '--threads', '1', more])
        assert rss_more - rss_few < 256 or not RSS_IS_THE_PROGRAMS, \
            'peak RSS %d kB for 3,000 files, %d kB for 200' % (rss_more, rss_few)

    @check
    def spx_reports_share_their_paths():
        rss_few, _ = peak_rss_kb(['./spaa-hotspots', '--threads', '1', spx_few])
        rss_many, _ = peak_rss_kb(['./spaa-hotspots', '--threads', '1', spx_many])
        assert rss_many - rss_few < 1024 or not RSS_IS_THE_PROGRAMS, \
            'peak RSS %d kB for 400 SPX reports, %d kB for 20' % (rss_many, rss_few)

    @check
    def spx_processes_cost_their_records():
        # the least of three runs: one run's peak varies by ~800 kB here
        # (7,624 kB added in one CI run, 6,704 to 7,500 in others, the
        # same on builds days apart), a few per cent of the bound
        rss_few = min(peak_rss_kb(['./spaa-hotspots', '--threads', '1', pids_few])[0]
                      for _ in range(3))
        rss_many = min(peak_rss_kb(['./spaa-hotspots', '--threads', '1', pids_many])[0]
                       for _ in range(3))
        assert rss_many - rss_few < 380 * 20 or not RSS_IS_THE_PROGRAMS, \
            'peak RSS %d kB for 400 SPX processes, %d kB for 20' % (rss_many, rss_few)
        one = lami(['./spaa-hotspots', '--limit', 'unlimited', SPX + '.json'])
        many = lami(['./spaa-hotspots', '--limit', 'unlimited', pids_many])

        def threads(d):
            return [t['data'] for t in d['results'] if t['class'].get('inherit') == 'threads'][0]
        (me,), them = threads(one), threads(many)
        # each process its own row, weighing and hottest as the one report
        assert sorted(r[0]['pid'] for r in them) == list(range(10000, 10400)), them[:2]
        assert all(r[1] == me[1] and r[3] == me[3] for r in them), (me, them[:2])

    @check
    def spx_reports_sum_their_weights():
        def table(path):
            doc = lami(['./spaa-hotspots', '--limit', 'unlimited', path])
            return {r[0]: (r[2]['value'], r[-1]) for r in doc['results'][0]['data']}
        one, all_ = table(SPX + '.json'), table(spx_many)
        assert one and set(one) == set(all_), (sorted(one), sorted(all_))
        for fn, (w, calls) in one.items():
            assert all_[fn] == (400 * w, 400 * calls), (fn, w, calls, all_[fn])

    @check
    def header_counts_the_files():
        mixed = links(root, 'mixed', 3, spx, links(root, 'mixed', 5, src))
        for path, want in ((many, '2000 files: SPAA from perf'),
                           (spx_many, '400 files: SPX report'),
                           (mixed, '8 files: SPX report, SPAA from perf')):
            rc, out, err = run(['./spaa-hotspots', '--format', 'text', path])
            assert rc == 0 and '(%s)' % want in ' '.join(out.split()), (path, out[:300])

    @check
    def many_files_sum_their_weights():
        one = self_weights(lami(['./spaa-hotspots', '--limit', 'unlimited', PROFILE]))
        all_ = self_weights(lami(['./spaa-hotspots', '--limit', 'unlimited', many]))
        assert one and set(one) == set(all_), (sorted(one), sorted(all_))
        for fn, w in one.items():
            assert all_[fn] == 2000 * w, (fn, w, all_[fn])

    @check
    def repeated_keys_found_ahead_warn_as_inline():
        # a frame record with a key twice, in files read with two
        # threads or one (small files: the reader's thread either way)
        text = subprocess.run(['zstd', '-dc', PROFILE], capture_output=True,
                              text=True, check=True).stdout.split('\n')
        at = next(i for i, l in enumerate(text) if '"type":"frame"' in l)
        text[at] = text[at].replace('"inlined":false', '"inlined":false,"inlined":true')
        d = os.path.join(root, 'dup')
        os.makedirs(d)
        for name in ('a.spaa', 'b.spaa'):
            with open(os.path.join(d, name), 'w') as f:
                f.write('\n'.join(text))
        outs = []
        for threads in ('1', '2'):
            rc, out, err = run(['./spaa-hotspots', '--threads', threads, d])
            for name in ('a.spaa', 'b.spaa'):
                want = "warning: %s:%d: key 'inlined' appears twice in one object" % (
                    os.path.join(d, name), at + 1)
                assert rc == 0 and want in err, (threads, want, err)
            outs.append(out)
        assert outs[0] == outs[1]

    @check
    def small_files_parsed_by_the_reader():
        # every file of few is 7 kB of zstd, under 256 KiB: read inline,
        # no decoding thread and no prefetch thread: the reader opens
        # and parses each (JSON trees made on another core cost it more
        # than parsing them itself), so 0 of the
        # 200 x 442 other records are parsed ahead, whatever the threads
        for threads in ('2', '3'):
            p = subprocess.run(['./spaa-hotspots', '--threads', threads, few],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               env=dict(os.environ, SPAA_STATS='1'))
            assert p.returncode == 0, p.stderr
            want = 'spaa-hotspots: stats: 0 other records parsed ahead by reading threads'
            assert want in p.stderr.splitlines(), (threads, p.stderr)

    @check
    def stats_count_how_samples_and_stacks_were_read():
        path = os.path.join(root, 'stats.spaa')
        with open(path, 'w') as f:
            f.write(open('tests/data/samples.spaa').read())
            # a stack with a key the fast path does not know, and one it does
            f.write('{"type":"stack","id":"C","frames":[1],"x_note":1,'
                    '"weights":[{"metric":"period","value":1}]}\n')
            f.write('{"type":"stack","id":"D","frames":[1],'
                    '"weights":[{"metric":"period","value":1}]}\n')
            # the event name escaped: the fast path leaves it to the parser
            f.write('{"type":"sample","timestamp":10.9,"event":"cpu\\u002dclock",'
                    '"stack_id":"A"}\n')
        rc, _, err = run(['./spaa-hotspots', path])
        assert rc == 0 and 'stats' not in err, err
        os.environ['SPAA_STATS'] = '1'
        try:
            rc, _, err = run(['./spaa-hotspots', path])
        finally:
            del os.environ['SPAA_STATS']
        want = ('spaa-hotspots: stats: 9 sample records: 0 scanned in blocks, '
                '8 by the fast path line by line, 1 by the JSON parser; fast path 88.9 %')
        assert rc == 0 and want in err.splitlines(), err
        want = ('spaa-hotspots: stats: 4 stack records: 0 scanned in blocks, '
                '3 by the fast path line by line, 1 by the JSON parser; fast path 75.0 %')
        assert want in err.splitlines(), err
finally:
    shutil.rmtree(root)
finish()

"""Directories of many profiles: memory grows with what differs, not with
the number of files (spaa_load_opts.fold_repeats).  And SPAA_STATS, which
make bench reads the fast path's hit rate from.

Hard links to one profile make directories of 200 and 2,000 files in a
scratch directory; spaa-hotspots' peak RSS (ru_maxrss of the child, not
time) on the two must differ by less than 4 MiB (the model of each copy
kept apart costs ~40 kB a file: 70 MB here), and the weights of the
2,000 copies must be 2,000 times those of one.
"""
import json
import os
import shutil
import subprocess
import tempfile

from clitest import RSS_IS_THE_PROGRAMS, check, finish, lami, run

PROFILE = 'tests/data/diff_cwork_baseline.spaa.zst'


def links(root, name, n, src):
    """A directory of n hard links to src."""
    d = os.path.join(root, name)
    os.mkdir(d)
    for i in range(n):
        os.link(src, os.path.join(d, 'p%05d.spaa.zst' % i))
    return d


def peak_rss_kb(args):
    """Peak RSS of args run as a child, in kB, and its stdout."""
    with open(os.devnull, 'rb') as null:
        p = subprocess.Popen(args, stdin=null, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        out = p.stdout.read()
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise AssertionError('%s: exit %d' % (' '.join(args), p.returncode))
    return usage.ru_maxrss, json.loads(out)


def self_weights(doc):
    """(function, DSO) -> self weight, from the functions by self weight."""
    return {(r[0], r[1]['path']): r[2]['value'] for r in doc['results'][0]['data']}


root = tempfile.mkdtemp(prefix='cli_manyfiles.')
try:
    src = os.path.join(root, 'src.spaa.zst')
    shutil.copy(PROFILE, src)
    few = links(root, 'few', 200, src)
    many = links(root, 'many', 2000, src)

    @check
    def many_files_flat_memory():
        rss_few, _ = peak_rss_kb(['./spaa-hotspots', few])
        rss_many, _ = peak_rss_kb(['./spaa-hotspots', many])
        assert rss_many - rss_few < 4096 or not RSS_IS_THE_PROGRAMS, \
            'peak RSS %d kB for 2,000 files, %d kB for 200' % (rss_many, rss_few)

    @check
    def many_files_sum_their_weights():
        one = self_weights(lami(['./spaa-hotspots', '--limit', 'unlimited', PROFILE]))
        all_ = self_weights(lami(['./spaa-hotspots', '--limit', 'unlimited', many]))
        assert one and set(one) == set(all_), (sorted(one), sorted(all_))
        for fn, w in one.items():
            assert all_[fn] == 2000 * w, (fn, w, all_[fn])

    @check
    def stats_count_how_samples_were_read():
        path = os.path.join(root, 'stats.spaa')
        with open(path, 'w') as f:
            f.write(open('tests/data/samples.spaa').read())
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
finally:
    shutil.rmtree(root)
finish()

"""One file that repeats its own stack records (the same stack ids and
contexts written again and again, as a concatenation of one profile's
stack records makes): the analyses add each repeat to its first record
(spaa_load_opts.fold_repeats), so memory grows with what differs.

The stack records of one profile written 20 and 600 times: spaa-hotspots'
peak RSS (ru_maxrss of the child) on the two must differ by less than
3 MiB (each record kept apart costs ~140 bytes: ~20 MB here), and the
weights of the 600 copies must be 600 times those of one.  spaa-convert,
which copies records, keeps every one.
"""
import json
import os
import shutil
import subprocess
import tempfile

from clitest import RSS_IS_THE_PROGRAMS, check, finish, lami, run

PROFILE = 'tests/data/diff_cwork_baseline.spaa.zst'


def repeated(root, name, n):
    """The profile with its stack records written n times, as a plain file."""
    text = subprocess.run(['zstd', '-dc', PROFILE], check=True,
                          stdout=subprocess.PIPE).stdout.decode()
    lines = text.splitlines(keepends=True)
    stacks = [l for l in lines if '"type":"stack"' in l]
    path = os.path.join(root, name)
    with open(path, 'w') as f:
        f.writelines(l for l in lines if '"type":"stack"' not in l)
        for _ in range(n):
            f.writelines(stacks)
    return path, len(stacks)


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


root = tempfile.mkdtemp(prefix='cli_onefile.')
try:
    few, nstacks = repeated(root, 'few.spaa', 20)
    many, _ = repeated(root, 'many.spaa', 600)

    @check
    def repeated_records_flat_memory():
        rss_few, _ = peak_rss_kb(['./spaa-hotspots', few])
        rss_many, _ = peak_rss_kb(['./spaa-hotspots', many])
        assert rss_many - rss_few < 3072 or not RSS_IS_THE_PROGRAMS, \
            'peak RSS %d kB for 600 copies of the records, %d kB for 20' % (rss_many, rss_few)

    @check
    def repeated_records_sum_their_weights():
        one = self_weights(lami(['./spaa-hotspots', '--limit', 'unlimited', PROFILE]))
        all_ = self_weights(lami(['./spaa-hotspots', '--limit', 'unlimited', many]))
        assert one and set(one) == set(all_), (sorted(one), sorted(all_))
        for fn, w in one.items():
            assert all_[fn] == 600 * w, (fn, w, all_[fn])

    @check
    def convert_keeps_every_record():
        out = os.path.join(root, 'copy.spaa')
        rc, _, err = run(['./spaa-convert', '-o', out, few])
        assert rc == 0, err
        with open(out) as f:
            n = sum('"type":"stack"' in l for l in f)
        assert n == 20 * nstacks, (n, nstacks)
finally:
    shutil.rmtree(root)
finish()

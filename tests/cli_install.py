#!/usr/bin/env python3
"""make install and make uninstall into a staging directory (DESTDIR).

The expected file list is built from the sources and the programs'
own --metadata, not written here; the Trace Compass descriptors are read
the way Trace Compass reads them (java.util.Properties, then its command
splitting, both re-implemented below from their documented rules).
"""
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile

from clitest import ANALYSES, PROGRAMS, check, finish, ok, run

PREFIX = '/opt/spaa tools'      # a space, which the descriptors must quote
TMP = tempfile.mkdtemp(prefix='spaa-install-')
DEST = os.path.join(TMP, 'stage')


def properties(text):
    """{key: value} as java.util.Properties.load reads text."""
    lines, out = text.split('\n'), {}
    i = 0
    while i < len(lines):
        line = lines[i].lstrip(' \t\f')
        i += 1
        if not line or line[0] in '#!':
            continue
        # a line ending in an odd number of backslashes continues
        while len(line) - len(line.rstrip('\\')) & 1 and i < len(lines):
            line = line[:-1] + lines[i].lstrip(' \t\f')
            i += 1
        m = re.match(r'((?:\\.|[^=:\s\\])*)\s*[=:]?\s*(.*)', line, re.S)
        key, value = (re.sub(r'\\u([0-9a-fA-F]{4})|\\(.)',
                             lambda g: chr(int(g[1], 16)) if g[1] else
                             {'t': '\t', 'n': '\n', 'r': '\r', 'f': '\f'}.get(g[2], g[2]), s)
                      for s in m.groups())
        out[key] = value
    return out


def tc_split(command):
    """The arguments Trace Compass makes of a command string (ShellUtils):
    split on spaces, double quotes group, \\\\ and \\" are the escapes."""
    args, cur, quoted, i = [], '', False, 0
    while i < len(command):
        c = command[i]
        if c == '\\' and i + 1 < len(command) and command[i + 1] in '\\"':
            cur += command[i + 1]
            i += 2
            continue
        if c == '"':
            if quoted or cur:
                args.append(cur)
            cur, quoted = '', not quoted
        elif c == ' ' and not quoted:
            if cur:
                args.append(cur)
            cur = ''
        else:
            cur += c
        i += 1
    if cur:
        args.append(cur)
    return args


def tc_file_name(name):
    """The file Trace Compass keeps an analysis called name in (LamiConfigUtils)."""
    return re.sub(r'[^a-zA-Z0-9_]', '', re.sub(r'\s+', '-', name)) + '.properties'


def titles():
    return {p: json.loads(ok(['./' + p, '--metadata']))['title'] for p in ANALYSES}


def make(target, prefix=PREFIX):
    rc, out, err = run(['make', '-s', target, 'DESTDIR=' + DEST, 'PREFIX=' + prefix])
    assert rc == 0, (target, out + err)


def staged(path):
    return DEST + PREFIX + '/' + path


def tree(root):
    files = sorted(os.path.relpath(os.path.join(r, f), root)
                   for r, _, fs in os.walk(root) for f in fs)
    dirs = sorted(os.path.relpath(r, root) for r, _, _ in os.walk(root))
    return files, dirs


def completion(words, cwd='.'):
    """COMPREPLY of the installed completion for the command line words,
    the last one being completed, in a non-interactive bash."""
    script = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
              'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; '
              '_spaa_tools "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    env = dict(os.environ, PATH=staged('bin') + ':/usr/bin:/bin')
    p = subprocess.run(['bash', '-c', script, 'bash',
                        staged('share/bash-completion/completions/' + words[0])] + words,
                       capture_output=True, text=True, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
    assert p.returncode == 0 and p.stderr == '', (words, p.stderr)
    return sorted(l for l in p.stdout.split('\n') if l)


make('install')


@check
def installs_exactly_the_expected_files():
    want = ['bin/' + p for p in PROGRAMS]
    want += ['share/man/man1/%s.1' % p for p in PROGRAMS]
    want += ['share/man/man7/spaa-tools.7']
    want += ['share/spaa-tools/schemas/' + f for f in os.listdir('schemas')
             if f.endswith('.json')]
    want += ['share/bash-completion/completions/' + p for p in PROGRAMS]
    want += ['share/spaa-tools/tracecompass/' + tc_file_name(t) for t in titles().values()]
    want += ['share/spaa-tools/tracecompass/tracecompass-parser.xml']
    files, _ = tree(DEST)
    assert files == sorted(PREFIX[1:] + '/' + f for f in want), (
        'unexpected: %s; missing: %s' % (
            sorted(set(files) - {PREFIX[1:] + '/' + f for f in want}),
            sorted({PREFIX[1:] + '/' + f for f in want} - set(files))))
    for f in files:
        mode = stat.S_IMODE(os.stat(os.path.join(DEST, f)).st_mode)
        assert mode == (0o755 if '/bin/' in f else 0o644), (f, oct(mode))
    for f in os.listdir('schemas'):
        with open('schemas/' + f, 'rb') as a, open(staged('share/spaa-tools/schemas/' + f), 'rb') as b:
            assert a.read() == b.read(), f
    with open('tools/tracecompass-parser.xml', 'rb') as a, \
            open(staged('share/spaa-tools/tracecompass/tracecompass-parser.xml'), 'rb') as b:
        assert a.read() == b.read()


@check
def installed_programs_run():
    for p in PROGRAMS:
        out = ok([staged('bin/' + p), '--version'])
        assert out.startswith(p + ' '), out
    args = ['--limit', '3', 'tests/data/basic.spaa']
    assert ok([staged('bin/spaa-hotspots')] + args) == ok(['./spaa-hotspots'] + args)


@check
def installed_pages_render():
    for page in ['man1/%s.1' % p for p in PROGRAMS] + ['man7/spaa-tools.7']:
        p = subprocess.run(['groff', '-man', '-Tutf8', '-P-cbou', '-ww', staged('share/man/' + page)],
                           capture_output=True)
        out = p.stdout.decode()
        name = os.path.basename(page).rsplit('.', 1)[0]
        assert p.returncode == 0 and p.stderr == b'', (page, p.stderr)
        assert 'NAME' in out and name in out and len(out.splitlines()) > 30, (page, out[:200])


@check
def completion_of_options_values_and_paths():
    assert completion(['spaa-hotspots', '--li']) == ['--limit']
    for p in PROGRAMS:
        got = completion([p, '--'])
        helped = set(re.findall(r'(?m)^\s+(?:-\w, )?(--[a-z][a-z-]*)', ok(['./' + p, '--help'])))
        assert set(got) == helped, (p, got, helped)
    assert completion(['spaa-diff', '--normalize', '']) == ['auto', 'none', 'share']
    assert completion(['spaa-diff', '--normalize=a']) == ['auto']
    assert completion(['spaa-convert', '--to', '']) == ['folded', 'spaa', 'svg']
    d = os.path.join(TMP, 'files')
    os.makedirs(os.path.join(d, 'sub'))
    for f in ('a.spaa', 'b.spaa.zst', 'c.txt', 'r.json', 'r.txt.gz'):
        open(os.path.join(d, f), 'w').close()
    assert completion(['spaa-hotspots', ''], d) == ['a.spaa', 'b.spaa.zst', 'r.json',
                                                    'r.txt.gz', 'sub']
    assert completion(['spaa-validate', '--quiet', ''], d) == ['a.spaa', 'b.spaa.zst', 'sub']
    assert completion(['spaa-convert', '-o', ''], d) == ['a.spaa', 'b.spaa.zst', 'c.txt',
                                                         'r.json', 'r.txt.gz', 'sub']
    # each installed file registers the completion for every program
    p = subprocess.run(['bash', '-c', 'source "$1"; complete -p', 'bash',
                        staged('share/bash-completion/completions/spaa-allocs')],
                       capture_output=True, text=True)
    registered = re.findall(r'complete -F _spaa_tools (\S+)', p.stdout)
    assert sorted(registered) == PROGRAMS, p.stdout


@check
def trace_compass_descriptors():
    for prog, title in titles().items():
        with open(staged('share/spaa-tools/tracecompass/' + tc_file_name(title)),
                  encoding='latin-1') as f:
            props = properties(f.read())
        assert sorted(props) == ['command', 'name'], props
        assert props['name'] == title, props
        args = tc_split(props['command'].strip())
        assert args == [PREFIX + '/bin/' + prog], args
        assert os.access(DEST + args[0], os.X_OK), args


@check
def descriptor_escapes_quotes_and_backslashes():
    bindir = '/opt/a "b" \\c d/bin'
    out = ok(['sh', 'tools/tracecompass-descriptor.sh', 'analyses/hotspots.c', bindir])
    assert tc_split(properties(out)['command']) == [bindir + '/spaa-hotspots'], out
    rc, out, err = run(['sh', 'tools/tracecompass-descriptor.sh', 'analyses/hotspots.c',
                        '/opt/\u00e9/bin'])
    assert rc == 1 and out == '' and 'ASCII' in err, (rc, out, err)


@check
def properties_and_split_readers_are_right():
    # the two readers above on cases whose answer is known by hand
    assert properties('# c\n! c\n a = b \\\n  c\nk:v\nx\\=y=\\u0041\\\\\n') == {
        'a': 'b c', 'k': 'v', 'x=y': 'A\\'}
    assert tc_split('/a/b  "c d" e\\"f "" \\\\g') == ['/a/b', 'c d', 'e"f', '', '\\g']


@check
def uninstall_leaves_only_the_empty_prefix():
    make('uninstall')
    files, dirs = tree(DEST)
    assert files == [] and dirs == ['.', 'opt', 'opt/spaa tools'], (files, dirs)
    # what is not ours stays, and so do the directories holding it
    make('install')
    os.makedirs(staged('share/man/man1'), exist_ok=True)
    open(staged('share/man/man1/other.1'), 'w').close()
    make('uninstall')
    files, _ = tree(DEST)
    assert files == ['opt/spaa tools/share/man/man1/other.1'], files


shutil.rmtree(TMP, ignore_errors=True)
finish()

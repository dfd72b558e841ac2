#!/usr/bin/env python3
"""make install and make uninstall into a staging directory (DESTDIR).

The expected file list is built from the sources and the programs'
own --metadata, not written here; the Trace Compass descriptors are read
the way Trace Compass reads them (java.util.Properties, then its command
splitting, both re-implemented below from their documented rules).  The
installed spaa-tracecompass-setup is run on scratch workspaces: what it
writes, a second run, other parsers kept, the backup, --remove, and the
files it must refuse.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import xml.etree.ElementTree as ET

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


SETUP_WS = os.path.join(TMP, 'workspace')
LAMI_CONFIGS = '.metadata/.plugins/org.eclipse.tracecompass.analysis.lami.core/user-defined-configs'
PARSER_LIST = '.metadata/.plugins/org.eclipse.tracecompass.tmf.core/custom_txt_parsers.xml'
TC_DATA = 'share/spaa-tools/tracecompass/'


def setup(*args, env=None):
    """(status, stdout, stderr) of the installed spaa-tracecompass-setup."""
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        return run([staged('bin/spaa-tracecompass-setup')] + list(args))
    finally:
        os.environ.clear()
        os.environ.update(saved)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def definitions(path):
    """(category, name) of each Definition of a parser list, read with the
    JDK-like parser of Python (ElementTree), in order."""
    root = ET.parse(path).getroot()
    assert root.tag == 'CustomTxtTraceDefinitionList', root.tag
    return [(d.get('category'), d.get('name')) for d in root]


# Another user's list, as Trace Compass or a hand writes it: attributes in
# any order and quotes, white space, an older definition of ours between.
with open('tests/data/tracecompass/others.xml') as f:
    OTHERS = f.read()
OTHERS_WITHOUT_OURS = OTHERS.replace(
    '\n  <Definition\n   category = "spaa-tools" name="SPAA profile"><Old/></Definition>', '')


@check
def setup_installs_descriptors_and_parser():
    rc, out, err = setup('--workspace', SETUP_WS)
    assert rc == 0 and err == '', (rc, out, err)
    for prog, title in titles().items():
        f = tc_file_name(title)
        assert read(os.path.join(SETUP_WS, LAMI_CONFIGS, f)) == read(staged(TC_DATA + f)), f
        assert 'wrote %s/%s/%s' % (SETUP_WS, LAMI_CONFIGS, f) in out, out
    plist = os.path.join(SETUP_WS, PARSER_LIST)
    assert definitions(plist) == [('spaa-tools', 'SPAA profile')]
    # the definition is the installed one, element for element
    want = ET.tostring(ET.parse(staged(TC_DATA + 'tracecompass-parser.xml')).getroot()[0])
    assert ET.tostring(ET.parse(plist).getroot()[0]) == want
    assert not os.path.exists(plist + '.bak')


@check
def setup_twice_changes_nothing():
    files = {os.path.join(r, f): (read(os.path.join(r, f)), os.stat(os.path.join(r, f)).st_mtime_ns)
             for r, _, fs in os.walk(SETUP_WS) for f in fs}
    rc, out, err = setup('--workspace', SETUP_WS)
    assert rc == 0 and err == '', (rc, out, err)
    assert sorted(out.split()) == sorted(['unchanged'] * len(files) + list(files)), out
    after = {os.path.join(r, f): (read(os.path.join(r, f)), os.stat(os.path.join(r, f)).st_mtime_ns)
             for r, _, fs in os.walk(SETUP_WS) for f in fs}
    assert after == files


@check
def setup_keeps_other_parsers_and_backs_up():
    ws = os.path.join(TMP, 'ws-others')
    plist = os.path.join(ws, PARSER_LIST)
    os.makedirs(os.path.dirname(plist))
    with open(plist, 'w') as f:
        f.write(OTHERS)
    mine = os.path.join(ws, LAMI_CONFIGS, 'Mine.properties')
    os.makedirs(os.path.dirname(mine))
    with open(mine, 'w') as f:
        f.write('name=Mine\ncommand=/bin/true\n')
    rc, out, err = setup('--workspace', ws)
    assert rc == 0 and err == '', (rc, out, err)
    assert read(plist + '.bak') == OTHERS.encode()
    text = read(plist).decode()
    # the others byte for byte, ours once, the current one, at the end
    assert text.startswith(OTHERS_WITHOUT_OURS.rsplit('</CustomTxt', 1)[0]), text
    assert definitions(plist) == [('Mine', 'My log'), ('Other', 'SPAA profile'),
                                  ('spaa-tools', 'SPAA profile')]
    assert '<Old/>' not in text and 'TimeStampOutputFormat>Tn<' in text
    # --remove: exactly ours out, the list saved first, the rest stays
    before = read(plist)
    rc, out, err = setup('--workspace', ws, '--remove')
    assert rc == 0 and err == '', (rc, out, err)
    assert read(plist) == OTHERS_WITHOUT_OURS.encode(), read(plist)
    assert read(plist + '.bak') == before
    assert os.listdir(os.path.join(ws, LAMI_CONFIGS)) == ['Mine.properties']
    assert out.count('removed ') == len(ANALYSES), out
    # removing again finds nothing of ours: nothing written
    rc, out, err = setup('--workspace', ws, '--remove')
    assert (rc, err) == (0, '') and 'wrote' not in out and 'removed' not in out, out


@check
def setup_default_workspace():
    home = os.path.join(TMP, 'home')
    os.makedirs(home)
    rc, out, err = setup(env={'HOME': home, 'TRACING_RCP_ROOT': ''})
    assert rc == 0, err
    assert os.path.exists(os.path.join(home, '.tracecompass', PARSER_LIST)), out
    rcp = os.path.join(TMP, 'rcp')
    rc, out, err = setup(env={'HOME': home, 'TRACING_RCP_ROOT': rcp})
    assert rc == 0 and os.path.exists(os.path.join(rcp, PARSER_LIST)), (out, err)


@check
def setup_refuses_what_it_cannot_read_or_write():
    # a list that is not one: its line named, nothing written anywhere
    ws = os.path.join(TMP, 'ws-bad')
    plist = os.path.join(ws, PARSER_LIST)
    os.makedirs(os.path.dirname(plist))
    for bad, line in [('<CustomTxtTraceDefinitionList>\n<Definition category="a">\n', 2),
                      ('<!DOCTYPE x>\n<CustomTxtTraceDefinitionList/>', 1),
                      ('\0\xff binary', 1)]:
        with open(plist, 'w') as f:
            f.write(bad)
        rc, out, err = setup('--workspace', ws)
        assert rc == 1 and out == '', (bad, rc, out, err)
        assert err.startswith('spaa-tracecompass-setup: error: %s:%d: ' % (plist, line)), err
        assert err.count('\n') == 1, err
        assert sorted(os.listdir(os.path.dirname(plist))) == ['custom_txt_parsers.xml']
        assert not os.path.exists(os.path.join(ws, LAMI_CONFIGS)), bad
    # a read-only list is refused, never replaced (root too)
    with open(plist, 'w') as f:
        f.write(OTHERS)
    os.chmod(plist, 0o444)
    rc, out, err = setup('--workspace', ws)
    assert rc == 1 and 'read-only' in err and plist in err, (rc, err)
    assert read(plist) == OTHERS.encode()
    # a workspace where nothing can be made: a read-only directory, or for
    # root, whom modes do not stop, a read-only file system
    ro = os.path.join(TMP, 'ws-ro')
    os.makedirs(ro)
    os.chmod(ro, 0o555)
    if os.geteuid() == 0:
        ro = '/sys/spaa-tracecompass-test'
    rc, out, err = setup('--workspace', ro)
    assert rc == 1 and err.startswith('spaa-tracecompass-setup: error: ' + ro), (rc, err)
    assert not os.path.exists(os.path.join(ro, '.metadata'))
    # usage
    rc, out, err = setup('--workspace', ws, 'extra')
    assert rc == 2 and 'unexpected argument' in err, err


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

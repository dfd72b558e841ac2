#!/usr/bin/env python3
"""The man pages against the programs they describe, for every executable.

The list of programs comes from the sources (analyses/*.c are the LAMI
analyses, tools/*.c the other tools), so a new program, option, table or
column that its page does not describe fails here.  Options and columns are
read from the programs themselves (--help, --metadata), never listed here.
"""
import json
import os
import re
import subprocess

from clitest import ANALYSES, PROGRAMS, check, finish, ok, run

OVERVIEW = 'man/spaa-tools.7'

# The sections every page has, in this order (others may come between).
SECTIONS = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'TABLES', 'EXIT STATUS',
            'EXAMPLES', 'SEE ALSO']

ALTERNATING = {'BR', 'RB', 'BI', 'IB', 'IR', 'RI'}
ESCAPES = [(r'\-', '-'), (r'\(em', '\u2014'), (r'\(aq', "'"), (r'\(dq', '"'),
           (r'\(mu', '\u00d7'), (r'\e', '\\'), (r'\&', ''), (r'\%', ''),
           (r'\ ', ' '), (r'\~', ' ')]


def text(line):
    """The words a line of roff source prints, without fonts and escapes."""
    m = re.match(r'\.(\w+)\s*(.*)', line)
    if m:
        macro, rest = m.groups()
        args = [a or b for a, b in re.findall(r'"([^"]*)"|(\S+)', rest)]
        if macro in ALTERNATING:
            line = ''.join(args)
        elif macro in ('B', 'I', 'SH', 'SS', 'SM', 'SB'):
            line = ' '.join(args)
        else:
            return ''
    line = re.sub(r'\\f(\(..|\[[^]]*\]|.)', '', line)
    for esc, char in ESCAPES:
        line = line.replace(esc, char)
    return line.strip()


def sections(path):
    """{SECTION: [source lines]} of a page, and the section names in order."""
    with open(path) as f:
        lines = f.read().splitlines()
    order, by_name, cur = [], {}, None
    for line in lines:
        if line.startswith('.SH'):
            cur = text(line)
            order.append(cur)
            by_name[cur] = []
        elif cur is not None:
            by_name[cur].append(line)
    return by_name, order


def tags(lines):
    """The text of every .TP tag (the line after .TP)."""
    return [text(lines[i + 1]) for i, l in enumerate(lines[:-1]) if l.strip() == '.TP']


def option_names(spec):
    return set(re.findall(r'(?<![\w-])(--?[A-Za-z][\w-]*)', spec))


def help_options(prog):
    """Every option the option lines of PROG --help list."""
    opts = set()
    for line in ok(['./' + prog, '--help']).splitlines():
        if re.match(r'\s+-', line):
            opts |= option_names(re.split(r'\s{2,}', line.strip())[0])
    return opts


def page(prog):
    return 'man/%s.1' % prog


@check
def every_program_has_a_page_and_nothing_else():
    pages = sorted(f for f in os.listdir('man') if f.endswith('.1'))
    assert pages == sorted(p + '.1' for p in PROGRAMS), pages
    assert len(PROGRAMS) >= 6, PROGRAMS


@check
def groff_reports_no_warnings():
    for path in [page(p) for p in PROGRAMS] + [OVERVIEW]:
        # the default device and a terminal's 80 columns, as man shows it
        for device in ([], ['-Tutf8']):
            p = subprocess.run(['groff', '-man', '-ww', '-z'] + device + [path],
                               capture_output=True)
            assert p.returncode == 0 and p.stderr == b'', (path, device, p.stderr.decode())


@check
def pages_have_every_section_in_order():
    for prog in PROGRAMS:
        by_name, order = sections(page(prog))
        want = [s if s != 'TABLES' or prog in ANALYSES else 'OUTPUT' for s in SECTIONS]
        found = [s for s in order if s in want]
        assert found == want, '%s: sections %s, want %s' % (prog, order, want)
        assert all(any(l.strip() and not l.startswith('.\\"') for l in by_name[s])
                   for s in want), '%s: an empty section' % prog
        with open(page(prog)) as f:
            first = f.readline()
        assert first.startswith('.TH %s 1 ' % prog.upper()), (prog, first)
        assert text(by_name['NAME'][0]).startswith(prog + ' - '), by_name['NAME'][:1]
        assert 'spaa-tools(7)' in ' '.join(map(text, by_name['SEE ALSO'])), prog
        assert {'0', '1', '2'} <= set(tags(by_name['EXIT STATUS'])), prog


@check
def help_and_man_page_agree():
    """Every option of --help is a tag of OPTIONS, and every tag's option is in --help."""
    for prog in PROGRAMS:
        helped = help_options(prog)
        assert {'--help', '-h', '--version'} <= helped, (prog, helped)
        by_name, _ = sections(page(prog))
        documented = set()
        for tag in tags(by_name.get('OPTIONS', [])):
            documented |= option_names(tag)
        assert helped == documented, '%s: help only: %s; man only: %s' % (
            prog, sorted(helped - documented), sorted(documented - helped))
        _, out, _ = run(['./' + prog, '--help'])
        assert out.rstrip().endswith('See %s(1).' % prog), (prog, out[-80:])


@check
def tables_section_describes_every_column_with_its_class():
    """TABLES has one subsection "NAME \u2014 TITLE" per table class, in the
    metadata's order, whose tags are its columns "Title (class[, unit])"."""
    for prog in ANALYSES:
        meta = json.loads(ok(['./' + prog, '--metadata']))
        by_name, _ = sections(page(prog))
        subs, cur = [], None
        for line in by_name.get('TABLES', []):
            if line.startswith('.SS'):
                cur = (text(line), [])
                subs.append(cur)
            elif cur:
                cur[1].append(line)
        classes = meta['table-classes']
        headings = ['%s \u2014 %s' % (name, c['title']) for name, c in classes.items()]
        assert [h for h, _ in subs] == headings, '%s: %s, want %s' % (
            prog, [h for h, _ in subs], headings)
        for (heading, lines), c in zip(subs, classes.values()):
            want = []
            for col in c['column-descriptions']:
                kind = col.get('class', 'mixed')
                if 'unit' in col:
                    kind += ', ' + col['unit']
                want.append('%s (%s' % (col['title'], kind))
            got = tags(lines)
            assert len(got) == len(want) and all(
                g == w + ')' or g.startswith(w + ':') or g.startswith(w + ',')
                for g, w in zip(got, want)), '%s %s: tags %s, want %s' % (
                prog, heading, got, [w + ')' for w in want])


@check
def overview_lists_every_program_and_the_common_options():
    by_name, order = sections(OVERVIEW)
    for s in ('NAME', 'DESCRIPTION', 'FORMATS', 'PROGRAMS', 'COMMON OPTIONS',
              'TRACE COMPASS', 'EXIT STATUS', 'ENVIRONMENT', 'FILES', 'SEE ALSO'):
        assert s in order, (s, order)
    programs = [t.split('(')[0] for t in tags(by_name.get('PROGRAMS', []))]
    assert sorted(programs) == PROGRAMS, programs
    see_also = ' '.join(map(text, by_name['SEE ALSO']))
    for prog in PROGRAMS:
        assert prog + '(1)' in see_also, prog
    # the options every analysis shares: its --help "LAMI options" block
    documented = set()
    for tag in tags(by_name.get('COMMON OPTIONS', [])):
        documented |= option_names(tag)
    for prog in ANALYSES:
        out = ok(['./' + prog, '--help'])
        block = out[out.index('LAMI options:'):].split('\n\n')[0]
        common = set()
        for line in block.splitlines()[1:]:
            common |= option_names(re.split(r'\s{2,}', line.strip())[0])
        assert common == documented, '%s: help only: %s; spaa-tools(7) only: %s' % (
            prog, sorted(common - documented), sorted(documented - common))


finish()

#!/bin/sh
# tracecompass-descriptor.sh - the Trace Compass descriptor of one analysis.
#
# usage: tools/tracecompass-descriptor.sh --file-name analyses/NAME.c
#        tools/tracecompass-descriptor.sh analyses/NAME.c BINDIR
#
# The first form prints the descriptor's file name, the second its content:
# a Java properties file with the two keys Trace Compass's LAMI plugin reads
# from each file of its user-defined-configs directory
# (LamiAnalysisFactoryFromConfigFile): "name", the analysis' title as its
# --metadata says it, and "command", the absolute path of the installed
# program BINDIR/spaa-NAME.
#
# The file name is the one Trace Compass itself gives a descriptor made in
# its "Add External Analysis" dialog (LamiConfigUtils: runs of white space
# become "-", then everything but [A-Za-z0-9_] is dropped, the "-" too,
# plus ".properties"), because "Remove External Analysis" deletes the file of
# that name: a copied descriptor named otherwise would come back at the
# next start.
#
# Escaping: Trace Compass splits the command on spaces, with double quotes
# grouping and \\ and \" as the only escapes (ShellUtils), and
# Properties.load reads ISO-8859-1 with \ as its escape, so a path with a
# space, a quote or a backslash is quoted and escaped for both; a path with
# bytes outside ASCII is refused rather than written wrong.

set -eu

usage() {
	echo "usage: $0 --file-name analyses/NAME.c | analyses/NAME.c BINDIR" >&2
	exit 2
}

# title SRC: the .title of the analysis descriptor in SRC.
title() {
	t=$(sed -n 's/^[[:space:]]*\.title = "\(.*\)",$/\1/p' "$1")
	if [ -z "$t" ] || [ "$(printf '%s\n' "$t" | wc -l)" -ne 1 ]; then
		echo "$0: no single '.title = \"...\",' line in $1" >&2
		exit 1
	fi
	printf '%s\n' "$t"
}

[ $# -eq 2 ] || usage
if [ "$1" = --file-name ]; then
	printf '%s.properties\n' "$(title "$2" | tr -cd 'A-Za-z0-9_')"
	exit 0
fi

name=$(title "$1")
cmd=$2/spaa-$(basename "$1" .c)
case $cmd in
/*) ;;
*) echo "$0: BINDIR must be absolute: $2" >&2; exit 1 ;;
esac
if printf '%s%s' "$name" "$cmd" | LC_ALL=C grep -q '[^ -~]'; then
	echo "$0: '$cmd' or '$name' has characters outside printable ASCII" >&2
	exit 1
fi
case $cmd in
*[\ \"\\]*)
	cmd=\"$(printf '%s' "$cmd" | sed 's/[\\"]/\\&/g')\" ;;
esac
echo "# Trace Compass external analysis (LAMI): copy into"
echo "# WORKSPACE/.metadata/.plugins/org.eclipse.tracecompass.analysis.lami.core/user-defined-configs/"
echo "# See spaa-tools(7)."
printf 'name=%s\n' "$name"
printf 'command=%s\n' "$(printf '%s' "$cmd" | sed 's/\\/\\\\/g')"

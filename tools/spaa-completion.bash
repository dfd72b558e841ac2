# Bash completion for the spaa-tools programs.
#
# make install puts this file in share/bash-completion/completions/ once
# under each program's name, where bash-completion loads it the first time
# that program is completed.  Sourcing it by hand works too.
#
# The options come from the program's own --help each time, so they never
# go stale: every help line that starts with "-" lists options, then maybe
# a value placeholder ("--limit N", "-o, --output OUT").  A placeholder with
# "|" lists the values to offer ("--normalize auto|share|none"), and so
# does the usage text's "[--to spaa|folded]".  Input paths (the positional
# arguments, PATH, PROFILE, ...) complete to directories and to files with
# the extensions the program reads, output files (OUT, FILE) to any file.

# _spaa_tools_help PROG: PROG --help, or nothing when PROG does not run.
_spaa_tools_help()
{
	"$1" --help 2>/dev/null </dev/null
}

# _spaa_tools_files GLOB...: directories, and files matching a GLOB.
_spaa_tools_files()
{
	local cur=$1 f g
	shift
	compopt -o filenames 2>/dev/null
	while IFS= read -r f; do
		if [[ -d $f ]]; then
			COMPREPLY+=("$f")
			continue
		fi
		for g in "$@"; do
			# shellcheck disable=SC2053
			if [[ $f == $g ]]; then
				COMPREPLY+=("$f")
				break
			fi
		done
	done < <(compgen -f -- "$cur")
}

# _spaa_tools_paths PROG CUR: the paths PROG reads.
_spaa_tools_paths()
{
	case ${1##*/} in
	spaa-convert)
		_spaa_tools_files "$2" '*' ;;
	spaa-validate)
		_spaa_tools_files "$2" '*.spaa' '*.spaa.gz' '*.spaa.zst' ;;
	spaa-tracecompass-setup)
		;;
	*)
		_spaa_tools_files "$2" '*.spaa' '*.spaa.gz' '*.spaa.zst' \
			'*.json' '*.txt.gz' ;;
	esac
}

_spaa_tools()
{
	local prog=$1 cur=${COMP_WORDS[COMP_CWORD]} prev=''
	local line spec word words opts=() takes='' values=''
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# "--opt=VALUE" completes VALUE as "--opt VALUE" does.  Bash splits
	# it into "--opt" "=" "VALUE" (= is in COMP_WORDBREAKS); a caller
	# that does not may pass "--opt=VALUE" whole.
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi

	local re='\[(-[A-Za-z-]+) ([^] ]*[|][^] ]*)\]' rest choices=''
	while IFS= read -r line; do
		# the usage lines may list the values, "[--to spaa|folded]"
		rest=$line
		while [[ $rest =~ $re ]]; do
			[[ ${BASH_REMATCH[1]} == "$prev" ]] && choices=${BASH_REMATCH[2]}
			rest=${rest#*"${BASH_REMATCH[0]}"}
		done
		[[ $line =~ ^[[:space:]]+-[A-Za-z-] ]] || continue
		spec=${line#"${line%%[![:space:]]*}"}
		spec=${spec%%  *}
		read -ra words <<<"${spec//,/ }"
		for word in "${words[@]}"; do
			if [[ $word == -* ]]; then
				opts+=("$word")
				[[ $word == "$prev" ]] && takes=yes
			elif [[ $takes == yes ]]; then
				values=$word
				takes=placeholder
			fi
		done
		[[ $takes == yes ]] && takes=flag
		[[ $takes == placeholder ]] && break
	done < <(_spaa_tools_help "$prog")

	if [[ $takes == placeholder ]]; then
		[[ $values == *'|'* ]] || values=${choices:-$values}
		case $values in
		*'|'*)
			mapfile -t COMPREPLY < <(compgen -W "${values//|/ }" -- "$cur") ;;
		PATH | PROFILE | BASELINE | TARGET | INPUT)
			_spaa_tools_paths "$prog" "$cur" ;;
		OUT | FILE)
			_spaa_tools_files "$cur" '*' ;;
		DIR)
			mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
		esac
		return 0
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "${opts[*]}" -- "$cur")
		return 0
	fi
	_spaa_tools_paths "$prog" "$cur"
}

complete -F _spaa_tools spaa-hotspots spaa-allocs spaa-phases spaa-diff \
	spaa-convert spaa-validate spaa-report spaa-tracecompass-setup

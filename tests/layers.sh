#!/usr/bin/env bash
# The layer rule of common/ (common/README.md): a file of a layer includes
# headers of its own layer and of the layers below it, never above:
#   model < io < formats < analysis < report
# Programs (analyses/, tools/) may include any layer.  Prints each
# violation as FILE:LINE: and exits 1 when there is one.
set -u
cd "$(dirname "$0")/.."
layers=(model io formats analysis report)
rank() {
	local i
	for i in "${!layers[@]}"; do
		[ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }
	done
	echo -1
}
status=0
n=0
for l in "${layers[@]}"; do
	for f in common/"$l"/*.[ch]; do
		n=$((n + 1))
		while IFS=: read -r line inc; do
			to=${inc#*\"}; to=${to%%/*}
			if [ "$(rank "$to")" -lt 0 ]; then
				echo "$f:$line: includes \"${inc#*\"} outside the layers"
				status=1
			elif [ "$(rank "$to")" -gt "$(rank "$l")" ]; then
				echo "$f:$line: layer $l includes ${inc#*\"} (layer $to, above it)"
				status=1
			fi
		done < <(grep -n '^#include "' "$f")
	done
done
[ $status = 0 ] && echo "layers: $n files of common/ include only their own and lower layers"
exit $status

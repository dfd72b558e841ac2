#!/bin/sh
# screenshots.sh - the pictures of the README tour, in docs/ (make screenshots).
#
# The recording the tour converts (tests/data/convert_cwork_baseline...):
# its phases picture (spaa-phases --svg) and the HTML page of its hotspots
# with the flame graph (--format html --svg) and its spaa-report page,
# each shot by headless Chromium from a file, the network disabled.  Look
# at them before committing them.
set -eu

out=${1:-docs}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

top=$(pwd)
./spaa-convert -o "$work/run.spaa.zst" tests/data/convert_cwork_baseline.perf-script.txt.gz
# in the scratch directory, so that the pictures name run.spaa.zst alone
(
	cd "$work"
	"$top/spaa-phases" --svg timeline.svg --format text run.spaa.zst >/dev/null
	"$top/spaa-hotspots" --format html --limit 6 --svg flame.svg --svg-width 1100 \
		run.spaa.zst >hotspots.html
	"$top/spaa-report" --rows 6 -o report.html run.spaa.zst
)

# shot FILE WIDTH HEIGHT PNG
shot() {
	chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--host-resolver-rules='MAP * ~NOTFOUND' --proxy-server=127.0.0.1:9 \
		--user-data-dir="$work/profile" --window-size="$2,$3" \
		--screenshot="$4" "file://$1" >/dev/null 2>&1
	test -s "$4"
}

height=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' "$work/timeline.svg" | head -n 1)
shot "$work/timeline.svg" 1200 "$height" "$out/phases.png"
shot "$work/hotspots.html" 1200 1100 "$out/hotspots-html.png"
shot "$work/report.html" 1300 1300 "$out/report.png"
echo "screenshots: $out/phases.png $out/hotspots-html.png $out/report.png"

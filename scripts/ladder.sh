#!/bin/sh
# The strength ladder of docs/strength.md: one match at a time, at low priority.
# Usage: scripts/ladder.sh BINARY OUTDIR [GAMES]
# Each match's result is written to OUTDIR/<a>-<b>.txt (progress in .log).
set -eu
bin=$1
out=$2
games=${3:-200}
mkdir -p "$out"
run() {
    name="$1-$2"
    [ -s "$out/$name.txt" ] && return 0
    nice -n 10 "$bin" match --games "$games" --seed 1 "$@" >"$out/$name.tmp" 2>"$out/$name.log"
    mv "$out/$name.tmp" "$out/$name.txt"
}
# The top level against plain UCT at the same think time (100 ms: see strength.md).
run ms100 uct-ms100
# Each level against the previous one.
run level2 level1
run level3 level2
run level4 level3
# Each level against the baselines.
for l in level1 level2 level3 level4; do
    run $l random
    run $l greedy
done
# The top level (at 100 ms a turn) against level 4 and the baselines.
run ms100 level4
run ms100 greedy
run ms100 random

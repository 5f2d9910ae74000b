#!/bin/sh
# Win rates of random and Rule of 28 against GA under both rule sets, 10,000 matches each
# (seats alternate), one process. Run from the repository root; writes the JSON next to this file.
set -e
out=experiments/results/cantstop-reference-rules
for rules in paper reference; do
  for p0 in random rule28; do
    nice stratsynth play cantstop --p0 $p0 --p1 ga -n 10000 --seed 0 --workers 1 \
      --game-param rules=$rules --json > $out/${p0}-vs-ga-rules-$rules.json
  done
done

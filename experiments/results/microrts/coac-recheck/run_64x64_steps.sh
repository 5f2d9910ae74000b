#!/bin/sh
# The start and the SA program on the way to the committed 64x64 base rush, each against COAC at
# seeds 0-4, 20 matches each (10 per seat). Run from the repository root.
D=experiments/results/microrts/coac-synthesis
OUT=experiments/results/microrts/coac-recheck/64x64-steps.jsonl
for f in $D/64x64-mosthealthy-start.txt $D/64x64-mosthealthy-round1-best.txt; do
  for seed in 0 1 2 3 4; do
    stratsynth play microrts --map 64x64 --p0 program:$f --p1 coac -n 20 --seed $seed \
      --workers 2 --json | tail -1 >> $OUT
  done
done

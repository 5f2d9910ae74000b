#!/bin/sh
# COAC re-checks of the committed programs: 5 seeds x 20 matches (10 per seat) per map,
# and the 10-match check on 32x32 and 64x64. Run from the repository root.
R=experiments/results/microrts/coac-recheck
P=experiments/programs
for pair in 16x16:microrts_coac_16x16 24x24:microrts_coac_24x24 \
            32x32:microrts_coac_32x32_base_rush 64x64:microrts_coac_64x64_base_rush; do
  map=${pair%%:*}; prog=${pair##*:}
  for seed in 0 1 2 3 4; do
    stratsynth play microrts --map $map --p0 program:$P/$prog.txt --p1 coac -n 20 \
      --seed $seed --workers 2 --json | tail -1 >> $R/recheck-20-matches.jsonl
  done
  case $map in 32x32|64x64)
    stratsynth play microrts --map $map --p0 program:$P/$prog.txt --p1 coac -n 10 --seed 0 \
      --json | tail -1 >> $R/must-show-10-matches.jsonl;;
  esac
done

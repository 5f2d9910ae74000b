#!/usr/bin/env bash
# microRTS 24x24 (seed 001): HSS-IBR, HSS-FP, SA-IBR and SA-FP with the same budget
# (ITERATIONS oracle calls of EVALUATIONS evaluations, 2 matches each, one per start),
# then a round robin with COAC, Mayari, the four rushes and RandomBiased.
# Usage: experiments/studies/microrts_selfplay.sh [OUT] [SEED]
set -euo pipefail
OUT=${1:-experiments/results/microrts/selfplay-24x24}
SEED=${SEED:-${2:-1}}
ITERATIONS=${ITERATIONS:-3}
EVALUATIONS=${EVALUATIONS:-25}
WORKERS=${WORKERS:-1}
# The committed results were measured on the competition unit type table.
UTT=${UTT:-finetuned}
S=${STRATSYNTH:-.venv/bin/stratsynth}
FEATURES=produced_Worker,produced_Light,produced_Heavy,produced_Ranged,produced_Base,produced_Barracks,resources
for oracle in hss sa; do
  for driver in ibr fp; do
    "$S" selfplay microrts --game-param map=24x24 --game-param utt="$UTT" --driver $driver --oracle $oracle \
      --features $FEATURES --iterations "$ITERATIONS" --evaluations "$EVALUATIONS" \
      --matches 2 --seed "$SEED" --workers "$WORKERS" --out "$OUT/$oracle-$driver"
  done
done
last=program$ITERATIONS.txt
"$S" tournament microrts --game-param map=24x24 --game-param utt="$UTT" -n 2 --workers "$WORKERS" \
  --players "program:$OUT/hss-ibr/$last,program:$OUT/hss-fp/$last,program:$OUT/sa-ibr/$last,program:$OUT/sa-fp/$last,coac,mayari,workerrush,lightrush,rangedrush,heavyrush,randombiased" \
  --names HSS-IBR,HSS-FP,SA-IBR,SA-FP,COAC,Mayari,WorkerRush,LightRush,RangedRush,HeavyRush,RandomBiased \
  --out "$OUT/tournament"

#!/bin/sh
# Published and committed microRTS programs against COAC as built from
# rubensolv/LocalLearnerIJCAI (engine and COAC from that project's sources; see
# docs/microrts.md, "Another engine build"), 10 matches each (5 per seat), seed 0,
# table `original`. Needs the jar: STRATSYNTH_MICRORTS_CLASSPATH=/path/locallearner-engine.jar.
# Run from the repository root: sh experiments/results/microrts-coac/run.sh
set -e
: "${STRATSYNTH_MICRORTS_CLASSPATH:?set it to the LocalLearnerIJCAI engine jar}"
export STRATSYNTH_MICRORTS_CLASSPATH
OUT=experiments/results/microrts-coac/matches.jsonl
COAC=java:ai.competition.COAC.CoacAI
play() {
    nice -n 10 python -m experiments.cli play microrts --map "$1" --p0 "program:$2" --p1 "$3" \
        -n 10 --seed 0 --workers 0 --json >> "$OUT"
}
for map in 16x16 24x24 32x32 64x64; do
    play $map experiments/programs/seed000_sketch_sa_o_$map.txt $COAC
done
play 16x16 experiments/programs/microrts_coac_16x16.txt $COAC
play 24x24 experiments/programs/microrts_coac_24x24.txt $COAC
play 32x32 experiments/programs/microrts_coac_32x32_base_rush.txt $COAC
play 64x64 experiments/programs/microrts_coac_64x64_base_rush.txt $COAC

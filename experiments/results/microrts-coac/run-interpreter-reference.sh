#!/bin/sh
# The sketch-learning paper's published programs against COAC as built from
# rubensolv/LocalLearnerIJCAI, with game parameter interpreter=reference (the reference
# interpreter's moveToUnit and blocked build; docs/microrts.md), 10 matches each
# (5 per seat), seed 0, table `original`. Needs the jar:
# STRATSYNTH_MICRORTS_CLASSPATH=/path/locallearner-engine.jar.
# Run from the repository root: sh experiments/results/microrts-coac/run-interpreter-reference.sh
set -e
: "${STRATSYNTH_MICRORTS_CLASSPATH:?set it to the LocalLearnerIJCAI engine jar}"
export STRATSYNTH_MICRORTS_CLASSPATH
OUT=experiments/results/microrts-coac/interpreter-reference.jsonl
COAC=java:ai.competition.COAC.CoacAI
for map in ${MAPS:-16x16 24x24 32x32 64x64}; do
    nice -n 10 python -m experiments.cli play microrts --game-param interpreter=reference \
        --map $map --p0 program:experiments/programs/seed000_sketch_sa_o_$map.txt \
        --p1 $COAC -n 10 --seed 0 --workers 1 --json >> "$OUT"
done

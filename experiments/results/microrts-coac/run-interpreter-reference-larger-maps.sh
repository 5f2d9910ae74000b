#!/bin/sh
# The sketch-learning paper's published programs against COAC as built from
# rubensolv/LocalLearnerIJCAI, game parameter interpreter=reference (with the direction,
# build-reservation and Train meanings of the reference; docs/microrts.md), table
# `original`, 20 matches each (10 per seat) on 64x64 and 32x32 at seeds 0 and 1, and 10
# on 24x24 at seed 0. Needs the jar: STRATSYNTH_MICRORTS_CLASSPATH=/path/locallearner-engine.jar.
# The reference interpreter's rows of interpreter-reference-larger-maps.jsonl
# (java:scratch.RefProgram) come from the same command with --p0 java:scratch.RefProgram
# and that project's DSL interpreter on the class path (README.md, "The same published
# programs in the reference interpreter"). Each line of the file also names its seed.
# Run from the repository root: sh experiments/results/microrts-coac/run-interpreter-reference-larger-maps.sh
set -e
: "${STRATSYNTH_MICRORTS_CLASSPATH:?set it to the LocalLearnerIJCAI engine jar}"
export STRATSYNTH_MICRORTS_CLASSPATH
OUT=experiments/results/microrts-coac/interpreter-reference-larger-maps.jsonl
COAC=java:ai.competition.COAC.CoacAI
for job in "64x64 0 20" "64x64 1 20" "32x32 0 20" "32x32 1 20" "24x24 0 10"; do
    set -- $job
    nice -n 10 python -m experiments.cli play microrts --game-param interpreter=reference \
        --map $1 --p0 program:experiments/programs/seed000_sketch_sa_o_$1.txt \
        --p1 $COAC -n $3 --seed $2 --workers 1 --json | tail -1 >> "$OUT"
done

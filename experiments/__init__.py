"""The ``stratsynth`` command line, experiment runners, reports and benchmarks."""

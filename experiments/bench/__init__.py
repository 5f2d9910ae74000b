"""Benchmarks: scripts that print figures. They assert nothing; tests do that."""

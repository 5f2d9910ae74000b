"""Minimax-regret experiments of seed 004: learners against an optimal opponent."""

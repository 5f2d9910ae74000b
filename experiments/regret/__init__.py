"""Minimax-regret experiments of the MIGO paper: learners against an optimal opponent."""

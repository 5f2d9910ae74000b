"""Program machinery: DSLs as DEAP typed primitive sets and the synthesizers.

Filled by the synthesis issue (SA, UCT, GP, sketch learning, fitness plug-ins).
"""

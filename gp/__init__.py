"""Program machinery: languages as DEAP typed primitive sets, the evaluator, metrics and
the synthesis methods (SA, UCT, GP, sketch learning) behind one registry."""

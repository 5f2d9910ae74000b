"""The games' languages: a module or package per game, each a ``gp.dsl.DSL`` plus the
``ProgramPlayer`` that runs its programs, and the lowerings that compile its
programs for a game's fast engines (Can't Stop: ``gp.languages.cantstop``). A game
names its languages in its ``SynthesisSpec``
(``languages={"name": "gp.languages.module:StrategyClass"}``)."""

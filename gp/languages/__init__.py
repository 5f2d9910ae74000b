"""The games' languages: one module per DSL, each a ``gp.dsl.DSL`` plus the
``ProgramPlayer`` that runs its programs. A game names its languages in its
``GameSpec`` (``languages={"name": "gp.languages.module:StrategyClass"}``)."""

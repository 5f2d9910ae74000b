"""A user fitness module that fails as it loads (tests of the fitness loader)."""

raise RuntimeError("needs a GPU")

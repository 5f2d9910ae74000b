"""Old path of ``gp.languages.cantstop.paper_arrays``, kept so that committed programs,
configs and pickles that name it still load: the same module object."""

import importlib
import sys

sys.modules[__name__] = importlib.import_module("gp.languages.cantstop.paper_arrays")

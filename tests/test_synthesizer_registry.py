"""The synthesizer seam: the registry, entry-point plug-ins and settings validation."""

import random
from dataclasses import dataclass, field
from importlib import metadata
from typing import Literal

import pytest

from gp import synthesis
from gp.evaluator import Budget, Evaluator
from gp.languages.cantstop import CANTSTOP_DSL
from gp.synthesis import (
    Synthesizer,
    SynthesizerSettings,
    register_synthesizer,
    settings_from,
    settings_to_dict,
    synthesizer_class,
    synthesizer_names,
)

BUILTINS = ["sa", "uct", "gp", "gp-simple", "sketch-sa", "sketch-uct", "hc"]


def test_every_builtin_method_is_registered_with_a_summary_and_settings():
    assert synthesizer_names()[:7] == BUILTINS
    for name in BUILTINS:
        cls = synthesizer_class(name)
        assert cls.name == name and cls.summary
        assert settings_to_dict(cls.Settings()) == settings_to_dict(
            settings_from(cls, {}, where="x"))


def test_an_unknown_method_names_the_known_ones():
    with pytest.raises(ValueError, match=r"method 'annealing' unknown \(known: sa, uct, gp"):
        synthesizer_class("annealing")


def test_settings_are_type_and_range_checked_with_one_line_errors():
    gp = synthesizer_class("gp")
    assert settings_from(gp, {"population": 6, "cxpb": 0}, where="w").cxpb == 0.0
    for values, message in [
        ({"population": 1}, "population must be >= 2, got 1"),
        ({"population": "6"}, "population must be a whole number"),
        ({"population": True}, "population must be a whole number"),
        ({"cxpb": 0.8, "mutpb": 0.3}, "cxpb + mutpb must be <= 1"),
        ({"tournament": 2.5}, "tournament must be a whole number"),
    ]:
        with pytest.raises(ValueError) as err:
            settings_from(gp, values, where="run.toml")
        text = str(err.value)
        assert text.startswith("run.toml: method gp") and message in text and "\n" not in text
    sketch = synthesizer_class("sketch-sa")
    with pytest.raises(ValueError, match="sketch_schedule must be one of text, reference"):
        settings_from(sketch, {"sketch_schedule": "paper"}, where="w")
    with pytest.raises(ValueError, match="sketch_share must be <= 1"):
        settings_from(sketch, {"sketch_share": 2}, where="w")


def test_a_setting_of_another_method_is_an_error_but_old_unused_keys_are_not():
    sa = synthesizer_class("sa")
    with pytest.raises(ValueError, match="w: method sa has no setting population "
                                         r"\(its settings: neighbourhood, remeasure_restarts, "
                                         r"restart_random, semantic_epsilon\)"):
        settings_from(sa, {"population": 20}, where="w")
    with pytest.raises(ValueError, match="method sa has no setting rollout_evaluations"):
        settings_from(sa, {"rollout_evaluations": 4}, where="w")
    with pytest.raises(ValueError, match="method sa has no setting colour"):
        settings_from(sa, {"colour": None}, where="w")
    # what configs written before per-method settings hold for every method
    old = {"population": None, "sketch_share": None, "rollout_evaluations": None,
           "sketch_schedule": "text", "remeasure_restarts": False, "restart_random": False}
    assert settings_from(sa, old, where="w") == sa.Settings()
    assert settings_from(synthesizer_class("gp"), {**old, "population": 8},
                         where="w").population == 8
    with pytest.raises(ValueError, match="method gp has no setting sketch_schedule"):
        settings_from(synthesizer_class("gp"), {"sketch_schedule": "reference"}, where="w")


def test_settings_round_trip_through_their_dict():
    cls = synthesizer_class("sketch-sa")
    settings = settings_from(cls, {"sketch_share": 0.25, "sketch_schedule": "reference",
                                   "remeasure_restarts": True}, where="w")
    assert settings_from(cls, settings_to_dict(settings), where="w") == settings
    assert settings_to_dict(settings) == {"sketch_share": 0.25, "sketch_schedule": "reference",
                                          "remeasure_restarts": True}


def test_methods_ask_for_the_metrics_their_settings_need():
    assert synthesizer_class("sa").metrics(synthesizer_class("sa").Settings()) == frozenset()
    sa = synthesizer_class("sa")
    assert sa.metrics(sa.Settings(remeasure_restarts=True)) == {"psi-fresh"}
    sketch = synthesizer_class("sketch-uct")
    assert sketch.metrics(sketch.Settings()) == {"c"}


def test_a_settings_class_must_declare_defaults_help_and_simple_types():
    @dataclass(frozen=True, kw_only=True)
    class NoHelp(SynthesizerSettings):
        steps: int = 3

    class Bad(Synthesizer):
        name, summary, Settings = "bad-no-help", "x", NoHelp

        def run(self):
            pass

    with pytest.raises(TypeError, match="setting steps needs metadata"):
        register_synthesizer(Bad)

    @dataclass(frozen=True, kw_only=True)
    class ListSetting(SynthesizerSettings):
        steps: list = field(default_factory=list, metadata={"help": "h"})

    Bad.Settings = ListSetting
    with pytest.raises(TypeError, match="a setting is an int, float, bool, str or Literal"):
        register_synthesizer(Bad)
    assert "bad-no-help" not in synthesizer_names()


@dataclass(frozen=True, kw_only=True)
class WalkSettings(SynthesizerSettings):
    steps: int = field(default=5, metadata={"help": "programs to score", "minimum": 1})
    mode: Literal["random", "first"] = field(default="random", metadata={"help": "h"})


class RandomWalk(Synthesizer):
    """A method registered from a test: scores ``steps`` random programs."""

    name = "test-random-walk"
    summary = "random programs"
    Settings = WalkSettings

    def run(self):
        for _ in range(self.settings.steps):
            self.evaluator.score(self.language.random_program(self.rng))


class _EntryPoints:
    """Stands in for ``importlib.metadata.entry_points`` with a few plug-ins."""

    def __init__(self, entries):
        self.entries = [metadata.EntryPoint(name, value, synthesis.ENTRY_POINT_GROUP)
                        for name, value in entries]

    def __call__(self, group):
        return self.entries if group == synthesis.ENTRY_POINT_GROUP else []


def test_plug_ins_load_by_entry_point_and_a_broken_one_fails_alone(monkeypatch):
    monkeypatch.setattr(metadata, "entry_points", _EntryPoints([
        ("test-random-walk", f"{__name__}:RandomWalk"),
        ("broken", "tests.no_such_module_here:Method"),
        ("not-a-method", "random:Random"),
    ]))
    monkeypatch.delitem(synthesis._REGISTRY, "test-random-walk", raising=False)
    names = synthesizer_names()  # imports no plug-in
    assert names[:7] == BUILTINS and {"test-random-walk", "broken", "not-a-method"} <= set(names)
    with pytest.raises(ValueError) as err:
        synthesizer_class("broken")
    assert "method 'broken' (plug-in tests.no_such_module_here:Method) cannot be loaded: " \
        "ModuleNotFoundError" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match="is not a Synthesizer class named 'not-a-method'"):
        synthesizer_class("not-a-method")
    cls = synthesizer_class("test-random-walk")
    assert cls is RandomWalk and synthesizer_class("sa").name == "sa"
    settings = settings_from(cls, {"steps": 3}, where="w")
    ev = Evaluator({"psi": lambda tree: float(len(tree))}, CANTSTOP_DSL.to_text,
                   Budget(evaluations=10))
    cls(language=CANTSTOP_DSL, evaluator=ev, rng=random.Random(1), settings=settings).run()
    assert ev.budget.used == 3
    synthesis._REGISTRY.pop("test-random-walk")


def test_a_method_refuses_another_methods_settings():
    sa = synthesizer_class("sa")
    with pytest.raises(TypeError, match="method sa takes SASettings, got UCTSettings"):
        sa(language=CANTSTOP_DSL, evaluator=None, rng=random.Random(0),
           settings=synthesizer_class("uct").Settings())


@pytest.mark.parametrize("argv, message", [
    (["--method", "sa", "--population", "6"], "method sa has no setting population"),
    (["--method", "sa", "--rollout-evaluations", "4"],
     "method sa has no setting rollout_evaluations"),
    (["--method", "uct", "--remeasure-restarts"], "method uct has no setting remeasure_restarts"),
])
def test_a_setting_given_to_a_method_without_it_stops_the_run_before_it_starts(
        tmp_path, capsys, argv, message):
    from experiments.cli import main

    out = tmp_path / "run"
    assert main(["synth", "cantstop", "--evaluations", "5", "--workers", "1", "--quiet",
                 "--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not out.exists()

"""The one plug-in registry (``gp.registry``) behind methods, neighbourhoods, self-play
drivers and resampling policies: names, entry points, broken and wrong plug-ins."""

from __future__ import annotations

from importlib import metadata

import pytest

from gp.neighbourhoods import SyntacticNeighbourhood, neighbourhood_factory, neighbourhood_names
from gp.registry import Registry
from qd.resampling import RESAMPLINGS, Resampling, resampling_class, resampling_names


class _EntryPoints:
    """Stands in for ``importlib.metadata.entry_points``: ``group -> [(name, value)]``."""

    def __init__(self, groups):
        self.groups = {group: [metadata.EntryPoint(name, value, group) for name, value in pairs]
                       for group, pairs in groups.items()}

    def __call__(self, group):
        return self.groups.get(group, [])


class Lucky(Resampling):
    name = "test-lucky"
    summary = "one evaluation, like plain"


def test_neighbourhood_plug_ins_are_listed_after_the_built_ins_and_load_by_entry_point(
        monkeypatch):
    monkeypatch.setattr(metadata, "entry_points", _EntryPoints({"stratsynth.neighbourhoods": [
        ("test-regrow", "gp.neighbourhoods:SyntacticNeighbourhood"),
        ("broken", "tests.no_such_module_here:factory"),
        ("not-callable", "gp.neighbourhoods:ENTRY_POINT_GROUP")]}))
    assert neighbourhood_names() == ["syntactic", "semantic", "broken", "not-callable",
                                     "test-regrow"]
    assert neighbourhood_factory("test-regrow") is SyntacticNeighbourhood
    assert neighbourhood_factory("semantic").__name__ == "SemanticNeighbourhood"
    with pytest.raises(ValueError) as err:
        neighbourhood_factory("broken")
    assert str(err.value).startswith("neighbourhood 'broken' (plug-in tests.no_such_module_here:"
                                     "factory) cannot be loaded: ModuleNotFoundError")
    with pytest.raises(ValueError, match="'not-callable' .* is not callable"):
        neighbourhood_factory("not-callable")
    with pytest.raises(ValueError, match=r"neighbourhood 'tabu' unknown \(known: syntactic, "
                                         "semantic, broken, not-callable, test-regrow\\)"):
        neighbourhood_factory("tabu")


def test_a_resampling_plug_in_is_registered_under_its_name_once_loaded(monkeypatch):
    monkeypatch.setattr(metadata, "entry_points", _EntryPoints({"stratsynth.qd_resampling": [
        ("test-lucky", f"{__name__}:Lucky"), ("misnamed", f"{__name__}:Lucky")]}))
    try:
        assert resampling_names() == ["plain", "adaptive", "misnamed", "test-lucky"]
        assert resampling_class("test-lucky") is Lucky
        with pytest.raises(ValueError, match="is not a Resampling class named 'misnamed'"):
            resampling_class("misnamed")
    finally:
        RESAMPLINGS.entries.pop("test-lucky", None)


def test_a_second_class_under_a_taken_name_is_refused_and_the_same_class_again_is_not():
    registry: Registry[type[Resampling]] = Registry(noun="policy", group="none",
                                                    base=Resampling)
    registry.register(Lucky)
    registry.register(Lucky)
    other = type("Lucky", (Resampling,), {"name": "test-lucky", "__module__": "elsewhere"})
    with pytest.raises(ValueError, match="policy 'test-lucky' is registered twice "
                                         f"\\({__name__}.Lucky and elsewhere.Lucky\\)"):
        registry.register(other)
    assert registry.names() == ["test-lucky"] and registry.get("test-lucky") is Lucky

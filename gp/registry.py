"""Plug-ins found by name: one registry per kind (synthesizers, neighbourhoods,
self-play drivers, resampling policies).

A registry knows the plug-ins registered in this process (the built-ins register
when ``builtin_modules`` are imported, on first use), the built-ins named by a
``module:attribute`` reference (imported only when asked for), and then the
entry-point group of installed packages (entry name = plug-in name, value
``package.module:attribute`` or ``package.module``). Listing names imports no
plug-in; a plug-in that fails to import fails alone, with its one-line cause.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """The plug-ins of one kind, by name.

    Args:
        noun: what a plug-in is called in messages ("method", "self-play driver").
        group: the entry-point group installed plug-ins declare themselves in.
        base: the class every plug-in derives from (with a ``name`` equal to its
            registered name), or None: a plug-in is any callable (a factory), kept
            as loaded.
        builtin_modules: modules whose import registers the built-ins; names list
            them in this order, whatever was imported first.
        builtin_refs: built-in name -> ``module:attribute`` of the plug-in,
            imported when the plug-in is asked for (listed first, in this order).
        check: called with a class before it is registered; raises ``TypeError``
            (one line) for a class that cannot serve.
        registered_noun: the noun of the "registered twice" message (default ``noun``).
    """

    def __init__(self, *, noun: str, group: str, base: type | None = None,
                 builtin_modules: Sequence[str] = (),
                 builtin_refs: Mapping[str, str] | None = None,
                 check: Callable[[Any], None] | None = None,
                 registered_noun: str | None = None) -> None:
        self.noun = noun
        self.group = group
        self.base = base
        self.builtin_modules = tuple(builtin_modules)
        self.builtin_refs = dict(builtin_refs or {})
        self.check = check
        self.registered_noun = registered_noun or noun
        self.entries: dict[str, T] = {}
        self._builtins_loaded = False

    def register(self, item: T, name: str | None = None) -> T:
        """Make ``item`` known as ``name`` (default: its ``name`` attribute, once
        ``check`` passed it); ``ValueError`` if another class has the name (the same
        class imported twice, e.g. by a re-imported module, is not another)."""
        if self.check is not None:
            self.check(item)
        name = item.name if name is None else name  # type: ignore[attr-defined]
        known = self.entries.get(name)
        if known is not None and known is not item and _where(known) != _where(item):
            raise ValueError(f"{self.registered_noun} '{name}' is registered twice "
                             f"({'.'.join(_where(known))} and {'.'.join(_where(item))})")
        self.entries[name] = item
        return item

    def entry_points(self) -> dict[str, metadata.EntryPoint]:
        """The group's installed plug-ins by name (none imported)."""
        return {ep.name: ep for ep in metadata.entry_points(group=self.group)}

    def _load_builtins(self) -> None:
        if not self._builtins_loaded:
            self._builtins_loaded = True
            for module in self.builtin_modules:
                importlib.import_module(module)

    def names(self) -> list[str]:
        """Every name: built-ins first, then plug-ins registered or installed."""
        self._load_builtins()
        modules = self.builtin_modules

        def rank(name: str) -> int:
            module = getattr(self.entries[name], "__module__", None)
            return modules.index(module) if module in modules else len(modules)

        names = list(self.builtin_refs)
        names += sorted((n for n in self.entries if n not in self.builtin_refs), key=rank)
        names += sorted(n for n in self.entry_points() if n not in names)
        return names

    def get(self, name: str) -> T:
        """The plug-in called ``name``; ``ValueError`` naming the known ones if none is,
        or saying why an installed one cannot serve."""
        self._load_builtins()
        if name in self.entries:
            return self.entries[name]
        if name in self.builtin_refs:
            module, _, attribute = self.builtin_refs[name].partition(":")
            return getattr(importlib.import_module(module), attribute)
        entry = self.entry_points().get(name)
        if entry is None:
            raise ValueError(f"{self.noun} '{name}' unknown (known: {', '.join(self.names())})")
        where = f"{self.noun} '{name}' (plug-in {entry.value})"
        try:
            loaded = entry.load()
        except Exception as err:  # a broken plug-in fails alone
            cause = (str(err).strip().splitlines() or [""])[0]
            raise ValueError(f"{where} cannot be loaded: {type(err).__name__}: {cause}") \
                from None
        if self.base is None:
            if not callable(loaded):
                raise ValueError(f"{where} is not callable")
            return loaded
        if isinstance(loaded, types.ModuleType):
            loaded = self.entries.get(name)
        elif self._is_plugin(loaded) and self.entries.get(name) is not loaded:
            try:
                self.register(loaded)
            except (TypeError, ValueError) as err:
                raise ValueError(f"{where}: {err}") from None
        if not self._is_plugin(loaded) or getattr(loaded, "name", None) != name:
            raise ValueError(f"{where} is not a {self.base.__name__} class named '{name}'")
        return loaded

    def _is_plugin(self, item: Any) -> bool:
        return isinstance(item, type) and self.base is not None and issubclass(item, self.base)


def _where(item: Any) -> tuple[str, str]:
    return (getattr(item, "__module__", "?"), getattr(item, "__qualname__", repr(item)))

"""What a received run directory may make the tool do (``stratsynth resume``).

A run directory may come from someone else (a download, a colleague's results), so
its ``config.json`` is read as data, never as instructions. On resume the tool does
not import the module a config names as its fitness, connect to the dask scheduler it
names, or read its ``data``/``initial`` files (or the program files its ``target``
names) outside the run directory, unless the user names them on the command line
(``--fitness``, ``--scheduler``, ``--data``, ``--initial``, ``--target``) or passes
``--trust-config``, which says on stderr what it lets through. ``select``,
``qd-check`` and ``report`` play a saved run's target under the same rule
(``--target``, ``--trust-config``). A file kept in the run directory is read without
asking, found there wherever the command runs from. Settings the user
gives explicitly (the command line, a TOML config they run, the Python API's
arguments) are theirs and trusted.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True, kw_only=True)
class Consent:
    """What the user named on the command line for a run directory they resume.

    Args:
        fitness: the run's user fitness (``package.module:function``), named again:
            its module may be imported.
        target: the run's target, named again: the files its player specs name
            (``program:FILE``) may be read wherever they are.
        scheduler: a dask scheduler address to evaluate on (replaces the run's).
        data: the record file to read (replaces the run's ``data`` path).
        initial: the program file to read (replaces the run's ``initial`` path).
        trust_config: trust everything the run's ``config.json`` names.
    """

    fitness: str | None = None
    target: str | None = None
    scheduler: str | None = None
    data: str | None = None
    initial: str | None = None
    trust_config: bool = False


def inside(path: Path, directory: Path) -> bool:
    """Whether ``path`` (symbolic links followed) lies in ``directory``."""
    return path.resolve().is_relative_to(directory.resolve())


def _confined(value: str, run_dir: Path, *bases: Path) -> str | None:
    """The file a saved path names, if it lies in the run directory: the path as
    saved (relative to where the run was started), or relative to each of ``bases``
    and to the run directory."""
    path = Path(value)
    candidates = [path] if path.is_absolute() else [path, *(b / path for b in bases),
                                                    run_dir / path]
    for candidate in candidates:
        if candidate.is_file() and inside(candidate, run_dir):
            return str(candidate)
    return None


def locate_target(target: str | None, run_dir: Path,
                  *bases: Path) -> tuple[str | None, list[str]]:
    """A saved target with each file its player specs name (``PREFIX:FILE``) found in the
    run directory (``_confined``: a run may ship its opponent beside its config), and
    the files it names that lie outside it (an argument that names no file, e.g.
    ``mcts:500``, reads nothing)."""
    if not isinstance(target, str):
        return target, []  # not a target at all: loading the config says so
    specs, outside, moved = [], [], False
    for spec in target.split(","):
        prefix, sep, argument = spec.strip().partition(":")
        path, mark, options = argument.partition("?")
        names_file = bool(sep and path) and (
            prefix == "program" or Path(path).is_file()
            or any((b / path).is_file() for b in (*bases, run_dir)))
        found = _confined(path, run_dir, *bases) if names_file else None
        if found is not None and found != path:
            spec, moved = f"{prefix}:{found}{mark}{options}", True
        elif names_file and found is None:
            outside.append(path)
        specs.append(spec.strip())
    return (",".join(specs) if moved else target), outside


def admit_target(target: str | None, run_dir: Path, consent: Consent, where: str,
                 *bases: Path) -> tuple[str | None, list[str]]:
    """The target a saved run may play against: its files found in the run directory
    (``locate_target``); one that reads files outside it is refused unless the user
    named the target again or trusts the config. The target and what was let through."""
    if consent.target is not None and consent.target != target:
        raise ValueError(f"{where}: --target {consent.target} is not the run's target "
                         f"'{target}'")
    located, outside = locate_target(target, run_dir, *bases)
    if not outside or consent.target is not None:
        return located, []
    if not consent.trust_config:
        raise ValueError(f"{where}: target '{target}' reads {outside[0]}, outside the run "
                         f"directory; pass --target {target} if you trust it (or "
                         "--trust-config)")
    return located, [f"reads {', '.join(outside)} (target)"]


def say_trusted(where: str, trusted: list[str]) -> None:
    """What ``--trust-config`` let through, on stderr."""
    if trusted:
        print(f"{where}: trusted (--trust-config): {'; '.join(trusted)}", file=sys.stderr)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def admit(config: Any, run_dir: Path, consent: Consent, where: str) -> Any:
    """The synthesis config a received run directory may run with: what it names that
    would run code, connect out or read files elsewhere is refused in one line saying
    which flag allows it, unless ``consent`` allows it; paths the user names replace
    the saved ones."""
    from gp.metrics import BUILTIN_FITNESSES

    changes: dict[str, Any] = {}
    trusted: list[str] = []

    fitness = config.fitness
    if consent.fitness is not None and consent.fitness != fitness:
        raise ValueError(f"{where}: --fitness {consent.fitness} is not the run's fitness "
                         f"'{fitness}' (its log was scored by that one)")
    if fitness not in BUILTIN_FITNESSES and consent.fitness is None:
        if not consent.trust_config:
            raise ValueError(f"{where}: fitness '{fitness}' would import and run module "
                             f"{fitness.partition(':')[0]}; a run directory is not trusted "
                             f"to run code: pass --fitness {fitness} if you trust that "
                             "module (or --trust-config)")
        trusted.append(f"imports {fitness.partition(':')[0]} (fitness {fitness})")

    located, trusted_target = admit_target(config.target, run_dir, consent, where)
    trusted += trusted_target
    if located != config.target:
        changes["target"] = located

    if consent.scheduler is not None:
        changes.update(backend="dask", scheduler=consent.scheduler)
    elif config.backend == "dask" and config.scheduler:
        if not consent.trust_config:
            raise ValueError(f"{where}: the run evaluates on the dask scheduler "
                             f"{config.scheduler}; resume connects to a scheduler only when "
                             f"told: pass --scheduler {config.scheduler} if you trust it, or "
                             "another address (or --trust-config)")
        trusted.append(f"connects to {config.scheduler}")

    for key in ("data", "initial"):
        saved, given = getattr(config, key), getattr(consent, key)
        if given is not None:
            if saved is None:
                raise ValueError(f"{where}: {_flag(key)} given, but the run has no {key}")
            changes[key] = given
        elif saved is not None:
            found = _confined(saved, run_dir)
            if found is not None:
                changes[key] = found
            elif consent.trust_config:
                trusted.append(f"reads {saved} ({key})")
            else:
                raise ValueError(f"{where}: {key} '{saved}' is not a file in the run "
                                 "directory; resume reads files elsewhere only when named: "
                                 f"pass {_flag(key)} PATH (or --trust-config)")
    say_trusted(where, trusted)
    return dataclasses.replace(config, **changes) if changes else config


def add_trust_flags(parser, what: str = "the run's") -> None:
    """``--target`` and ``--trust-config`` for a command that plays a saved run's target
    (``select``, ``qd-check``, ``report``)."""
    group = parser.add_argument_group(
        "trust", "a run directory may come from someone else: a target whose player specs "
        "read files outside it is played only when named here (docs/run-directories.md)")
    group.add_argument("--target", default=None, metavar="SPEC",
                       help=f"{what} target, named again: the files it names may be read")
    group.add_argument("--trust-config", action="store_true",
                       help="read every file the saved target names (said on stderr)")


def consent_of(args) -> Consent:
    """What a command line that took ``add_trust_flags`` lets through."""
    return Consent(target=args.target, trust_config=args.trust_config)

"""stratsynth games as PettingZoo AEC environments: ``games.pettingzoo.env(NAME)``
(noughts-and-crosses, Hexapawn, Can't Stop, Expendibots, Tribes), with
``StratsynthPolicy`` to play a stratsynth player inside one. Needs the ``pettingzoo`` extra."""

from .encodings import ENCODINGS
from .env import StratsynthAEC, StratsynthPolicy, env

__all__ = ["ENCODINGS", "StratsynthAEC", "StratsynthPolicy", "env"]

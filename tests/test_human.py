"""The terminal human player: numbered moves, bad input asked again, clean exit."""

import pytest

from games.human import HumanPlayer, HumanQuit

from .cantstop_positions import position


def scripted(answers):
    it = iter(answers)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    out = []
    return HumanPlayer(read=read, write=out.append), out


def test_bad_input_is_asked_again_then_the_numbered_move_is_played():
    s = position(dice=(3, 3, 4, 4))  # 1) advance 6 and 8, 2) advance 7 twice
    human, out = scripted(["", "zero", "0", "3", "2"])
    assert human(s) == (7, 7)
    text = "\n".join(out)
    assert "1) advance 6 and 8" in text and "2) advance 7 twice" in text
    assert text.count("is not a move") == 4
    assert "dice 3 3 4 4" in text


def test_quit_and_end_of_input_leave_cleanly():
    s = position(dice=(3, 3, 4, 4))
    human, _ = scripted(["q"])
    with pytest.raises(HumanQuit):
        human(s)
    human, _ = scripted([])
    with pytest.raises(HumanQuit):
        human(s)

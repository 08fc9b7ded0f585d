"""The bots' names (table/names.py), one list for the terminal's table and the server's."""

from __future__ import annotations

from italian_poker.table.names import BOT_NAMES, bot_name


def test_a_bot_takes_the_first_name_not_taken() -> None:
    assert bot_name(set()) == "Anna"
    assert bot_name({"anna", "carla"}) == "Bruno"


def test_once_every_name_is_taken_a_number_follows() -> None:
    taken = {name.casefold() for name in BOT_NAMES}
    assert bot_name(taken) == "Anna 2"
    assert bot_name(taken | {"anna 2"}) == "Bruno 2"


def test_the_key_decides_what_is_taken() -> None:
    assert bot_name({"ANNA"}, str.upper) == "Bruno"

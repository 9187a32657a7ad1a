"""The Wargame's card arithmetic as the book states it."""

from __future__ import annotations

import pytest

from companion.rules.errors import RulesError
from companion.rules.games.monsters.scoring import wargame_points


@pytest.mark.parametrize(("card", "points"), [("AH", 1), ("10D", 1), ("JH", 2), ("QD", 3),
                                              ("KH", 4), ("KS", 0), ("AC", 0)])
def test_wargame_scores_red_cards_only(card: str, points: int) -> None:
    assert wargame_points(card) == points


def test_a_bad_card_is_named() -> None:
    with pytest.raises(RulesError, match="'1H' is not a card"):
        wargame_points("1H")

"""The Wargame's playing cards: reading one typed, and what a red card scores."""

from __future__ import annotations

from ...errors import RulesError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED = frozenset({"H", "D"})  # hearts and diamonds
SUITS = frozenset({"H", "D", "C", "S"})


def parse_card(text: str) -> tuple[str, str]:
    """'QH', '10d', 'as' (rank then suit: H D C S) as (rank, suit); RulesError otherwise."""
    card = text.strip().upper()
    rank, suit = card[:-1], card[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise RulesError(f"{text!r} is not a card: a rank (A, 2-10, J, Q, K) then a suit "
                         f"(H, D, C, S), as 'QH' or '10S'")
    return rank, suit


def wargame_points(card: str) -> int:
    """A red card scores its rank: Aces through 10 are 1, Jacks 2, Queens 3, Kings 4; a black
    card scores nothing."""
    rank, suit = parse_card(card)
    if suit not in RED:
        return 0
    return {"J": 2, "Q": 3, "K": 4}.get(rank, 1)

"""The scenarios' playing cards: reading one typed, what Invasion's mortals are worth and how
many Minus may feast at one, and what a Wargame red card scores."""

from __future__ import annotations

from ...errors import RulesError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED = frozenset({"H", "D"})  # hearts and diamonds
SUITS = frozenset({"H", "D", "C", "S"})
DECK = tuple(f"{rank}{suit}" for suit in "CDHS" for rank in RANKS)  # 52 cards, no Jokers


def parse_card(text: str) -> tuple[str, str]:
    """'QH', '10d', 'as' (rank then suit: H D C S) as (rank, suit); RulesError otherwise."""
    card = text.strip().upper()
    rank, suit = card[:-1], card[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise RulesError(f"{text!r} is not a card: a rank (A, 2-10, J, Q, K) then a suit "
                         f"(H, D, C, S), as 'QH' or '10S'")
    return rank, suit


def invasion_points(card: str) -> int:
    """Ace through 5: 1 point; 6 through 10: 2; Jacks, Queens and Kings: 3."""
    index = RANKS.index(parse_card(card)[0])
    return 1 if index < 5 else 2 if index < 10 else 3


def feast_limit(card: str) -> int:
    """How many Minus may feast at a card: its face, Aces 1; Jacks, Queens and Kings 11, 12,
    13 (FACE_CARDS_FEAST)."""
    return RANKS.index(parse_card(card)[0]) + 1  # FACE_CARDS_FEAST


def wargame_points(card: str) -> int:
    """A red card scores its rank: Aces through 10 are 1, Jacks 2, Queens 3, Kings 4; a black
    card scores nothing."""
    rank, suit = parse_card(card)
    if suit not in RED:
        return 0
    return {"J": 2, "Q": 3, "K": 4}.get(rank, 1)

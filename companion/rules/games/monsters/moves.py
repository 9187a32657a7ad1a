"""The players' moves: a verb and the numbers it names, with one text form each.

    attack 2          the acting player attacks seat 2 (seats and dice count from 1)
    end | surrender   no attack: on to healing / leave the arena
    hit 3 | hit 3+9   attack with die 3 (and die 9 as its supplement or Plus)
    pain              a Pain monster's attack action: one stun nobody can stop
    decay 4           a Decay monster turns the foe's stunned die 4 into a wound
    void | frozen | flame | keep   a kind's power offered once the defence is made: use it
                      (a token) or keep the token
    pass              no attack (or counterattack) now
    defend 4+7+8      defend with these dice; take: no defence
    hurt 5            put one point of damage on die 5 of the monster hurt
    grab 5            a Tentacle that holds takes the grabbed monster's die 5
    continue | disengage
    heal 2            spend two Plus on health; end: heal nothing
    move | go 7       the Wargame: roll the d6 to move, then the square reached (1-16)
    fight 2 | flip    the Wargame: fight seat 2 on your square; flip the card underfoot
    card QH           the card turned up (rank, suit H D C S)
    unstun 4          a Plus removes die 4's stun (Invasion: it goes back in the bag)
    feast | stop      Invasion: a Minus takes the pile's top card; stop feasting
    bank 3 | unbank 3 | swap 3+5   Invasion's banking: one a turn, then the turn ends
    mend 5            a Potion (or, for a stunned die, a Wand) returns die 5 to the pool
    raise Dora: Ann 3 the Arena: a bettor adds tokens to their bet once play has begun (typed;
                      not among the listed moves, as anyone may do it at any player's step)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Move
from ...errors import BadMoveText, RulesError
from .scoring import parse_card

ALONE = frozenset({"end", "surrender", "pain", "pass", "take", "continue", "disengage", "move",
                   "flip", "feast", "stop", "void", "frozen", "flame", "keep"})
ONE = frozenset({"attack", "hurt", "grab", "heal", "mend", "decay", "go", "fight", "unstun",
                 "bank", "unbank"})
MANY = frozenset({"hit", "defend", "swap"})


@dataclass(frozen=True, slots=True)
class Act(Move):
    """One choice: `verb` and the numbers it names (seats, dice and squares from 1, as players
    count), or the card it names."""

    verb: str
    numbers: tuple[int, ...] = ()
    card: str = ""
    bet: str = ""  # raise: 'BETTOR: PLAYER TOKENS', as the bets option writes one

    def text(self) -> str:
        if self.bet:
            return f"{self.verb} {self.bet}"
        if self.card:
            return f"{self.verb} {self.card}"
        return f"{self.verb} {'+'.join(map(str, self.numbers))}" if self.numbers else self.verb


def parse_move(text: str) -> Act:
    words = text.lower().split()
    if not words:
        raise BadMoveText("an empty move")
    verb, rest = words[0], words[1:]
    if verb == "raise" and rest:  # the names as typed, for the news and the refusals
        return Act("raise", bet=" ".join(text.split()[1:]))
    if verb in ALONE and not rest:
        return Act(verb)
    if verb == "card" and len(rest) == 1:
        try:
            rank, suit = parse_card(rest[0])
        except RulesError as error:
            raise BadMoveText(str(error)) from None
        return Act("card", card=f"{rank}{suit}")
    if verb in ONE | MANY and len(rest) == 1:
        parts = rest[0].split("+")
        if all(p.isdigit() and int(p) > 0 for p in parts) and (verb in MANY or len(parts) == 1):
            return Act(verb, tuple(int(p) for p in parts))
    known = ", ".join(sorted(ALONE | {f"{v} N" for v in ONE} | {f"{v} N+M" for v in MANY}
                             | {"card QH", "raise BETTOR: PLAYER TOKENS"}))
    raise BadMoveText(f"{text!r} is not a Monsters! move ({known})")

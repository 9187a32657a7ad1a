"""Monsters! games for the tests, through the public API: monsters declared as the players would
type them, rolls typed face by face, and a battle walked to the exchange a test looks at."""

from __future__ import annotations

from typing import Any

from companion.rules.core import Roll
from companion.rules.games.monsters import Monsters
from companion.rules.games.monsters.state import MonstersState

GAME = Monsters()
POSTURES = "block dodge deflect plus minus"


def monster(*dice: str, filler: str = f"leg {POSTURES}", size: int = 16) -> str:
    """A block of the `monsters` option: the dice given, then `filler` dice up to `size`."""
    return "\n".join([*dice, *[filler] * (size - len(dice))])


# Bob's Minus dice are his 4th and 7th; he throws them first, so the tray's chips 1 and 2 read
# Minus and his other fourteen dice Block.
MINUS_AT_4_AND_7 = monster("leg block", "leg block", "leg block", "minus plus block", "leg block",
                           "leg block", "minus plus block",
                           filler="leg block deflect dodge plus stun wound")
WOUNDER = monster("arm block deflect dodge stun wound",
                  filler="leg block deflect dodge plus stun wound")


def new_game(ann: str, bob: str, **options: Any) -> MonstersState:
    """Ann and Bob with the monsters declared; nobody has rolled initiative yet."""
    return GAME.new_state(["Ann", "Bob"], {"monsters": f"{ann}\n---\n{bob}", **options})


def roll(state: MonstersState, *faces: str, fill: str = "block") -> None:
    """Roll the dice wanted: `faces` first, the rest showing `fill`."""
    wanted = state.roll_wanted()
    assert wanted is not None, "no roll is wanted"
    shown = [*faces, *[fill] * (len(wanted.dice) - len(faces))]
    state.apply(Roll.of(*[("monsters", face) for face in shown]))


def ann_attacks_bob(ann: str, bob: str, ann_rolls: tuple[str, ...],
                    bob_rolls: tuple[str, ...], **options: Any) -> MonstersState:
    """Ann wins initiative (one Plus against none), rolls `ann_rolls`, attacks Bob, and Bob
    rolls `bob_rolls`: Ann is to choose her attack. Unnamed dice show Block."""
    state = new_game(ann, bob, **options)
    roll(state, "plus")
    roll(state)
    roll(state, *ann_rolls)
    state.apply_text("attack 2")
    roll(state, *bob_rolls)
    return state


def titles(state: MonstersState) -> dict[str, str]:
    """The ranked moves' command text to their title, in rank order."""
    return {m.move.text(): m.title for m in state.ranked_moves()}


def player(state: MonstersState, seat: int) -> dict[str, Any]:
    return dict(state.describe()["players"][seat])


def edited(state: MonstersState, **changes: Any) -> MonstersState:
    """The state saved, the position's fields in `changes` replaced, and restored: a spot the
    rules reach only after many turns, set up directly."""
    data = state.to_json()
    data["position"]["s"].update(changes)
    return GAME.state_from_json(data)


def with_die(state: MonstersState, seat: int, die: int, pool: str, health: int) -> MonstersState:
    """The state with `seat`'s die `die` (counted from 0) in `pool` and its health at `health`."""
    data = state.to_json()
    data["position"]["s"]["pool"][seat][die] = pool
    data["position"]["s"]["health"][seat] = health
    return GAME.state_from_json(data)

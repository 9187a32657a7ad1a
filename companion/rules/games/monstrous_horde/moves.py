"""The player's moves as small values with one text form each (panel, logs and history).

    team wizard cleric druid barbarian       choose the melee team (rolled next)
    keep | reroll wizard druid               the one optional reroll of a subset
    firebolt | bear | sleep e2 | inspire rogue   abilities that roll dice, used before the play
    restore rogue                            the Cleric's Heal on its own: at once, turn goes on
    aid druid=wizard,rogue                   a heal with dice at once, so the healed can be inspired
    attack e2=wizard,bolt1; attack h3=rogue*2; heal druid=cleric,paladin+1; rage e4; restore rogue
    end                                      the play that does nothing (ends the turn)

A play ends the turn. Die modifiers apply left to right: `rogue*2` is Backstab, `cleric+1` /
`cleric-1` Holy Guidance, `cleric+1*2` guides then doubles, `cleric*2+1` doubles then guides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core import Move
from ...errors import BadMoveText
from .rules import MAX_BOLTS, ROLE_INDEX, ROLES

DICE_ORDER: tuple[str, ...] = (
    *(r.name for r in ROLES), *(f"bolt{i + 1}" for i in range(MAX_BOLTS)), "bear1", "bear2",
)
_DIE_RANK = {name: i for i, name in enumerate(DICE_ORDER)}
_DIE_RE = re.compile(r"^([a-z]+\d?)((?:\*2|[+-]1)*)$")
_MOD_RE = re.compile(r"\*2|[+-]1")


def _role(word: str) -> int:
    try:
        return ROLE_INDEX[word]
    except KeyError:
        raise BadMoveText(f"{word!r} is not a character ({', '.join(ROLE_INDEX)})") from None


@dataclass(frozen=True, slots=True)
class Team(Move):
    """Choose the melee team: up to 4 unwounded characters (3 while the Huge Spider lives)."""

    roles: tuple[int, ...]

    def text(self) -> str:
        return "team " + " ".join(ROLES[r].name for r in self.roles)


@dataclass(frozen=True, slots=True)
class Reroll(Move):
    """The optional reroll of some of the team; no roles means keep the roll."""

    roles: tuple[int, ...]

    def text(self) -> str:
        return "reroll " + " ".join(ROLES[r].name for r in self.roles) if self.roles else "keep"


@dataclass(frozen=True, slots=True)
class Ability(Move):
    """An ability used before the play: firebolt, bear, sleep and inspire roll dice; restore
    (the Cleric's Heal) brings a wounded character back at once, so it may then be inspired."""

    name: str
    target: str | None = None

    def text(self) -> str:
        return f"{self.name} {self.target}" if self.target else self.name


@dataclass(frozen=True, slots=True)
class DieUse:
    """One die in a group, with Backstab (*2) and Holy Guidance (+1/-1) in the order applied."""

    die: str
    mods: tuple[str, ...] = ()

    def text(self) -> str:
        return self.die + "".join(self.mods)

    def value(self, face: int) -> int:
        for mod in self.mods:
            face = face * 2 if mod == "*2" else face + int(mod)
        return face


@dataclass(frozen=True, slots=True)
class Group:
    """Dice assigned together to one target (an enemy, a Hydra head, or a wounded character)."""

    target: str
    dice: tuple[DieUse, ...]

    def text(self) -> str:
        return f"{self.target}=" + ",".join(d.text() for d in self.dice)


@dataclass(frozen=True, slots=True)
class Aid(Move):
    """A heal with dice made at once, before the play: the healed character is back in the
    party, so the Paladin may inspire it; the healers sit the play out (HEAL_BEFORE_INSPIRE)."""

    group: Group

    def text(self) -> str:
        return f"aid {self.group.text()}"


@dataclass(frozen=True, slots=True)
class Play(Move):
    """The whole assignment of a turn: attacks, heals, Rage and the Cleric's Heal; ends the turn."""

    attacks: tuple[Group, ...] = ()
    heals: tuple[Group, ...] = ()
    rage: str | None = None
    restore: str | None = None

    def text(self) -> str:
        parts = [f"attack {g.text()}" for g in self.attacks]
        parts += [f"heal {g.text()}" for g in self.heals]
        if self.rage:
            parts.append(f"rage {self.rage}")
        if self.restore:
            parts.append(f"restore {self.restore}")
        return "; ".join(parts) or "end"

    @classmethod
    def make(cls, attacks: list[Group], heals: list[Group], rage: str | None,
             restore: str | None) -> Play:
        """The canonical form: groups by target, dice in party order (no order duplicates)."""
        def tidy(groups: list[Group]) -> tuple[Group, ...]:
            return tuple(sorted(
                (Group(g.target, tuple(sorted(g.dice, key=lambda d: _DIE_RANK[d.die])))
                 for g in groups), key=lambda g: _target_key(g.target)))
        return cls(tidy(attacks), tidy(heals), rage, restore)


def _target_key(target: str) -> tuple[int, str]:
    return (0 if target[0] in "eh" and target[1:].isdigit() else 1, target)


def parse_move(text: str) -> Move:
    """Parse any player move's text form; raises BadMoveText saying what was expected."""
    words = text.strip().lower().split()
    if not words:
        raise BadMoveText("empty move")
    head, rest = words[0], words[1:]
    if head == "team":
        if not rest:
            raise BadMoveText("'team' names the characters to roll, e.g. 'team wizard rogue'")
        return Team(tuple(sorted({_role(w) for w in rest})))
    if head == "keep" and not rest:
        return Reroll(())
    if head == "reroll":
        return Reroll(tuple(sorted({_role(w) for w in rest})))
    if head in ("firebolt", "bear") and not rest:
        return Ability(head)
    if head == "restore" and len(rest) == 1 and ";" not in text:
        _role(rest[0])  # the Cleric's Heal on its own: at once, and the turn goes on
        return Ability(head, rest[0])
    if head in ("sleep", "inspire"):
        if len(rest) != 1:
            raise BadMoveText(f"'{head}' takes one target, e.g. '{head} e2'")
        if head == "inspire":
            _role(rest[0])
        return Ability(head, rest[0])
    if head == "end" and not rest:
        return Play()
    if head == "aid":
        play = _parse_play("heal " + " ".join(rest)) if rest and ";" not in text else Play()
        if len(play.heals) != 1:
            raise BadMoveText("write 'aid WOUNDED=die,die': one heal with dice, made at once")
        return Aid(play.heals[0])
    if head in ("attack", "heal", "rage", "restore"):
        return _parse_play(text)
    raise BadMoveText(f"cannot read move {text!r}")


def _parse_play(text: str) -> Play:
    attacks: list[Group] = []
    heals: list[Group] = []
    rage = restore = None
    for part in (p.strip() for p in text.lower().split(";")):
        verb, _, arg = part.partition(" ")
        arg = arg.replace(" ", "")
        if verb in ("rage", "restore") and arg and "=" not in arg:
            if (rage if verb == "rage" else restore) is not None:
                raise BadMoveText(f"'{verb}' appears twice in {text!r}")
            rage, restore = (arg, restore) if verb == "rage" else (rage, arg)
        elif verb in ("attack", "heal"):
            target, sep, dice = arg.partition("=")
            if not sep or not target or not dice:
                raise BadMoveText(f"write '{verb} TARGET=die,die', not {part!r}")
            group = Group(target, tuple(_parse_die(d) for d in dice.split(",")))
            (attacks if verb == "attack" else heals).append(group)
        else:
            raise BadMoveText(f"cannot read {part!r} in {text!r}")
    return Play.make(attacks, heals, rage, restore)


def _parse_die(word: str) -> DieUse:
    match = _DIE_RE.match(word)
    if not match or match.group(1) not in _DIE_RANK:
        raise BadMoveText(f"{word!r} is not a die (one of {', '.join(DICE_ORDER)}, "
                          "optionally with *2, +1 or -1)")
    return DieUse(match.group(1), tuple(_MOD_RE.findall(match.group(2))))

"""Building a monster: each player's declared dice (a list of faces per die) and kind, checked
against the construction rules, so an illegal build is refused with the rule that forbids it."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RulesError
from ...symbol_dice import BODY_PARTS, EQUIPMENT, MONSTERS, POSTURES
from .rules import (
    CATEGORIES,
    COMPLETE_EQUIPMENT,
    COMPLETE_PAIRS,
    KINDS,
    MIN_SIZE,
    Options,
    tokens_for,
)

Die = tuple[str, ...]
MAIN_FACES = frozenset(BODY_PARTS) | frozenset(EQUIPMENT)
KNOWN_FACES = frozenset(MONSTERS.face_names)


@dataclass(frozen=True)
class Monster:
    """One player's monster as built: its dice, kind (primary, secondary or '') and tokens."""

    dice: tuple[Die, ...]
    primary: str = ""
    secondary: str = ""

    def to_json(self) -> dict[str, object]:
        return {"dice": [list(d) for d in self.dice], "primary": self.primary,
                "secondary": self.secondary}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Monster:
        dice = data["dice"]
        assert isinstance(dice, list)
        return cls(tuple(tuple(d) for d in dice), str(data["primary"]), str(data["secondary"]))


def preset(size: int) -> tuple[Die, ...]:
    """PRESET_DICE: one die per body part (two Arms, Legs and Eyes), each its part and five
    postures in turn; past 16 dice the parts come round again."""
    parts = ["arm", "arm", "leg", "leg", "eye", "eye"] + [p for p in BODY_PARTS
                                                          if p not in COMPLETE_PAIRS]
    return tuple((parts[i % len(parts)], *(POSTURES[(i + k) % len(POSTURES)] for k in range(5)))
                 for i in range(size))


def parse_dice(text: str, who: str) -> tuple[Die, ...]:
    """One die a line: its faces apart by spaces or commas, '3x' before a line for three alike."""
    dice: list[Die] = []
    for number, line in enumerate(text.splitlines(), 1):
        words = line.replace(",", " ").lower().split()
        if not words:
            continue
        repeat = 1
        if words[0].endswith("x") and words[0][:-1].isdigit():
            repeat, words = int(words[0][:-1]), words[1:]
        if not words or repeat < 1:
            raise RulesError(f"{who}, line {number}: a die needs its faces")
        unknown = [w for w in words if w not in KNOWN_FACES]
        if unknown:
            raise RulesError(f"{who}, line {number}: {', '.join(unknown)} is not a Monsters! "
                             f"face (faces: {', '.join(MONSTERS.face_names)})")
        dice += [tuple(words)] * repeat
    return tuple(dice)


def parse_kind(text: str, who: str) -> tuple[str, str]:
    """'flame', 'flame+void' (primary and secondary) or 'none'."""
    names = [w.strip().lower() for w in text.split("+")]
    if names == ["none"] or names == [""]:
        return "", ""
    unknown = [n for n in names if n not in KINDS]
    if unknown or len(names) > 2 or len(set(names)) != len(names):
        raise RulesError(f"{who}: kinds are one or two of {', '.join(KINDS)} ('flame+void'), "
                         f"not {text.strip()!r}")
    return names[0], names[1] if len(names) == 2 else ""


def build_all(names: list[str], options: Options) -> list[Monster]:
    """Every player's monster from the options, each checked; RulesError names the rule."""
    # One line of text is enough (the new-game form's field): ';' ends a die, '|' a player.
    blocks = _split(options.monsters.replace("|", "\n---\n").replace(";", "\n"), "---")
    kinds = [k for k in options.kinds.replace(";", ",").replace(",", "\n").splitlines()
             if k.strip()]
    if blocks and len(blocks) != len(names):
        raise RulesError(f"monsters: {len(blocks)} declared for {len(names)} players (one "
                         f"each, apart by '|' or a line '---')")
    if kinds and len(kinds) != len(names):
        raise RulesError(f"kinds: {len(kinds)} lines for {len(names)} players (one each)")
    monsters = []
    for seat, name in enumerate(names):
        block = blocks[seat] if blocks else "preset"
        # PRESET_DICE
        dice = (preset(options.size) if block.strip().lower() == "preset"
                else parse_dice(block, name))
        # KINDS_DECLARED
        primary, secondary = parse_kind(kinds[seat], name) if kinds else ("", "")
        monster = Monster(dice, primary, secondary)
        check(monster, name, options)
        monsters.append(monster)
    return monsters


def _split(text: str, separator: str) -> list[str]:
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip() == separator:
            blocks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    blocks.append("\n".join(current))
    return [] if len(blocks) == 1 and not blocks[0].strip() else blocks


def main_symbols(die: Die) -> list[str]:
    """MAIN_SYMBOL: the body part and equipment faces a die carries (one, on a proper die)."""
    return sorted({f for f in die if f in MAIN_FACES})


def check(monster: Monster, who: str, options: Options) -> None:
    """The Battle System's construction rules and the optional ones the options switch on."""
    size = len(monster.dice)
    if size < MIN_SIZE:
        raise RulesError(f"{who}: a monster has at least {MIN_SIZE} dice, not {size} (Setup)")
    if size != options.size:
        raise RulesError(f"{who}: {size} dice, but every player uses the same amount: "
                         f"{options.size} (Setup)")
    equipment = [i for i, die in enumerate(monster.dice, 1) if set(die) & set(EQUIPMENT)]
    if equipment and not options.equipment:
        raise RulesError(f"{who}: die {equipment[0]} carries equipment, and this game plays "
                         f"without the optional equipment rules (Equipment)")
    allowed = tokens_for(size)
    for category, faces in CATEGORIES.items():  # EQUIPMENT_BY_DIE
        count = sum(1 for die in monster.dice if set(die) & faces)
        if count > allowed:
            raise RulesError(f"{who}: {count} {category} dice; at most one of each category "
                             f"per 16 points, {allowed} for {size} (Equipment)")
    if options.complete:
        _check_complete(monster, who)


def _check_complete(monster: Monster, who: str) -> None:
    """Complete Monster Construction: one of most dice, Arm, Leg and Eye two, two equipment."""
    counts: dict[str, int] = {}
    for number, die in enumerate(monster.dice, 1):
        mains = main_symbols(die)  # MAIN_SYMBOL
        if len(mains) != 1:
            what = "no body part or equipment" if not mains else " and ".join(mains)
            raise RulesError(f"{who}: die {number} carries {what}; complete construction counts "
                             f"each die by its one body part or equipment (Complete Monster "
                             f"Construction)")
        counts[mains[0]] = counts.get(mains[0], 0) + 1
    for symbol, count in counts.items():
        most = 2 if symbol in COMPLETE_PAIRS else 1
        if count > most:
            raise RulesError(f"{who}: {count} {symbol} dice; complete construction allows "
                             f"{most} (Complete Monster Construction)")
    gear = sum(c for s, c in counts.items() if s in EQUIPMENT)
    if gear > COMPLETE_EQUIPMENT:
        raise RulesError(f"{who}: {gear} equipment dice; complete construction allows "
                         f"{COMPLETE_EQUIPMENT} (Complete Monster Construction)")

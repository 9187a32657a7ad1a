"""The arithmetic of one exchange: what an attack does, what a defence stops, what gets through.

Pure functions of the faces chosen, so the flow, the ranking and the tests share one answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import (
    ATTACK_SUPPLEMENTS,
    ATTACKS,
    BODY_PART_ATTACKS,
    DEFENCE_SUPPLEMENTS,
    DEFENCES,
    DEMONIC_EYE,
    MINUSES,
    STOPS,
    Attack,
)


@dataclass(frozen=True)
class Blow:
    """An attack as chosen: its die's numbers with the supplement's added."""

    face: str
    supplement: str | None
    stun: int
    wound: int
    speed: int
    kind: str
    grab: bool = False
    extra_wound: bool = False  # Stinger or Dart: one more wound when not defended
    brain: bool = False
    targeted: bool = False


@dataclass(frozen=True)
class Through:
    """What gets through a defence: stun and wound points, whether a grab holds."""

    stun: int
    wound: int
    grab: bool
    defended: bool  # the defence was fast enough to count at all

    @property
    def health(self) -> int:
        """Health the defender loses: one a stun point, two a wound point."""
        return self.stun + 2 * self.wound

    @property
    def success(self) -> bool:  # SUCCESS_IS_DAMAGE
        return self.grab or self.stun + self.wound > 0


def attack_of(face: str | None, demonic: bool = False) -> Attack | None:
    """What `face` does as an attack die (a Demonic monster's Eye fires a ray), or None."""
    if face == "eye" and demonic:
        return DEMONIC_EYE  # RAY_IS_STUN
    return ATTACKS.get(face or "")


def blow(face: str | None, supplement: str | None = None, demonic: bool = False) -> Blow | None:
    """The attack `face` makes with `supplement` (a second die's face), or None if the pair
    is not an attack the book allows."""
    attack = attack_of(face, demonic)
    if attack is None or face is None:
        return None
    stun, wound = attack.stun, attack.wound
    extra, brain = attack.poison, False
    if supplement is not None:
        if supplement not in ATTACK_SUPPLEMENTS:
            return None
        if supplement in ("thagomizer", "stinger") and face not in BODY_PART_ATTACKS:
            return None  # BODY_PART_ATTACKS
        if supplement == "plus":
            if attack.grab:
                return None  # PLUS_ADDS_ITS_DIE_KIND
            if stun >= wound:
                stun += 1
            else:
                wound += 1
        elif supplement == "thagomizer":
            wound += 1
        elif supplement == "stinger":
            stun, extra = stun + 1, True
        brain = supplement == "brain"
    return Blow(face, supplement, stun, wound, attack.speed, attack.kind, attack.grab, extra,
                brain, attack.targeted)


@dataclass(frozen=True)
class Guard:
    """A defence as chosen: its defence die's face (or None), the Lungs, the Minus dice (a
    Bellows among them) and the points they take off."""

    face: str | None
    lungs: bool
    minus: int
    minus_points: int

    @property
    def dice(self) -> int:
        return (self.face is not None) + self.lungs + self.minus


def guard(faces: list[str | None], against: Blow) -> Guard | str:
    """The defence made of dice showing `faces` against `against`, or why it is not one: one
    defence die, then up to one relevant supplemental or any number of Minus."""
    defence = [f for f in faces if f not in MINUSES and f not in DEFENCE_SUPPLEMENTS]
    lungs = sum(1 for f in faces if f in DEFENCE_SUPPLEMENTS)
    minus = sum(1 for f in faces if f in MINUSES)
    if len(defence) > 1:
        return "one defence die at most"
    if lungs > 1 or (lungs and minus):
        return "up to one relevant supplemental or any number of Minus, not both"
    face = defence[0] if defence else None
    if face is not None:
        if face not in DEFENCES:
            return f"{face or 'a blank'} is not a defence"
        if DEFENCES[face].against not in STOPS[against.kind]:
            return f"{face} cannot stop a {against.kind} attack"  # SPECIAL_ATTACKS_ARE_POSTURES
    if face is None and lungs:
        return "Lungs supplement a defence die"
    return Guard(face, bool(lungs), minus, sum(MINUSES.get(f or "", 0) for f in faces))


def value_and_speed(chosen: Guard, against: Blow) -> tuple[int, int]:
    """Points a defence stops and its speed (each die 1 unless equipment): the sum of its
    dice's, Minus dice included (MINUS_WITHOUT_DEFENCE_DIE, ATTACK_SPEED_IS_THE_DIE)."""
    value, speed = chosen.minus_points, chosen.minus + chosen.lungs
    die = DEFENCES.get(chosen.face or "")
    # LUNGS_REROLL: a defence die rerolled to a face that no longer defends adds nothing.
    if die is not None and die.against in STOPS[against.kind]:
        value += die.value
        speed += die.speed
    return value, speed


def through(against: Blow, chosen: Guard | None, weaken: int = 0) -> Through:
    """What gets through: a defence slower than the attack counts for nothing; points stopped
    come off wounds first (DEFENCE_STOPS_WOUNDS_FIRST); a Stinger or Dart that is not stopped
    adds a wound. `weaken` takes points off the defence (a Void monster's power)."""
    stop, speed = value_and_speed(chosen, against) if chosen else (0, 0)
    # ATTACK_SPEED_IS_THE_DIE: a defence slower than the attack lets it all through.
    defended = chosen is not None and chosen.dice > 0 and speed >= against.speed
    stop = max(0, stop - weaken) if defended else 0
    wound = max(0, against.wound - stop)  # DEFENCE_STOPS_WOUNDS_FIRST
    stop -= against.wound - wound
    stun = max(0, against.stun - stop)
    stop -= against.stun - stun
    grab = against.grab and stop <= 0  # GRAB_IS_ONE_POINT
    if against.extra_wound and (stun + wound > 0 or grab):
        wound += 1
    return Through(stun, wound, grab, defended)


def describe_blow(b: Blow) -> str:
    """'2 wound, speed 3' in a player's words."""
    parts = [f"{n} {what}" for n, what in ((b.stun, "stun"), (b.wound, "wound")) if n]
    if b.grab:
        parts.append("grabs a die")
    if b.extra_wound:
        parts.append("+1 wound if not stopped")
    if b.brain:
        parts.append("another attack if it lands")
    if b.speed > 1:
        parts.append(f"speed {b.speed}")
    return ", ".join(parts) or "nothing"


def describe_through(t: Through) -> str:
    if t.grab:
        return "the grab holds"
    if not t.success:
        return "nothing gets through"
    parts = [f"{n} {what}" for n, what in ((t.stun, "stun"), (t.wound, "wound")) if n]
    return f"{' and '.join(parts)} through (health -{t.health})"

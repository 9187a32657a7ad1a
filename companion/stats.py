"""Per-player figures across the history (`GET /api/stats`), kept game by game.

Reading every event of every game on each call took a second on 510 games (101,133 events),
holding the history's lock and Python all that while, and anyone may call it. So each game's
share (its result, the dice its players rolled that are still in force) is worked out once and
kept with the number of events the game had: the log only grows, so a game whose count has not
moved has not changed. A call with nothing written since the last answers that again; else it
counts each game's events, works out the games that changed, and adds the shares up. One call
works at a time (the others wait and find the shares made), and only the newest MAX_GAMES games
count, so the work and the memory stay bounded.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules.core import Roll
from companion.rules.dice import STANDARD

if TYPE_CHECKING:
    from companion.history import GameRecord, History

JSON = dict[str, Any]
MAX_GAMES = 10_000  # the newest games that count: years of play at one table


@dataclass(frozen=True)
class Share:
    """One game's part of the figures: per player, games finished, wins, score and dice."""

    events: int  # the game's events when the share was worked out
    players: dict[str, JSON]


class PlayerStats:
    """The figures of one history, its games' shares kept between calls."""

    def __init__(self, history: History) -> None:
        self.history = history
        self._lock = threading.Lock()
        self._shares: dict[int, Share] = {}
        self._revision: tuple[int, int] | None = None  # the history's when last added up
        self._players: list[JSON] = []

    def players(self) -> list[JSON]:
        """Per player across games: games finished, wins, mean final score, dice luck (the
        same list while nothing was written: not to be changed by the caller)."""
        with self._lock:
            revision = self.history.revision()
            if revision == self._revision:
                return self._players
            shares = {}
            for game_id, events in self.history.event_counts(MAX_GAMES).items():
                share = self._shares.get(game_id)
                if share is None or share.events != events:
                    share = game_share(self.history, self.history.game(game_id))
                shares[game_id] = share
            self._shares = shares  # a game no longer among the newest is let go
            # a write during the work moved the revision on: the next call looks again
            self._revision, self._players = revision, added_up(shares.values())
            return self._players


def game_share(history: History, record: GameRecord) -> Share:
    """Work out one game's share from its record and its events."""
    from companion.history import EventKind, effective_steps

    events = history.events(record.id)
    outcome = record.outcome
    players: dict[str, JSON] = {}
    for seat, name in enumerate(record.players):
        s = players.setdefault(name, {"games": 0, "wins": 0, "score_total": 0, "dice": {}})
        if outcome is not None:
            s["games"] += 1
            s["wins"] += seat in outcome.get("winners", ())
            s["score_total"] += record.scores[seat] if seat < len(record.scores) else 0
    live = effective_steps(events)
    for e in events:
        if e.id in live and e.kind in (EventKind.ROLL, EventKind.AMEND) \
                and e.seat is not None and e.seat < len(record.players):
            _count_dice(players[record.players[e.seat]]["dice"], e.text)
    # the count the record was read with: an event added since is read again next time
    return Share(record.events, players)


def added_up(shares: Any) -> list[JSON]:
    """The shares of many games as the API gives them, one entry per player by name."""
    totals: dict[str, JSON] = {}
    for share in shares:
        for name, part in share.players.items():
            s = totals.setdefault(name, {"player": name, "games": 0, "wins": 0,
                                         "score_total": 0, "dice": {}})
            for key in ("games", "wins", "score_total"):
                s[key] += part[key]
            for kind, entry in part["dice"].items():
                total = s["dice"].setdefault(kind, {"rolls": 0, "total": 0,
                                                    "expected": entry["expected"]})
                total["rolls"] += entry["rolls"]
                total["total"] += entry["total"]
    return [_finished(s) for s in sorted(totals.values(), key=lambda s: s["player"])]


EXPECTED = {kind: die.expected() for kind, die in STANDARD.items()}  # worked out once, not per die


def _count_dice(dice: JSON, roll_text: str) -> None:
    for die in Roll.parse(roll_text).dice:
        expected = EXPECTED.get(die.kind)
        if expected is None or not isinstance(die.value, int):
            continue
        entry = dice.setdefault(die.kind, {"rolls": 0, "total": 0, "expected": expected})
        entry["rolls"] += 1
        entry["total"] += die.value


def _finished(s: JSON) -> JSON:
    luck = {}
    for kind, entry in sorted(s["dice"].items()):
        mean = entry["total"] / entry["rolls"]
        luck[kind] = {"rolls": entry["rolls"], "mean": round(mean, 3),
                      "expected": entry["expected"], "luck": round(mean - entry["expected"], 3)}
    return {"player": s["player"], "games": s["games"], "wins": s["wins"],
            "mean_score": round(s["score_total"] / s["games"], 2) if s["games"] else None,
            "dice": luck}

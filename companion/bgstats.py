"""A finished game as a BG Stats play, so it leaves the table in one tap.

BG Stats imports one play from a link, `https://app.bgstatsapp.com/createPlay.html?data=`
followed by the play as URL-encoded JSON (its documented `createPlay` format). The app on the
phone opens the link and asks the player to save the play; nothing leaves the table by itself.
Everything in the play comes from the game's history: the record, its events and outcome.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

from companion.history import History, effective_steps
from companion.table import TableError

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE = "Rollscribe"  # with the ids below, how BG Stats matches later plays to earlier ones
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"  # BG Stats' playDate, in the table's local time

JSON = dict[str, Any]


class NotFinished(TableError):
    """Only a game played to its end is a play to record."""


def play(history: History, game_id: int) -> JSON:
    """The play of a finished game: who played, their scores, ranks and winners, who started,
    when and for how long, and the options it was played with."""
    record = history.game(game_id)
    if record.outcome is None or record.abandoned:
        raise NotFinished(f"game {game_id} is not finished: only a finished game goes to "
                          "BG Stats")
    events = history.events(game_id)
    game = history.games_registry.get_game(record.game)
    live = effective_steps(events)
    starter = next((e.seat for e in events if e.id in live and e.turn >= 1
                    and e.seat is not None), None)
    winners = set(record.outcome.get("winners", ()))
    ranks = _ranks(list(record.scores), winners)
    minutes = max(1, round((events[-1].at - record.started) / 60)) if events else 1
    schema = game.options_schema()
    options = {**{item["name"]: item.get("default") for item in schema}, **record.options}
    game_json: JSON = {"name": game.title, "sourceGameId": record.game,
                       "highestWins": True, "noPoints": False}
    if game.bgg_id is not None:
        game_json["bggId"] = game.bgg_id
    data: JSON = {
        "sourceName": SOURCE,
        # when and which game: the same on every send of this play, so BG Stats keeps it once
        "sourcePlayId": f"{int(record.started)}-{record.id}",
        "playDate": time.strftime(DATE_FORMAT, time.localtime(record.started)),
        "durationMin": minutes,
        "game": game_json,
        "players": [
            {"name": name, "sourcePlayerId": name, "score": record.scores[seat],
             "rank": ranks[seat], "winner": seat in winners, "startPlayer": seat == starter}
            for seat, name in enumerate(record.players)
        ],
        "comments": _comment(schema, options, record.outcome),
    }
    board = options.get("board")
    if board:
        data["board"] = f"Board {board}"
    return data


def link(data: JSON) -> str:
    """The link the phone opens: the play as URL-encoded JSON in `data`."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"{CREATE_PLAY}?data={quote(text, safe='')}"


def _ranks(scores: list[int], winners: set[int]) -> list[int]:
    """1 for the winners, then by score; equal scores share a rank (1, 2, 2, 4)."""
    keys = [(seat not in winners, -score) for seat, score in enumerate(scores)]
    return [1 + sum(other < key for other in keys) for key in keys]


def _comment(schema: list[JSON], options: JSON, outcome: JSON) -> str:
    """How it was played: the options that differ from the book's, and why it ended."""
    changed = [f"{item['name']} {options[item['name']]}" for item in schema
               if options[item["name"]] != item.get("default")]
    rules = f"house rules: {', '.join(changed)}" if changed else "rules as written"
    return f"Recorded by Rollscribe; {rules}; ended: {outcome.get('reason', 'finished')}."

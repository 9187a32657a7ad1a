"""`rollscribe simulate GAME`: seeded self-play, printed as a summary (also how the bench runs)."""

from __future__ import annotations

import argparse
from typing import Any

from companion.rules.core import Game
from companion.rules.errors import RulesError
from companion.rules.registry import game_names, get_game
from companion.rules.simulation import POLICIES, simulate


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="play seeded games against themselves and print a summary",
        description="Play seeded games of a registered game and print mean turns, win rate by "
                    "seat, mean score and speed. 'greedy' plays the top-ranked move, 'random' a "
                    "uniformly random legal move.")
    parser.add_argument("game", help=f"one of: {', '.join(game_names())}")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="greedy")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes (games are seeded one by one: same results)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="one of the game's options, as on the new-game page (again for "
                             "more): 'scenario=wargame', 'size=20'")
    parser.set_defaults(func=run)


def parse_options(game: type[Game], pairs: list[str]) -> dict[str, Any]:
    """`NAME=VALUE` words as the game's options, each value of the type its schema says (the
    game still checks the values themselves); RulesError for anything else."""
    schema = {item["name"]: item for item in game.options_schema()}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        item = schema.get(name)
        if not sep or item is None:
            raise RulesError(f"--option {pair!r}: write NAME=VALUE with NAME one of "
                             f"{', '.join(schema) or 'nothing: ' + game.title + ' has no options'}")
        if item["type"] == "int":
            try:
                options[name] = int(value)
            except ValueError:
                raise RulesError(f"--option {pair!r}: {name} is a whole number") from None
        elif item["type"] == "bool":
            if value.lower() not in ("true", "false", "yes", "no"):
                raise RulesError(f"--option {pair!r}: {name} is true or false")
            options[name] = value.lower() in ("true", "yes")
        else:
            options[name] = value
    return options


def run(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
        if not game.min_players <= args.players <= game.max_players:
            raise RulesError(f"{game.title} takes {game.min_players} to {game.max_players} "
                             "players")
        if args.games < 1 or args.jobs < 1:
            raise RulesError("--games and --jobs must be at least 1")
        summary = simulate(args.game, args.players, args.games, args.seed, args.policy,
                           args.jobs, parse_options(game, args.option))
    except RulesError as exc:
        print(f"rollscribe simulate: {exc}")
        return 2
    print(summary.text())
    return 0

"""`rollscribe simulate GAME`: seeded self-play, printed as a summary (also how the bench runs)."""

from __future__ import annotations

import argparse
from typing import Any

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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
        if not game.min_players <= args.players <= game.max_players:
            raise RulesError(f"{game.title} takes {game.min_players} to {game.max_players} "
                             "players")
        if args.games < 1 or args.jobs < 1:
            raise RulesError("--games and --jobs must be at least 1")
        summary = simulate(args.game, args.players, args.games, args.seed, args.policy,
                           args.jobs)
    except RulesError as exc:
        print(f"rollscribe simulate: {exc}")
        return 2
    print(summary.text())
    return 0

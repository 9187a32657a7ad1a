"""The Arena's betting (the kitty and its payout) and the Society of the Great Eye's ranking
points: plain arithmetic on tokens, apart from the battle."""

from __future__ import annotations

from ...errors import RulesError

Bet = tuple[str, int, int]  # bettor, seat bet on, tokens

WIN_POINTS = {"battle": 1, "arena": 2, "invasion": 4}  # "a modifed chess scoring system"
INVASION_TIE_POINTS = 1  # "A tie in Invasion is worth 1 point for all players that tie"


def parse_bets(text: str, names: list[str]) -> list[Bet]:
    """'BETTOR: PLAYER TOKENS' a line; RulesError names the line and what is wrong."""
    bets = []
    lower = [n.lower() for n in names]
    for number, line in enumerate(text.replace(";", "\n").splitlines(), 1):
        if not line.strip():
            continue
        bettor, sep, rest = line.partition(":")
        words = rest.split()
        if not sep or not bettor.strip() or len(words) < 2 or not words[-1].isdigit():
            raise RulesError(f"bets, line {number}: write 'BETTOR: PLAYER TOKENS', not "
                             f"{line.strip()!r}")
        player, tokens = " ".join(words[:-1]), int(words[-1])
        if player.lower() not in lower:
            raise RulesError(f"bets, line {number}: {player!r} is not a player "
                             f"({', '.join(names)})")
        if tokens < 1:
            raise RulesError(f"bets, line {number}: a bet is at least one token (Betting)")
        bets.append((bettor.strip(), lower.index(player.lower()), tokens))
    return bets


def raised(bets: list[Bet], text: str, names: list[str]) -> Bet:
    """A raise typed once play has begun ('BETTOR: PLAYER TOKENS'): bets may then only be changed
    by adding tokens (Betting), so the bettor must already have a bet on that player."""
    bets_typed = parse_bets(text, names)  # RulesError for a malformed one
    if len(bets_typed) != 1:
        raise RulesError(f"raise one bet at a time: 'raise BETTOR: PLAYER TOKENS', not {text!r}")
    bettor, seat, tokens = bets_typed[0]
    if not any(b.casefold() == bettor.casefold() and s == seat for b, s, _ in bets):
        raise RulesError(f"once play begins, bets may only be changed by adding tokens (Betting): "
                         f"{bettor} has no bet on {names[seat]}")
    same = next(b for b, s, _ in bets if b.casefold() == bettor.casefold())
    return same, seat, tokens


def payout(bets: list[Bet], winner: int, winner_name: str, split: str = "even") -> dict[str, int]:
    """Who gets what from the kitty: the winning player a quarter, rounded down; the rest shared
    evenly by those who bet on the winner (or, with split 'by-stake', in proportion to their
    stakes), rounded down; what cannot be shared goes to the winning player. A winning player
    who also bet on themselves gets both."""
    kitty = sum(t for _, _, t in bets)
    share: dict[str, int] = {winner_name: kitty // 4}
    rest = kitty - kitty // 4
    stakes: dict[str, int] = {}
    for bettor, seat, tokens in bets:
        if seat == winner:
            stakes[bettor] = stakes.get(bettor, 0) + tokens
    paid = 0
    total = sum(stakes.values())
    for bettor, stake in stakes.items():
        # EVEN_SPLIT_BY_BETTOR
        gets = rest // len(stakes) if split == "even" else rest * stake // total
        share[bettor] = share.get(bettor, 0) + gets
        paid += gets
    share[winner_name] += rest - paid
    return share


def society_points(scenario: str, players: int, winners: list[int] | None) -> list[int]:
    """The Society's ranking points of a finished game: a win 1 in a general challenge, 2 in
    the Arena, 4 in Invasion; a tie in Invasion 1 to each tied player; a loss nothing."""
    points = [0] * players
    if not winners:
        return points
    if scenario not in WIN_POINTS:
        raise RulesError(f"no ranking points for {scenario!r}; known: {', '.join(WIN_POINTS)}")
    each = WIN_POINTS[scenario]
    if len(winners) > 1:
        each = INVASION_TIE_POINTS if scenario == "invasion" else 0  # SOCIETY_TIES
    for seat in winners:
        points[seat] = each
    return points

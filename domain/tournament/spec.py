"""A tournament's spec, validated before anything is stored: raises InvalidSetup naming the field at fault."""

from __future__ import annotations

import math
from typing import Any

from ..clocks import STARTS
from ..games import decider_for, spec_for
from ..players import player_name
from ..rules import InvalidSetup
from . import pairing

FORMATS = ("match", "round-robin", "swiss", "teams")
# what each format is, in a line (the creation form's choices)
FORMAT_TEXT = {"match": "match: everyone at one table", "round-robin": "round-robin: pairs, everyone meets everyone",
               "swiss": "Swiss: pairs by score (tables of 3–4 by score for games of 3 seats or more)",
               "teams": "teams: two teams a table, seats rotated"}
MAX_PLAYERS = 64
MAX_GAMES = 50  # games per table in one round
MAX_ROUNDS = 64
MAX_NAME = 80


def _int(value: Any, field: str, least: int, most: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise InvalidSetup(field, f"must be an integer from {least} to {most}")
    return value


def delay(value: Any) -> dict | None:
    """`spectator_delay`: {"moves": N} or {"seconds": S} (carried into every game's spec, applied by the game)."""
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) != 1 or not set(value) <= {"moves", "seconds"}:
        raise InvalidSetup("spectator_delay", 'must be {"moves": N} or {"seconds": S}')
    (key, n), = value.items()
    return {key: _int(n, f"spectator_delay.{key}", 1, 86_400 if key == "seconds" else 10_000)}


def time_control(value: Any) -> dict | None:
    """`time_control`: {"game_seconds": N} and/or {"move_seconds": N} and/or {"start": "first_move" | "created"}
    (carried into every game's spec; `start` says when its clocks start, domain.clocks)."""
    if value is None:
        return None
    if not isinstance(value, dict) or not value or not set(value) <= {"game_seconds", "move_seconds", "start"}:
        raise InvalidSetup("time_control", 'must be {"game_seconds": N} and/or {"move_seconds": N} and/or '
                                           '{"start": "first_move" or "created"}')
    out = {k: _int(v, f"time_control.{k}", 1, 86_400) for k, v in value.items() if k != "start"}
    if "start" in value:
        if value["start"] not in STARTS:
            raise InvalidSetup("time_control.start", 'must be "first_move" or "created"')
        out["start"] = value["start"]
    return out


def players_of(raw: Any, field: str = "players") -> list[dict]:
    """Players as [{"name", "team"?}]: 1 to 64 printable characters, names unique."""
    if not isinstance(raw, list) or len(raw) > MAX_PLAYERS:
        raise InvalidSetup(field, f"must be a list of at most {MAX_PLAYERS} players")
    out: list[dict] = []
    for i, p in enumerate(raw):
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict) or set(p) - {"name", "team"}:
            raise InvalidSetup(f"{field}[{i}]", 'must be a name or {"name": ..., "team": ...}')
        name = player_name(p, i)
        team = p.get("team")
        if team is not None and (not isinstance(team, str) or not team.strip() or len(team) > 64):
            raise InvalidSetup(f"{field}[{i}].team", "must be a non-empty string of at most 64 characters")
        if any(q["name"] == name for q in out):
            raise InvalidSetup(f"{field}[{i}].name", f"{name!r} is entered twice: names must be unique")
        out.append({"name": name} if team is None else {"name": name, "team": team.strip()})
    return out


def validate(spec: Any) -> dict:
    """The tournament's settings as stored: name, game, options, format, games_per_table, rounds, duplicate,
    spectator_delay, time_control, auto_rounds (only when true: each round starts when the last game of the one
    before ends), players (may be empty: players can be entered until round 1 starts)."""
    if not isinstance(spec, dict):
        raise InvalidSetup("spec", "a tournament is created from an object with name, game, format and players")
    known = {"name", "game", "options", "players", "format", "games_per_table", "rounds", "duplicate",
             "spectator_delay", "time_control", "auto_rounds"}
    unknown = set(spec) - known
    if unknown:
        raise InvalidSetup(sorted(map(str, unknown))[0], f"unknown field; known: {', '.join(sorted(known))}")
    name = spec.get("name", "Tournament")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME or not name.strip().isprintable():
        raise InvalidSetup("name", f"must be 1 to {MAX_NAME} printable characters")
    try:
        game = spec_for(spec.get("game")).id
    except (KeyError, TypeError) as e:
        raise InvalidSetup("game", str(e).strip('"')) from None
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidSetup("options", "must be an object")
    fmt = spec.get("format", "match")
    if fmt not in FORMATS:
        raise InvalidSetup("format", f"must be one of {', '.join(FORMATS)}")
    duplicate = spec.get("duplicate", False)
    if not isinstance(duplicate, bool):
        raise InvalidSetup("duplicate", "must be true or false")
    auto_rounds = spec.get("auto_rounds", False)
    if not isinstance(auto_rounds, bool):
        raise InvalidSetup("auto_rounds", "must be true or false")
    out = {"name": name.strip(), "game": game, "options": dict(options), "format": fmt, "duplicate": duplicate,
           "spectator_delay": delay(spec.get("spectator_delay")), "time_control": time_control(spec.get("time_control")),
           "games_per_table": None, "rounds": None}
    if auto_rounds:  # stored only when asked for: a tournament's settings read as before otherwise
        out["auto_rounds"] = True
    if spec.get("games_per_table") is not None:
        out["games_per_table"] = _int(spec["games_per_table"], "games_per_table", 1, MAX_GAMES)
    if spec.get("rounds") is not None:
        out["rounds"] = _int(spec["rounds"], "rounds", 1, MAX_ROUNDS)
    out["players"] = players_of(spec.get("players", []))
    if fmt != "teams" and any("team" in p for p in out["players"]) and fmt != "match":
        raise InvalidSetup("players", f"format {fmt} is individual play: teams need format teams (or match)")
    if fmt == "round-robin" and table_seats(out) != (2, 2):
        seats = spec_for(game).seats_for(out["options"])
        raise InvalidSetup("format", f"a round-robin plays pairs, and {spec_for(game).title} seats {seats.text()} "
                                     f"({seats.clause}): a schedule of tables of {seats.text()} where every two players "
                                     "meet exactly once exists only for a few numbers of players; use swiss (tables by "
                                     "score, no two players meeting twice where it can be avoided) or match")
    return out


def table_seats(settings: dict) -> tuple[int, int]:
    """The fewest and most players at one table of a round-robin or Swiss round: pairs, unless the game (with these
    options) cannot seat two, then the game's own range (its spec's seats for those options)."""
    seats = spec_for(settings["game"]).seats_for(settings["options"])
    return (2, 2) if seats.low <= 2 else (seats.low, seats.high)


def tables_check(settings: dict, players: list[dict]) -> None:
    """Whether the players make the tournament's tables (checked when round 1 starts); raises InvalidSetup."""
    decider = decider_for(settings["game"])
    fmt = settings["format"]
    if fmt == "match":
        tables = [players]
    elif fmt in ("round-robin", "swiss"):
        low, high = table_seats(settings)
        if len(players) < low:
            seats = spec_for(settings["game"]).seats_for(settings["options"])
            raise InvalidSetup("players", f"format {fmt} needs at least {low} players" + (
                "" if low == 2 else f": {spec_for(settings['game']).title} seats {seats.text()} at a table ({seats.clause})"))
        sizes = pairing.table_sizes(len(players), low, high)
        tables = [players[:size] for size in sorted(set(sizes))]
    else:
        teams = teams_of(players)
        tables = [[players[s] for s in pairing.team_round(teams, (0, 1), 0)]]
    for table in tables:
        try:
            decider.configure(settings["options"], [dict(p) for p in table], None, None)
        except InvalidSetup as e:
            raise InvalidSetup("players" if e.field == "players" else e.field,
                               f"a table of this tournament cannot be set: {e.reason}") from None


def teams_of(players: list[dict]) -> list[list[int]]:
    """The teams' members (player indices), in order of first entry; raises InvalidSetup unless every player names
    a team, there are at least two teams, all of one size of at least 2."""
    if not players or any("team" not in p for p in players):
        raise InvalidSetup("players", "format teams needs every player to name a team")
    names = list(dict.fromkeys(p["team"] for p in players))
    teams = [[i for i, p in enumerate(players) if p["team"] == t] for t in names]
    if len(teams) < 2 or len({len(t) for t in teams}) != 1 or len(teams[0]) < 2:
        raise InvalidSetup("players", "format teams needs at least two teams, all of one size, at least 2 players each")
    return teams


def rounds_of(settings: dict, n_players: int, teams: int = 0, team_size: int = 0) -> int:
    """How many rounds the tournament plays: given, or the format's own number."""
    fmt = settings["format"]
    if fmt == "match":
        return 1
    if fmt == "round-robin":
        return len(pairing.round_robin(n_players))
    if fmt == "swiss":
        return settings["rounds"] or max(1, math.ceil(math.log2(n_players)))
    full = len(pairing.round_robin(teams))  # teams: each pair of teams once, then again with seats turned
    return settings["rounds"] or (full if teams > 2 else team_size)


def games_per_table(settings: dict, table: list[dict]) -> int:
    """The games each table plays in a round: given, or the rulebook's match length (BA-5.2), or 1."""
    if settings["games_per_table"]:
        return settings["games_per_table"]
    spec = spec_for(settings["game"])
    if spec.match_games is None:
        return 1
    return spec.match_games(spec.decider.configure(settings["options"], [dict(p) for p in table], None, None))

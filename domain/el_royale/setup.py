"""El Royale set-up (ER-1, ER-4.4): players, teams, edition, battle limit — validated before any move."""

from __future__ import annotations

from dataclasses import dataclass

from ..kit.setup import Seated, options_object, seat_numbers
from ..players import player_name
from ..rules import InvalidSetup

EDITIONS = ("revised", "classic")
MAX_HOLDING = 16  # ER-5.1
HAND_SIZE = 4  # ER-2.1, ER-3.9


@dataclass(frozen=True)
class Setup(Seated):
    """A validated El Royale table: seat names, team of each seat (index into team_names) and options."""

    names: tuple[str, ...]
    team_names: tuple[str, ...] | None
    team_of: tuple[int, ...] | None
    edition: str = "revised"
    battle_limit: int | None = None
    dealer: int | None = None
    starter: int | None = None
    auto_pass: bool = False  # the service passes for a seat whose pass is forced in public view (auto_pass.py)

    @property
    def revised(self) -> bool:
        """Whether the revised edition's clauses apply."""
        return self.edition == "revised"

    def options(self) -> dict:
        """The options object of a record for this set-up."""
        out: dict = {"edition": self.edition}
        if self.battle_limit is not None:
            out["battle_limit"] = self.battle_limit
        if self.auto_pass:
            out["auto_pass"] = True
        return out

    def players(self) -> list[dict]:
        """The players list of a record for this set-up."""
        if self.team_of is None:
            return [{"name": n} for n in self.names]
        return [{"name": n, "team": self.team_names[t]} for n, t in zip(self.names, self.team_of)]


def configure(options: dict | None, players: list, dealer=None, starter=None) -> Setup:
    """Validate options and players (ER-1.1, ER-1.2 R, ER-4.4 R); raises InvalidSetup naming the field."""
    options = options_object(options, ("edition", "battle_limit", "auto_pass"), "El Royale")
    auto_pass = options.get("auto_pass", False)
    if not isinstance(auto_pass, bool):
        raise InvalidSetup("options.auto_pass", "must be true or false")
    edition = options.get("edition", "revised")
    if edition not in EDITIONS:
        raise InvalidSetup("options.edition", f"{edition!r} is not an edition: 'revised' or 'classic'")
    limit = options.get("battle_limit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
        raise InvalidSetup("options.battle_limit", "must be a positive integer (ER-4.4)")
    if not isinstance(players, list) or not 2 <= len(players) <= 8:
        raise InvalidSetup("players", "El Royale needs a list of 2 to 8 players (ER-1.1)")
    names, teams = [], []
    for i, p in enumerate(players):
        name = player_name(p, i)
        team = p.get("team")
        if team is not None and (not isinstance(team, str) or not team.strip() or len(team) > 64):
            raise InvalidSetup(f"players[{i}].team", "must be a non-empty string of at most 64 characters")
        names.append(name)
        teams.append(team)
    team_names, team_of = _teams(teams)
    seat_numbers(len(names), {"dealer": dealer, "starter": starter})
    return Setup(tuple(names), team_names, team_of, edition, limit, dealer, starter, auto_pass)


def _teams(teams: list) -> tuple[tuple[str, ...] | None, tuple[int, ...] | None]:
    """ER-1.2 R: all or none name a team; at least two teams of one size >= 2; interleaved seating."""
    named = [t is not None for t in teams]
    if not any(named):
        return None, None
    if not all(named):
        raise InvalidSetup("players", "either every player names a team or none does (ER-1.2)")
    team_names = tuple(dict.fromkeys(teams))
    sizes = {teams.count(t) for t in team_names}
    if len(team_names) < 2 or len(sizes) != 1 or sizes.pop() < 2:
        raise InvalidSetup("players", "teams must number at least two, all of the same size, at least 2 players each (ER-1.2)")
    n = len(teams)
    for seat in range(n):
        if teams[seat] == teams[(seat + 1) % n]:
            raise InvalidSetup("players", f"seat {seat} and seat {(seat + 1) % n} are partners sitting side by side: seating must be interleaved (ER-1.2)")
    return team_names, tuple(team_names.index(t) for t in teams)

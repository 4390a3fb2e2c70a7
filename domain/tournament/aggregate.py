"""The tournament aggregate (eventsourcing): settings, players, rounds with their tables and pairings, each table's
games with the dealer, starter and clause that decided them, and the end. Plain JSON-safe fields only.

The service (service/tournaments/facade.py) decides; this only records. A duplicate round's board seeds are kept here,
secret, like a game's seed in its Created event; only their commitments are ever shown, and a seed only once every
table of its board has finished.
"""

from __future__ import annotations

import copy
from types import MappingProxyType

from eventsourcing.domain import Aggregate


class Tournament(Aggregate):
    """A tournament (or a match: format `match`, one table) run by a director holding its token."""

    released: tuple = ()  # a tournament stored before boards could be released has none
    confirmed = MappingProxyType({})  # round (str) -> the open disputes its director started it with; assigned anew
    reviews: tuple = ()  # the director's word on pairings made on a result a ruling reopened (PairingsReviewed)
    deleted: bool = False  # (nor one stored before a director could delete one)

    class Created(Aggregate.Created):
        settings: dict
        director_token_hash: str
        director_public_key: str  # X25519, hex: each game's referee token is sealed to it (service/tournaments/sealing.py)

    class PlayerEntered(Aggregate.Event):
        name: str
        team: str | None

        def apply(self, t: "Tournament") -> None:
            t.players.append({"name": self.name} if self.team is None else {"name": self.name, "team": self.team})

    class RoundStarted(Aggregate.Event):
        number: int
        pairing: str  # how the tables were drawn: "match", "round-robin", "swiss", "teams"
        tables: list  # [{"table": t, "players": [player index per seat]}]
        byes: list  # player indices
        boards: list | None  # duplicate: [{"index": j, "commitment": hex}] (the same deal at every table)
        board_seeds: list | None  # duplicate: the secret seeds, in the order of `boards`

        def apply(self, t: "Tournament") -> None:
            t.rounds.append({"number": self.number, "pairing": self.pairing,
                             "tables": [{"table": x["table"], "players": list(x["players"]), "games": []} for x in self.tables],
                             "byes": list(self.byes), "boards": copy.deepcopy(self.boards)})
            if self.board_seeds is not None:
                t.board_seeds[self.number] = list(self.board_seeds)

    class OpenDisputesConfirmed(Aggregate.Event):
        """The director started round `round` although disputes of earlier rounds awaited a ruling (they are named:
        [{"round", "table", "game_id", "numbers"}]), with a note."""

        round: int
        disputes: list
        note: str

        def apply(self, t: "Tournament") -> None:
            t.confirmed = {**t.confirmed, str(self.round): {"disputes": copy.deepcopy(self.disputes), "note": self.note}}

    class PairingsReviewed(Aggregate.Event):
        """The director's word on round `round`, paired (Swiss) on results a ruling has since reopened (`games`):
        `keep` its pairings, citing a clause or a note."""

        round: int
        decision: str
        games: list
        clause: str
        note: str

        def apply(self, t: "Tournament") -> None:
            t.reviews = [*t.reviews, {"round": self.round, "decision": self.decision, "games": list(self.games),
                                      "clause": self.clause, "note": self.note}]

    class RoundRepaired(Aggregate.Event):
        """The director re-paired round `round` (the last, Swiss, none of its games begun) after a result it was paired
        on was reopened by a ruling and ended again: its tables and byes drawn anew; its games, which nobody had played,
        are `voided` (no longer the tournament's)."""

        round: int
        tables: list
        byes: list
        games: list  # the reopened games it had been paired on
        voided: list
        clause: str
        note: str

        def apply(self, t: "Tournament") -> None:
            rnd = t.rounds[self.round - 1]
            rnd["tables"] = [{"table": x["table"], "players": list(x["players"]), "games": []} for x in self.tables]
            rnd["byes"] = list(self.byes)
            rnd["voided"] = [*rnd.get("voided", []), *self.voided]
            t.reviews = [*t.reviews, {"round": self.round, "decision": "repair", "games": list(self.games),
                                      "clause": self.clause, "note": self.note, "voided": list(self.voided)}]

    class GameStarted(Aggregate.Event):
        round: int
        table: int
        index: int
        game_id: str
        dealer: int | None
        starter: int | None
        clause: str
        reason: str
        board: str | None
        sealed_referee_token: str

        def apply(self, t: "Tournament") -> None:
            table = t.rounds[self.round - 1]["tables"][self.table]
            table["games"].append({"index": self.index, "game_id": self.game_id, "dealer": self.dealer,
                                   "starter": self.starter, "clause": self.clause, "reason": self.reason, "board": self.board})
            t.sealed[self.game_id] = self.sealed_referee_token

    class BoardReleased(Aggregate.Event):
        """The director lifted a duplicate board's embargo before every table finished it (an abandoned table)."""

        board: str  # "round.game", as in RoundStarted's boards

        def apply(self, t: "Tournament") -> None:
            t.released = [*t.released, self.board]

    class Edited(Aggregate.Event):
        """The director changed the settings of a tournament not started yet (all of them, as validated again)."""

        settings: dict

        def apply(self, t: "Tournament") -> None:
            t.settings = copy.deepcopy(self.settings)

    class Deleted(Aggregate.Event):
        """The director deleted a tournament not started yet: it is no longer listed or shown."""

        def apply(self, t: "Tournament") -> None:
            t.deleted = True

    class Finished(Aggregate.Event):
        reason: str

        def apply(self, t: "Tournament") -> None:
            t.finished = self.reason

    def __init__(self, settings: dict, director_token_hash: str, director_public_key: str):
        self.settings = copy.deepcopy(settings)
        self.director_token_hash = director_token_hash
        self.director_public_key = director_public_key
        self.players: list[dict] = []
        self.rounds: list[dict] = []
        self.board_seeds: dict[int, list[str]] = {}
        self.sealed: dict[str, str] = {}
        self.finished: str | None = None
        self.released: list[str] = []  # duplicate boards whose finished games the director made public early

    def __deepcopy__(self, memo: dict) -> "Tournament":
        new = object.__new__(type(self))
        new.__dict__ = copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_pending_events"}, memo)
        new.__dict__["_pending_events"] = list(self.__dict__.get("_pending_events", []))
        return new

    # commands (the service validated them; each triggers one event)
    def enter(self, name: str, team: str | None) -> None:
        self.trigger_event(Tournament.PlayerEntered, name=name, team=team)

    def start_round(self, pairing: str, tables: list, byes: list, boards: list | None, board_seeds: list | None) -> None:
        self.trigger_event(Tournament.RoundStarted, number=len(self.rounds) + 1, pairing=pairing, tables=tables,
                           byes=byes, boards=boards, board_seeds=board_seeds)

    def confirm_open_disputes(self, number: int, disputes: list, note: str) -> None:
        self.trigger_event(Tournament.OpenDisputesConfirmed, round=number, disputes=disputes, note=note)

    def review_pairings(self, number: int, decision: str, games: list, clause: str, note: str) -> None:
        self.trigger_event(Tournament.PairingsReviewed, round=number, decision=decision, games=games, clause=clause,
                           note=note)

    def repair_round(self, number: int, tables: list, byes: list, games: list, voided: list, clause: str,
                     note: str) -> None:
        self.trigger_event(Tournament.RoundRepaired, round=number, tables=tables, byes=byes, games=games, voided=voided,
                           clause=clause, note=note)

    def game_started(self, **fields) -> None:
        self.trigger_event(Tournament.GameStarted, **fields)

    def release_board(self, board: str) -> None:
        self.trigger_event(Tournament.BoardReleased, board=board)

    def edit(self, settings: dict) -> None:
        self.trigger_event(Tournament.Edited, settings=settings)

    def delete(self) -> None:
        self.trigger_event(Tournament.Deleted)

    def finish(self, reason: str) -> None:
        self.trigger_event(Tournament.Finished, reason=reason)

    # reading
    def games(self) -> list[dict]:
        """Every game started, in order, with its round, table and seating (player index per seat)."""
        out = []
        for r in self.rounds:
            for t in r["tables"]:
                for g in t["games"]:
                    out.append({**g, "round": r["number"], "table": t["table"], "players": list(t["players"])})
        return out

"""Tournaments: the facade section the API, the CLI and the pages call (simple types in and out).

Every command loads the tournament aggregate (domain/tournament/aggregate.py), decides with the pure rules of
domain/tournament (the spec, pairings, seat rotation, standings) and the games' own `next_deal`, and saves.
Games are created through the play facade (`PlayFacade.create_game`), like any other game (receipts, catalogue, evidence), with the
tournament's spectator delay and time control in their spec.

The next game of a table is created as soon as the previous one is seen to be over: `advance` runs on every read
of the tournament (anyone's), so nobody has to ask for it; with `auto_rounds` the end of a round's last game draws
the next round the same way. Each game's referee token is sealed to the director's
public key (service/tournaments/sealing.py): the director alone can give out a game's links again.

Over 300 lines on purpose: the facade section of one aggregate, whose commands share its load (through the store's
unit of work) and the director's check; a round's draw (draw.py) and the bundle's lines (bundles.py) are apart.
"""

from __future__ import annotations

import copy
import hmac
from collections import defaultdict
from typing import Any, Callable, Iterator, TypeVar
from uuid import UUID

from domain.games import spec_for
from domain.randomness import commitment, new_seed
from domain.rules import InvalidSetup
from domain.tournament import spec as tspec
from domain.tournament.aggregate import Tournament
from projections.standings import doc_crosstable, doc_standings

from service.adapters.standings_store import Standings
from service.errors import BadInput, Conflict, Forbidden, NotFound, Unauthorized
from service.access import Access
from service.play.referee import Referee
from service.play.facade import PlayFacade
from service.store.tokens import new_token, token_hash
from service.views.facade import ViewsFacade

from . import embargo, rulings, sealing, setup
from .bundles import bundle_lines
from .commands import CreateTournament
from .draw import draw
from .duty import TournamentDuty
from service.play.new_games import CreateGame

T = TypeVar("T")


def parse_tournament_id(value: Any) -> UUID:
    try:
        return UUID(str(value))
    except ValueError:
        raise NotFound(f"no tournament with id {str(value)[:60]!r}") from None


class Tournaments:
    """Tournament use cases over one store (the Referee application stores the tournaments too), built once by the
    composition root (service.facade.Arbiter.tournaments)."""

    def __init__(self, app: Referee, play: PlayFacade, views: ViewsFacade, access: Access):
        self.app, self.play, self.views = app, play, views
        self._standings: Standings | None = None
        play.game_over_listeners.append(self.game_over)
        self.duty = play.duty  # the process's duty loop: the lease holder creates what falls due (duty.py)
        self.duty.add(TournamentDuty(self))
        # a duplicate board's games: no spectators, their end kept from their seats, until every table is over
        access.holds.append(embargo.BoardEmbargo(self._caught_up, access.created))

    # -- loading and access ------------------------------------------------------------------

    def _load(self, tid: UUID) -> Tournament:
        t = self.app.aggregate_of(Tournament, tid, "tournament")
        if t.deleted:
            raise NotFound(f"no tournament with id {tid}: its director deleted it")
        return t

    def _director(self, tournament_id: Any, token: str | None) -> tuple[UUID, str]:
        """The tournament's id and the director token's secret; raises 401/403/404."""
        tid = parse_tournament_id(tournament_id)
        t = self._load(tid)
        if token is None:
            raise Unauthorized("the director's bearer token is required")
        if not isinstance(token, str) or len(token) > 200 or "." not in token:
            raise Unauthorized("the bearer token is malformed")
        prefix, secret = token.split(".", 1)
        if prefix != tid.hex:
            raise Forbidden("this token is not this tournament's director token")
        if not hmac.compare_digest(token_hash(secret), t.director_token_hash):
            raise Unauthorized("the bearer token is not this tournament's director token")
        return tid, secret

    def _command(self, tid: UUID, decide: Callable[[Tournament], T]) -> T:
        """Run `decide` on the tournament through the store's unit of work."""
        return self.app.command(tid, lambda uow: decide(uow.aggregate), load=self._load, what=f"tournament {tid}")

    # -- commands ----------------------------------------------------------------------------

    def create(self, command: CreateTournament) -> dict:
        """Create a tournament (as the command checked it): its id, the director's token (shown once) and its view."""
        secret = new_token()
        t = Tournament(settings=dict(command.settings), director_token_hash=token_hash(secret),
                       director_public_key=sealing.public_key(secret))
        for p in command.players:
            t.enter(p.name, p.team)
        self.app.save(t)
        return {"id": str(t.id), "director_token": f"{t.id.hex}.{secret}", "tournament": self.view(t.id)}

    def enter(self, tournament_id: Any, token: str | None, player: Any) -> dict:
        """Enter one player ({"name", "team"?} or a name) before round 1 starts."""
        tid, _ = self._director(tournament_id, token)
        try:
            new = tspec.players_of([player], "player")[0]
        except InvalidSetup as e:
            raise BadInput(str(e).replace("player[0]", "player"), field="player") from None

        def body(t: Tournament) -> None:
            if t.rounds:
                raise Conflict("round 1 has started: no more players can be entered")
            if any(p["name"] == new["name"] for p in t.players):
                raise BadInput(f"player: {new['name']!r} is already entered", field="player.name")
            if len(t.players) >= tspec.MAX_PLAYERS:
                raise BadInput(f"player: a tournament holds at most {tspec.MAX_PLAYERS} players", field="player")
            t.enter(new["name"], new.get("team"))

        self._command(tid, body)
        return self.view(tid)

    def edit(self, tournament_id: Any, token: str | None, changes: dict) -> dict:
        """Change the settings of a tournament whose round 1 has not started (director only): service/tournaments/setup.py."""
        tid, _ = self._director(tournament_id, token)
        self._command(tid, lambda t: setup.edit(t, changes))
        return self.view(tid)

    def delete(self, tournament_id: Any, token: str | None) -> None:
        """Delete a tournament whose round 1 has not started (director only): service/tournaments/setup.py."""
        tid, _ = self._director(tournament_id, token)
        self._command(tid, setup.delete)

    def start_round(self, tournament_id: Any, token: str | None, confirm: bool = False, note: Any = None) -> dict:
        """Draw the next round's tables (pairings) and start their first games, in one save: the answer (and the page
        after it) shows them whichever process holds the tournament's lease. Disputes of earlier rounds awaiting a
        ruling refuse it (409, field `confirm`, naming them) unless `confirm`, which is recorded (rulings.py)."""
        tid, _ = self._director(tournament_id, token)
        note_text = rulings.note_of(note)
        self.advance(tid)
        made: dict = {}  # games an earlier try of this decision created: a conflict's retry attaches them (_new_game)

        def body(t: Tournament) -> None:
            if t.finished:
                raise Conflict("the tournament is over")
            if t.rounds and not self._round_done(t, t.rounds[-1]):
                raise Conflict(f"round {len(t.rounds)} is still being played: every table must finish first")
            waiting = rulings.open_disputes(self.app, t)
            if waiting and not confirm:
                raise rulings.unconfirmed(len(t.rounds) + 1, waiting)
            if waiting:
                t.confirm_open_disputes(len(t.rounds) + 1, waiting, note_text)
            self._start_next(t)
            self._first_games(t, made)

        self._command(tid, body)
        return self.view(tid)

    def review_pairings(self, tournament_id: Any, token: str | None, number: Any, decision: Any, clause: Any = None,
                        note: Any = None) -> dict:
        """The director keeps a round's pairings made on a result a ruling reopened, or re-pairs the round (rulings.py),
        citing a clause or a note: recorded on the tournament."""
        tid, _ = self._director(tournament_id, token)
        if not isinstance(number, int) or isinstance(number, bool):
            raise BadInput("round: expected a round number", field="round")
        made: dict = {}

        def body(t: Tournament) -> None:
            doc = self._doc(t)
            flagged, clause_text, note_text = rulings.review(t, doc, number, decision, clause, note)
            if decision == "repair":
                voided = rulings.repair_check(self.app, t, flagged)
                before = copy.deepcopy(t)
                before.rounds = before.rounds[:-1]  # the draw as if the round had not been drawn
                without = {**doc, "byes": [b for b in doc["byes"] if b[0] != number],
                           "games": [g for g in doc["games"] if g["game_id"] not in voided]}
                tables, byes, _ = draw(before, number, lambda: doc_standings(without))
                t.repair_round(number, tables, byes, [g["game_id"] for g in flagged["games"]], voided, clause_text,
                               note_text)
                self._first_games(t, made)

        self._command(tid, body)
        return self.view(tid)

    def release_board(self, tournament_id: Any, token: str | None, board: Any) -> dict:
        """Make a duplicate board's finished games public before every table has finished it (an abandoned table;
        director only): service/tournaments/embargo.py."""
        tid, _ = self._director(tournament_id, token)
        self._command(tid, lambda t: embargo.release(t, board))
        return self.view(tid)

    def _start_next(self, t: Tournament) -> None:
        """Draw the next round's tables into `t` (its first games are created by `advance`)."""
        players = t.players
        try:
            tspec.tables_check(t.settings, players)
            total = self._total_rounds(t)
        except InvalidSetup as e:
            raise BadInput(str(e), field=e.field) from None
        if len(t.rounds) >= total:
            raise Conflict(f"all {total} rounds have been played")
        tables, byes, kind = draw(t, len(t.rounds) + 1, lambda: doc_standings(self._doc(t)))
        boards = seeds = None
        if t.settings["duplicate"]:
            per = tspec.games_per_table(t.settings, [players[i] for i in tables[0]["players"]])
            seeds = [new_seed() for _ in range(per)]
            boards = [{"index": j, "board": f"{len(t.rounds) + 1}.{j + 1}", "commitment": commitment(s)}
                      for j, s in enumerate(seeds)]
        t.start_round(kind, tables, byes, boards, seeds)

    def _first_games(self, t: Tournament, made: dict) -> None:
        """Create the first game of every table of the last round that has none (in the decision that drew it)."""
        rnd = t.rounds[-1]
        for table in rnd["tables"]:
            if not table["games"]:
                self._new_game(t, rnd, table, 0, None, made)

    def _total_rounds(self, t: Tournament) -> int:
        teams = tspec.teams_of(t.players) if t.settings["format"] == "teams" else []
        return tspec.rounds_of(t.settings, len(t.players), len(teams), len(teams[0]) if teams else 0)

    def _round_done(self, t: Tournament, rnd: dict) -> bool:
        for table in rnd["tables"]:
            per = tspec.games_per_table(t.settings, [t.players[i] for i in table["players"]])
            if len(table["games"]) < per:
                return False
            if not self.app.game(UUID(table["games"][-1]["game_id"])).outcome.is_over:
                return False
        return True

    def advance(self, tournament_id: Any) -> None:
        """Create every game that is due (a table's first game, or its next once the previous is over) and end the
        tournament after its last round. Safe to call at any time, by anyone: it only does what the rules say, and
        only in the process holding the tournament's lease (taken here when free; service/tournaments/duty.py), so
        two hosts that see a round end do not both draw the next. A lease taken here is given back at once (the
        duty loop keeps its own): a read of an unknown or finished tournament takes none."""
        tid = parse_tournament_id(tournament_id)
        t = self._load(tid)  # NotFound before any lease
        if t.finished or not t.rounds:
            return
        leases = self.duty.leases
        held_before = tid in leases.held
        if not leases.holds(tid):
            return  # another host holds it: its duty loop creates what is due
        try:
            self._advance(tid)
        finally:
            if not held_before:
                leases.release(tid)

    def _advance(self, tid: UUID) -> None:
        t = self._load(tid)
        if t.finished or not t.rounds:
            return
        rnd = t.rounds[-1]
        due = []
        for table in rnd["tables"]:
            per = tspec.games_per_table(t.settings, [t.players[i] for i in table["players"]])
            games = table["games"]
            if len(games) >= per:
                continue
            if games:
                previous = self.app.game(UUID(games[-1]["game_id"]))
                if not previous.outcome.is_over:
                    continue
                due.append((table, len(games), previous))
            else:
                due.append((table, 0, None))
        over = not due and self._round_done(t, rnd)
        last = len(t.rounds) >= self._total_rounds(t)
        if not due and not over:
            return
        if over and not last and not t.settings.get("auto_rounds"):
            return  # the director starts the next round

        made: dict = {}  # games created by an earlier try of this decision (see _new_game)

        def body(t: Tournament) -> None:
            rnd = t.rounds[-1]
            for table_ref, index, previous in due:
                table = rnd["tables"][table_ref["table"]]
                if len(table["games"]) != index:
                    continue  # someone else created it meanwhile
                self._new_game(t, rnd, table, index, previous, made)
            if t.finished or not self._round_done(t, rnd):
                return
            if len(t.rounds) >= self._total_rounds(t):
                t.finish(f"all {len(t.rounds)} rounds played")
                return
            if not t.settings.get("auto_rounds") or rulings.open_disputes(self.app, t):
                return  # the director starts it (over open disputes: confirming them, rulings.py)
            try:
                self._start_next(t)  # the last game of the round ended: the next round starts at once
            except (BadInput, Conflict):
                return  # the director sees the reason on pressing "Start round"
            self._first_games(t, made)

        self._command(tid, body)

    def game_over(self, game_id: UUID) -> None:
        """A game just ended: if it belongs to a tournament, create what is now due there (the table's next game,
        the end of the tournament) at once, instead of on the next read."""
        owner = self._caught_up().tournament_of(game_id)
        if owner is not None:
            self.advance(owner)

    def _new_game(self, t: Tournament, rnd: dict, table: dict, index: int, previous: Any, made: dict) -> None:
        """Create a table's game (as the spec and the previous game say) and record it on `t`. The game is saved before
        the tournament: when the tournament's save then meets a version conflict, the unit of work decides again and
        this is called again for the same table and game, which takes the game made by the first try from `made`
        instead of creating a second one left attached to nothing."""
        seed = t.board_seeds[rnd["number"]][index] if rnd["boards"] else None
        slot = (rnd["number"], table["table"], index, tuple(table["players"]), seed)  # a retry drawing anew: a new game
        if slot in made:
            started = made[slot]
            t.game_started(**started)
            return
        settings = t.settings
        seats = [dict(t.players[i]) for i in table["players"]]
        spec: dict = {"game": settings["game"], "options": dict(settings["options"]), "players": seats}
        board = None
        if rnd["boards"]:
            board = rnd["boards"][index]["board"]
            spec["seed"] = t.board_seeds[rnd["number"]][index]
            dealer = starter = None
            clause, reason = "duplicate", f"board {board}: the same seed, dealer and starter at every table"
        else:
            next_deal = spec_for(settings["game"]).next_deal
            if next_deal is None:
                dealer = starter = None
                clause, reason = "-", "drawn from the game's seed"
            else:
                nd = next_deal(previous.setup, previous.state) if previous is not None else next_deal(None, None)
                dealer, starter, clause, reason = nd.dealer, nd.starter, nd.clause, nd.reason
        spec["dealer"], spec["starter"] = dealer, starter
        for key in ("spectator_delay", "time_control"):
            if settings.get(key):
                spec[key] = dict(settings[key])
        created = self.play.create_game(CreateGame.from_body(spec))
        made[slot] = dict(round=rnd["number"], table=table["table"], index=index, game_id=created["id"], dealer=dealer,
                          starter=starter, clause=clause, reason=reason, board=board,
                          sealed_referee_token=sealing.seal(t.director_public_key, created["id"], created["referee_token"]))
        t.game_started(**made[slot])

    # -- queries -----------------------------------------------------------------------------

    def _doc(self, t: Tournament) -> dict:
        """The standings document of a tournament, from the materialised projection (caught up first)."""
        doc = self._caught_up().get(str(t.id))
        if doc is None or doc.get("deleted"):
            raise NotFound(f"no tournament with id {t.id}")
        return doc

    def _caught_up(self) -> Standings:
        if self._standings is None:
            self._standings = Standings.for_app(self.app)
        self._standings.catch_up()
        return self._standings

    def standings(self, tournament_id: Any) -> dict:
        tid = parse_tournament_id(tournament_id)
        self.advance(tid)
        return doc_standings(self._doc(self._load(tid)))

    def formats(self) -> list[dict]:
        """The formats a tournament can be played in: [{"id", "text"}] (the creation form's choices)."""
        return [{"id": f, "text": tspec.FORMAT_TEXT[f]} for f in tspec.FORMATS]

    def list(self) -> list[dict]:
        """Every tournament: id, name, game, format, players, status."""
        return [{"id": d["id"], "name": d["settings"]["name"], "game": d["settings"]["game"],
                 "format": d["settings"]["format"], "players": len(d["players"]),
                 "status": "finished" if d["finished"] else ("playing" if d["games"] or d["rounds"] else "entering")}
                for d in self._caught_up().tournaments() if not d.get("deleted")]

    def view(self, tournament_id: Any, with_clocks: bool = True) -> dict:
        """The tournament as anyone may see it: settings, players, rounds with tables, pairings and games (status,
        result, dealer, starter, the clause that decided them, clocks where the game view carries them), board
        commitments (a board's seed once every table of it has finished) and the standings."""
        tid = parse_tournament_id(tournament_id)
        self.advance(tid)
        t = self._load(tid)
        doc = self._doc(t)
        names = [p["name"] for p in t.players]
        rounds, waiting = [], []
        for r in t.rounds:
            tables, board_done = [], defaultdict(lambda: True)
            for table in r["tables"]:
                games = []
                for g in table["games"]:
                    game = self.app.game(UUID(g["game_id"]))
                    outcome = game.outcome
                    entry = {**g, "status": "finished" if outcome.is_over else "in_progress", "result": outcome.result,
                             "winner": outcome.winner_json(), "scores": list(outcome.scores) if outcome.is_over and outcome.scores else None,
                             "version": game.version, "commitment": game.commitment,
                             # ended, then returned to play by a ruling's rewind: played again at its table
                             "reopened": game.seed_revealed and not outcome.is_over,
                             "provisional": bool((doc["outcomes"].get(g["game_id"]) or {}).get("provisional"))}
                    numbers = [d["number"] for d in game.disputes if d.get("ruling") is None]
                    if numbers:
                        waiting.append({"round": r["number"], "table": table["table"], "game_id": g["game_id"],
                                        "numbers": numbers})
                    if with_clocks:
                        entry.update(self.views.at_a_glance(g["game_id"]))
                    if g["board"] is not None and not outcome.is_over:
                        board_done[g["board"]] = False
                    games.append(entry)
                tables.append({"table": table["table"], "players": [{"player": i, "name": names[i], "team": t.players[i].get("team")}
                                                                   for i in table["players"]], "games": games})
            boards = None
            if r["boards"]:
                seeds = t.board_seeds.get(r["number"], [])
                boards = [{**b, "released": b["board"] in t.released,
                           "seed": seeds[j] if board_done[b["board"]] and len(tables) and all(
                    any(g["board"] == b["board"] for g in tb["games"]) for tb in tables) else None}
                          for j, b in enumerate(r["boards"])]
            rounds.append({"number": r["number"], "pairing": r["pairing"], "byes": [names[i] for i in r["byes"]],
                           "boards": boards, "tables": tables,
                           "reopened": sum(1 for tb in tables for g in tb["games"] if g["reopened"]),
                           "confirmed_open_disputes": t.confirmed.get(str(r["number"])),
                           "voided": list(r.get("voided", ()))})  # games of a round drawn anew (RoundRepaired)
        try:
            total = self._total_rounds(t) if t.players else None
        except InvalidSetup:
            total = None
        status = "finished" if t.finished else ("playing" if t.rounds else "entering")
        between = bool(t.rounds) and not t.finished and self._round_done(t, t.rounds[-1])
        can_start = (not t.finished and (not t.rounds or between) and (total is None or len(t.rounds) < total))
        table = doc_standings(doc)
        return {"open_disputes": waiting, "pairings_to_review": rulings.to_review(doc, t),
                "pairings_reviewed": [dict(x) for x in t.reviews],
                "id": str(tid), **{k: v for k, v in t.settings.items()}, "players": [dict(p) for p in t.players],
                "status": status, "finished": t.finished, "rounds_given": t.settings["rounds"], "rounds_total": total, "can_start_round": can_start,
                "between_rounds": between, "rounds": rounds, "standings": table,
                "crosstable": doc_crosstable(doc, [r["player"] for r in table["players"]])}

    def seatings(self, tournament_id: Any) -> dict:
        """Its id, name and game, and every game started: id, round, table and the player's name at each seat (the
        fair-play report's input, service/fairplay); raises NotFound."""
        tid = parse_tournament_id(tournament_id)
        t = self._load(tid)
        names = [p["name"] for p in t.players]
        return {"id": str(tid), "name": t.settings["name"], "game": t.settings["game"],
                "games": [{"game_id": g["game_id"], "round": g["round"], "table": g["table"],
                           "names": [names[i] for i in g["players"]]} for g in t.games()]}

    def links(self, tournament_id: Any, token: str | None) -> dict:
        """The director's keys to every game: each game's referee token and its seats' tokens (as a game's links page)."""
        tid, secret = self._director(tournament_id, token)
        t = self._load(tid)
        out = []
        for g in t.games():
            referee = sealing.open_box(secret, g["game_id"], t.sealed[g["game_id"]])
            links = self.play.links(g["game_id"], referee)
            out.append({"round": g["round"], "table": g["table"], "index": g["index"], "game_id": g["game_id"],
                        "referee_token": links["referee_token"], "seats": links["seats"]})
        return {"id": str(tid), "games": out}

    def bundle(self, tournament_id: Any, token: str | None = None) -> Iterator[str]:
        """The whole tournament as JSON Lines: a header line (format arbiter.tournament/1: settings, players, rounds,
        standings), then every game's arbiter.record/1 record. The director's at any time; anyone's once over."""
        tid = parse_tournament_id(tournament_id)
        view = self.view(tid, with_clocks=False)
        referee_tokens: dict[str, str] = {}
        if token is not None:
            links = self.links(tid, token)
            referee_tokens = {g["game_id"]: g["referee_token"] for g in links["games"]}
        elif view["status"] != "finished":
            raise Forbidden("the bundle is the director's until the tournament is over")
        records = [self.views.record(g["game_id"], referee_tokens.get(g["game_id"]))
                   for r in view["rounds"] for table in r["tables"] for g in table["games"]]
        return bundle_lines(view, records)

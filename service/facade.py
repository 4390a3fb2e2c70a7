"""The facade of simple types (str, int, dict, list) that the HTTP API, the CLI and the web pages call.

Nothing outside this module touches an aggregate. Tokens are checked here: a
seat token acts only for its seat, the referee token sees everything, no token
is a spectator. A token is `<game id hex>.<secret>` and is bound to its game: it
is good only where its prefix names the game, so a token presented to another
game is recognised (403) rather than merely unknown (401), and another game's id
in front of this game's secret is no token of this game (401); only the
secret's SHA-256 is stored.

Positions in queries (a version, an `after`, an offset) are integers from 0 to
MAX_POSITION: no game's log and no catalogue comes near it, and every store's
integer columns hold it.
"""

from __future__ import annotations

import hmac
import logging
import os
import threading
from typing import Any, Callable
from uuid import UUID

from domain import json_limits
from domain.audit import event_hash
from domain.game import Game
from projections.viewers import REFEREE, SPECTATOR, Viewer

from .application import Referee, token_hash
from .evidence import Evidence
from .feed import Feed, as_entries
from .errors import BadInput, Forbidden, NotFound, Unauthorized
from .records import InvalidRecord, export_file, verify_file  # noqa: F401  (offline records, for the CLI)
from .archives import is_archive, verify_archive  # noqa: F401  (record archives, for the CLI)
from .balance import ReportError, balance_report, report_of  # noqa: F401  (balance reports, for the CLI)
from .simulation import BotMoveError, PlanError, RecordSink, default_workers, make_plan, run as simulate  # noqa: F401
from .stores import DEFAULT_URL
from .clocks import ClockWatch, server_ms
from .spectator_delay import Cut, spectator_cut
from .integrity import report_ok, verify_game
from .verification import check_evidence, game_ids, reverify

MAX_TOKEN = 200
MAX_POSITION = 2**31 - 1


def _position(value: Any, name: str, least: int = 0) -> int:
    """A version, `after` or offset from a caller; raises BadInput naming it unless an integer in [least, MAX_POSITION]."""
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= MAX_POSITION:
        raise BadInput(f"{name}: must be an integer from {least} to {MAX_POSITION}", field=name)
    return value


def parse_game_id(game_id: Any) -> UUID:
    """A game id from a path; raises NotFound for anything that is not one."""
    try:
        return UUID(str(game_id))
    except ValueError:
        raise NotFound(f"no game with id {str(game_id)[:60]!r}") from None


class Arbiter:
    """arbiter's use cases in simple types."""

    def __init__(self, database_url: str | None = None, key_file: str | None = None, checkpoint_log: str | None = None,
                 checkpoint_every: int | None = None):
        url = database_url or os.environ.get("ARBITER_DATABASE_URL") or DEFAULT_URL
        self.app = Referee(url)
        self.evidence = Evidence.configured(self.app, url, key_file, checkpoint_log, checkpoint_every)
        self._catalogue = None
        self._hashes: dict[UUID, tuple[str, list[str]]] = {}
        self._first_events: dict[UUID, Game.Created] = {}  # each game's first event (it never changes), kept per process
        self._feed: Feed | None = None  # the process's follower of the notification log, started by the first subscriber
        self._feed_guard = threading.Lock()
        self._clock_watch: ClockWatch | None = None
        # called with a game's id right after a move (through this process) ended it: what runs games in series
        # (service.tournaments) creates the next one at once; a failing listener never fails the move
        self.game_over_listeners: list[Callable[[UUID], None]] = []

    # -- access ------------------------------------------------------------------------------

    def _token_hashes(self, gid: UUID) -> tuple[str, list[str]]:
        """A game's stored token hashes (they never change: kept per process after the first load)."""
        hashes = self._hashes.get(gid)
        if hashes is None:  # from the Created event alone: a game damaged further on can still be verified
            created = self._created_event(gid)
            hashes = self._hashes[gid] = (created.referee_token_hash, list(created.seat_token_hashes))
        return hashes

    def _created_event(self, gid: UUID) -> Game.Created:
        """A game's Created event (read once per process: stored events never change); raises NotFound."""
        created = self._first_events.get(gid)
        if created is None:
            created = next(iter(self.app.read_events(gid, lte=1)), None)
            if not isinstance(created, Game.Created):  # none, or another stream's id (a game's attempts)
                raise NotFound(f"no game with id {gid}")
            self._first_events[gid] = created
        return created

    def viewer(self, game_id: Any, token: str | None) -> Viewer:
        """Who a token is for this game: a seat, the referee, or (no token) a spectator."""
        gid = parse_game_id(game_id)
        referee_hash, seat_hashes = self._token_hashes(gid)
        if token is None:
            return SPECTATOR
        if not isinstance(token, str) or len(token) > MAX_TOKEN or "." not in token:
            raise Unauthorized("the bearer token is malformed")
        prefix, secret = token.split(".", 1)
        digest = token_hash(secret)
        if not hmac.compare_digest(prefix.encode(), gid.hex.encode()):  # a token is bound to the game it names
            if self._token_of_another_game(prefix, digest):
                raise Forbidden("this token belongs to another game")
            raise Unauthorized("the bearer token is not valid for this game: it names another game")
        if hmac.compare_digest(digest, referee_hash):
            return REFEREE
        for seat, stored in enumerate(seat_hashes):
            if hmac.compare_digest(digest, stored):
                return Viewer.of_seat(seat)
        raise Unauthorized("the bearer token is not valid for this game")

    def _token_of_another_game(self, prefix: str, digest: str) -> bool:
        try:
            other = self.app.game(UUID(hex=prefix))
        except (ValueError, NotFound):
            return False
        hashes = [other.referee_token_hash, *other.seat_token_hashes]
        return any(hmac.compare_digest(digest, h) for h in hashes)

    def _seat(self, game_id: Any, token: str | None) -> tuple[UUID, int]:
        viewer = self._known(game_id, token)
        if viewer.role != "seat":
            raise Forbidden("only a seat token may do this")
        return parse_game_id(game_id), viewer.seat

    def _referee(self, game_id: Any, token: str | None) -> UUID:
        viewer = self._known(game_id, token)
        if viewer.role != "referee":
            raise Forbidden("only the referee token may do this")
        return parse_game_id(game_id)

    def _known(self, game_id: Any, token: str | None) -> Viewer:
        if token is None:
            self.app.game(parse_game_id(game_id))  # 404 before 401
            raise Unauthorized("a bearer token is required")
        return self.viewer(game_id, token)

    def _spectator_cut(self, gid: UUID) -> Cut | None:
        """Where a spectator of this game stands (service.spectator_delay), or None when spectators are not delayed."""
        delay = getattr(self._created_event(gid), "spectator_delay", None)
        if not delay:
            return None
        return spectator_cut(self.app.stored_events(gid), delay, server_ms())

    def watch_clocks(self) -> ClockWatch:
        """Start (once) this process's watcher of time controls (service.clocks), which flags seats out of time."""
        with self._feed_guard:
            if self._clock_watch is None:
                self._clock_watch = ClockWatch(self.app).start()
        return self._clock_watch

    # -- commands ----------------------------------------------------------------------------

    def create_game(self, spec: Any) -> dict:
        """Create a game: its id, each seat's private token, the referee token and the seed's commitment."""
        started = self.app.create_game(spec)
        created = self._created(started)
        game = started["game"]
        created["receipt"] = self.evidence.answer(game.id, 1, game.version, "created", game.chain_head)
        return created

    def links(self, game_id: Any, token: str | None) -> dict:
        """The referee's creation answer again (each seat's token, the referee's, the commitment), for the referee
        only; a seat whose token is not derived from the referee's (a game created before they were) has token None."""
        from .application import seat_token

        gid = self._referee(game_id, token)
        game = self.app.game(gid)
        secret = token.split(".", 1)[1]
        tokens = [seat_token(secret, seat) for seat in range(len(game.players))]
        tokens = [t if hmac.compare_digest(token_hash(t), stored) else None for t, stored in zip(tokens, game.seat_token_hashes)]
        return self._created({"game": game, "tokens": tokens, "referee_token": secret})

    def _created(self, started: dict) -> dict:
        game = started["game"]
        prefix = game.id.hex
        seats = [{"seat": i, "name": p["name"], "team": p.get("team"), "token": f"{prefix}.{t}" if t else None}
                 for i, (p, t) in enumerate(zip(game.players, started["tokens"]))]
        return {"id": str(game.id), "seats": seats, "referee_token": f"{prefix}.{started['referee_token']}",
                "commitment": game.commitment, "stacked": game.stacked, "version": game.version, "chain_head": game.chain_head}

    def move(self, game_id: Any, token: str | None, body: Any) -> dict:
        """A seat's move in record shape (minus seat), with optional expected_version and idempotency key."""
        gid, seat = self._seat(game_id, token)
        if not isinstance(body, dict):
            raise BadInput("a move is a JSON object with a type", field="type")
        _bounded(body)
        move = {k: v for k, v in body.items() if k not in ("expected_version", "idempotency_key", "seat")}
        if "seat" in body and body["seat"] != seat:
            raise Forbidden(f"this token acts for seat {seat} only")
        expected = body.get("expected_version")
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            raise BadInput("expected_version: must be an integer", field="expected_version")
        key = body.get("idempotency_key")
        if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 200):
            raise BadInput("idempotency_key: must be a string of 1 to 200 characters", field="idempotency_key")
        result = self.app.submit_move(gid, seat, move, expected, key and f"{seat}:{key}")
        first = result["first_version"]
        last = result["version"]
        if result["replayed"]:  # the same events as the first answer, up to the next move or rejection, from the store
            last = self._move_end(gid, first)
            events = self._log_tail(gid, Viewer.of_seat(seat), first - 1, last, ended=False)
            receipt = self.evidence.receipt(gid, last)
        else:  # the events just saved, as the seat may see them (no read of the store)
            events = self._log_of(gid, Viewer.of_seat(seat), result["events"], first - 1, ended=False)
            ended = any(e["type"] == "seed_revealed" for e in events)
            receipt = self.evidence.answer(gid, first, last, "end" if ended else None, result["chain_head"])
            if ended:
                self._game_over(gid)
        return {"version": last, "events": events, "replayed": result["replayed"], "receipt": receipt}

    def _game_over(self, gid: UUID) -> None:
        for listener in list(self.game_over_listeners):
            try:
                listener(gid)
            except Exception:  # noqa: BLE001 - the move is stored and answered whatever a listener meets
                logging.getLogger("arbiter").exception("after game %s ended, %r failed", gid, listener)

    def _move_end(self, gid: UUID, first: int) -> int:
        """The version of a move's last event (its own and the automatic ones that followed it)."""
        last = first
        for e in self.app.read_events(gid, gt=first):
            if getattr(e, "actor", "engine") != "engine" or not hasattr(e, "kind"):
                break
            last = e.originator_version
        return last

    def _log_tail(self, gid: UUID, viewer: Viewer, after: int, upto: int | None = None, ended: bool = False) -> list[dict]:
        """The log entries after `after` (up to `upto`), reading only those rows (and the Created event once)."""
        return self._log_of(gid, viewer, self.app.read_events(gid, gt=max(after, 1), lte=upto), after, ended)

    def _log_of(self, gid: UUID, viewer: Viewer, tail: list, after: int, ended: bool) -> list[dict]:
        """The log entries of `tail` (a game's events after version 1) after `after`, as `viewer` may see them."""
        from projections.views import event_log

        disclosed = viewer.is_referee or ended or any(isinstance(e, Game.SeedRevealed) for e in tail)
        attempts = self.app.stored_attempts(gid) if disclosed else ()
        return event_log([self._created_event(gid), *tail], viewer, after=after, ended=ended, attempts=attempts)

    def file_dispute(self, game_id: Any, token: str | None, body: Any) -> dict:
        """A seat disputes the move at a version (`{version, claim}`) or the refusal of its own attempt (`{attempt, claim}`)."""
        gid, seat = self._seat(game_id, token)
        body = body if isinstance(body, dict) else {}
        _bounded(body)
        dispute = self.app.file_dispute(gid, seat, body.get("version"), body.get("claim"), body.get("attempt"))
        return {**dispute, "receipt": self.evidence.answer(gid, dispute["filed_at"], dispute["filed_at"])}

    def name_seat(self, game_id: Any, token: str | None, name: Any) -> dict:
        """A seat gives the name it plays under: {seat, name, version}."""
        gid, seat = self._seat(game_id, token)
        return self.app.name_player(gid, seat, name)

    def rule_dispute(self, game_id: Any, token: str | None, number: Any, body: Any) -> dict:
        """The referee's ruling on dispute `number`."""
        gid = self._referee(game_id, token)
        body = body if isinstance(body, dict) else {}
        dispute = self.app.rule_dispute(gid, number, body.get("decision"), body.get("remedy", "none"), body.get("note"))
        ruled_at = dispute["ruling"]["ruled_at"]
        last = ruled_at + (1 if dispute["ruling"].get("remedy") == "rewind" else 0)  # a rewind is one more event
        return {**dispute, "receipt": self.evidence.answer(gid, ruled_at, last, "ruling")}

    def import_record(self, doc: Any) -> dict:
        """Import and verify a record: the new game's id and the contract §2 verdict."""
        started = self.app.import_record(doc)
        game = self.app.game(started["game"].id)
        created = self._created({**started, "game": game})
        out = {**created, "verdict": verdict_of(game, started["illegal"])}
        out["receipt"] = self.evidence.answer(game.id, 1, game.version, "import", game.chain_head)
        evidence = check_evidence(self.app, game.id)
        if evidence is not None:
            out["evidence"] = evidence
        return out

    def seat_bot(self, game_id: Any, token: str | None, kind: Any = "heuristic") -> dict:
        """Hand the token's seat to a bot that this process plays (service.bot_seats); {id, seat, bot}."""
        from .bot_seats import BotSeats

        if getattr(self, "_bot_seats", None) is None:
            self._bot_seats = BotSeats(self)
        return self._bot_seats.hand_over(game_id, token, kind)

    # -- queries -----------------------------------------------------------------------------

    def catalogue(self, status: str | None = None, game: str | None = None, limit: int = 50, offset: int = 0,
                  **desk: Any) -> list[dict]:
        """The game catalogue (a read model in the database), caught up first; `desk` takes the referee's desk's
        filters and order (player, open_disputes, tampered, order: projections.catalogue.Catalogue.list)."""
        _position(offset, "offset")
        try:
            rows = self._caught_up().list(status=status, game=game, limit=limit, offset=offset, **desk)
        except ValueError as e:
            raise BadInput(str(e), field=str(e).split(":", 1)[0]) from None
        for row in rows:  # a delayed game's position is shown as its spectators see it
            cut = self._spectator_cut(UUID(row["id"])) if row["status"] == "in_progress" else None
            if cut is not None:
                row["version"], row["chain_head"] = cut.version, event_hash(cut.events[-1])
        return rows

    def _caught_up(self):
        from projections.catalogue import Catalogue

        if self._catalogue is None:
            self._catalogue = Catalogue.for_app(self.app)
        self._catalogue.catch_up()
        return self._catalogue

    def public(self, game_id: Any) -> dict:
        """The public summary and spectator view."""
        from projections.views import view

        gid = parse_game_id(game_id)
        cut = self._spectator_cut(gid)
        if cut is not None:
            return _delayed(view(self.app.game(gid, cut.version), SPECTATOR), cut)
        return view(self.app.game(gid), SPECTATOR)

    def player_names(self, game_id: Any) -> list[str]:
        """The players' names in seat order (public)."""
        return [p["name"] for p in self.app.game(parse_game_id(game_id)).players]

    def view(self, game_id: Any, token: str | None) -> dict:
        """What a seat or the referee may see now (a seat's view lists its legal moves)."""
        from projections.views import view

        viewer = self._known(game_id, token)
        return view(self.app.game(parse_game_id(game_id)), viewer)

    def replay(self, game_id: Any, token: str | None, version: Any) -> dict:
        """The caller's view as it was at `version`; without a token, the public replay of a game that is over
        (a game in progress needs a token: 401)."""
        from projections.views import view_at

        if token is None and self.app.game(parse_game_id(game_id)).outcome.is_over:
            return self.public_replay(game_id, version)
        viewer = self._known(game_id, token)
        _position(version, "version")
        return view_at(self.app, parse_game_id(game_id), version, viewer)

    def public_replay(self, game_id: Any, version: Any) -> dict:
        """The spectator's view as it was at `version`."""
        from projections.views import view_at

        _position(version, "version")
        gid = parse_game_id(game_id)
        cut = self._spectator_cut(gid)
        if cut is not None and version > cut.version:
            raise NotFound(f"game {gid}: version {version} is not shown to spectators yet (they follow this game "
                           f"{_delay_words(cut.delay)} behind)", field="version")
        return view_at(self.app, gid, version, SPECTATOR)

    def events(self, game_id: Any, token: str | None, after: int = 0) -> list[dict]:
        """The event log after version `after`, as the caller may see it."""
        viewer = self.viewer(game_id, token)
        _position(after, "after")
        gid = parse_game_id(game_id)
        if viewer == SPECTATOR:
            cut = self._spectator_cut(gid)
            if cut is not None:
                return self._log_tail(gid, viewer, after, upto=cut.version) if after < cut.version else []
        ended = after > 0 and self.app.game(gid).seed_revealed
        return self._log_tail(gid, viewer, after, ended=ended)

    def replay_log(self, game_id: Any, token: str | None) -> list[dict]:
        """The whole event log as the caller may see it (exactly `events`), each game event told in words (`text`):
        the replay page's move list."""
        from projections.narration import narrate_entries

        entries = self.events(game_id, token)
        game = self.app.game(parse_game_id(game_id))
        return narrate_entries(game.game, entries, [p.get("name", f"Seat {i}") for i, p in enumerate(game.players)])

    def subscribe(self, game_id: Any, token: str | None, after: int, sink: Callable[[list], None]):
        """Live entries of a game as the caller may see them (service.feed): returns the subscription and the
        backlog after `after` as (version, type, JSON) entries; each later one goes to `sink` (called from the
        feed's thread: it must not block) in version order, without a gap or a duplicate. Close it when done."""
        viewer = self.viewer(game_id, token)
        _position(after, "after")
        gid = parse_game_id(game_id)
        if self._feed is None:
            with self._feed_guard:
                if self._feed is None:
                    self._feed = Feed(self.app)
        created = next(iter(self.app.events.get(gid, lte=1)))
        subscription = self._feed.subscribe(gid, viewer, after, sink, created, self.app.game(gid).seed_revealed)
        try:
            backlog = subscription.start(as_entries(self.events(game_id, token, after)))
        except BaseException:
            subscription.close()
            raise
        return subscription, backlog

    def audit(self, game_id: Any, token: str | None) -> dict:
        """The hash-chained audit log: the referee's, or anyone's once the game is over."""
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        viewer = self.viewer(game_id, token)
        if viewer.role != "referee" and not game.outcome.is_over:
            raise Forbidden("the audit log is the referee's until the game is over")
        return self._audit_of(gid, game, viewer, partial=False)

    def audit_page(self, game_id: Any, token: str | None) -> dict:
        """The audit as a page shows it to this caller: the whole audit to whoever may read it (the referee; anyone
        once over), else (`partial`: true) what this caller may see of it now: the event log as on GET /events (no
        refused attempt, no card it may not see), the disclosures to everyone and to itself, disputes and rewinds."""
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        viewer = self.viewer(game_id, token)
        partial = not (viewer.is_referee or game.outcome.is_over)
        cut = self._spectator_cut(gid) if viewer == SPECTATOR and partial else None
        if cut is not None:
            audit = self._audit_of(gid, self.app.game(gid, cut.version), viewer, partial, cut.events)
            return {**audit, "partial": partial, "spectator_delay": cut.as_dict()}
        return {**self._audit_of(gid, game, viewer, partial), "partial": partial}

    def _audit_of(self, gid: UUID, game: Game, viewer: Viewer, partial: bool, stored: list | None = None) -> dict:
        """The audit of a loaded game: whole (the referee's log, refused attempts included), or `partial` as `viewer`
        may see it now; every game event narrated in words."""
        from projections.narration import narrate_entries
        from projections.views import disclosure_ledger, event_log

        stored = self.app.stored_events(gid) if stored is None else stored
        if partial:
            entries = event_log(stored, viewer)
            disclosures = [d for d in disclosure_ledger(stored)
                           if d["to"] == "all" or (viewer.seat is not None and viewer.seat in d["to"])]
        else:
            entries = event_log(stored, REFEREE, attempts=self.app.stored_attempts(gid))
            disclosures = disclosure_ledger(stored)
        names = [p.get("name", f"Seat {i}") for i, p in enumerate(game.players)]
        return {"id": str(gid), "chain_head": game.chain_head, "length": game.version,
                "engine_version": game.engine_version, "entries": narrate_entries(game.game, entries, names),
                "disclosures": disclosures, "disputes": game.disputes, "rewinds": game.rewinds}

    def verify(self, game_id: Any, kept_head: str | None = None, kept_length: int | None = None, full: bool = False,
               rows: Any = None, log_report: Any = None, marks: list | None = None) -> dict:
        """Check a stored game: its rows and hash chain (optionally against a kept head), its latest signed checkpoint,
        its fair deal and evidence; `full` adds the replay under the current engine and the catalogue row.

        Never raises for a damaged game: `ok` says whether every integrity check passed, `provenance` how the game
        was set up (service.integrity). A store that ends before, or differs at, the version a checkpoint signed
        breaks the chain's verdict too; a game the log knows but the store lost is reported as deleted.
        `rows` and `log_report`: the game's rows and the checkpoint log's report read in bulk (service.archive_verify);
        `marks`: a list the report is added to instead of keeping its verdict on the catalogue row right away, for the
        caller to keep many at once (`mark_verified`).
        """
        gid = parse_game_id(game_id)
        if kept_length is not None:
            _position(kept_length, "length")
        try:
            out = verify_game(self.app, gid, kept_head, kept_length, replay=full, catalogue=full, rows=rows)
        except NotFound:
            checkpoint = self.evidence.check_game(gid, None, log_report)
            if checkpoint["finding"] != "deleted":
                raise
            return deleted_report(gid, checkpoint)
        chain = out["chain"]
        checkpoint = self.evidence.check_game(gid, chain, log_report, getattr(rows, "heads", None))
        if checkpoint["finding"] in ("truncated", "rewritten") and chain.get("ok"):
            broken_at = min(chain["length"] + 1, checkpoint["checkpoint"]["version"])
            out["chain"] = {**chain, "ok": False, "broken_at": broken_at, "problem": checkpoint["status"]}
        out["checkpoint"] = checkpoint
        out["ok"] = report_ok(out) and checkpoint["ok"] is not False
        if marks is None:
            self._mark_verified(gid, out)
        else:
            marks.append(out)
        return out

    def _mark_verified(self, gid: UUID, report: dict) -> None:
        """Keep the verdict on the game's catalogue row, so that the desk filters on it without verifying anything.
        A catalogue that cannot take it (a damaged store) leaves the report as it is: the report is the verdict."""
        from datetime import datetime, timezone

        from projections.catalogue import integrity_of

        try:
            mark = integrity_of(report, report["chain"].get("length"), datetime.now(timezone.utc).isoformat())
            self._caught_up().mark(gid, mark)
        except Exception as e:  # noqa: BLE001 - the verification's answer never depends on the catalogue's write
            logging.getLogger("arbiter.catalogue").warning("verification of %s not kept on the catalogue (%s)",
                                                           gid, type(e).__name__)

    def mark_verified(self, reports: list[dict]) -> None:
        """Keep the verdicts of the reports `verify(..., marks=...)` set aside on their catalogue rows, in one
        transaction (one catch-up first); where that fails, game by game as `verify` does."""
        from datetime import datetime, timezone

        from projections.catalogue import integrity_of

        if not reports:
            return
        try:
            at = datetime.now(timezone.utc).isoformat()
            self._caught_up().mark_many([(r["id"], integrity_of(r, r["chain"].get("length"), at)) for r in reports])
        except Exception:  # noqa: BLE001 - each game's own write, and its own warning, below
            for report in reports:
                self._mark_verified(parse_game_id(report["id"]), report)

    def verify_receipt(self, receipt: Any) -> dict:
        """Does the store still hold what a receipt says? `intact`, `truncated`, `rewritten` or `deleted`;
        raises BadInput (malformed) or ForgedReceipt (refused: its signature does not verify)."""
        return self.evidence.verify_receipt(receipt)

    def public_key(self) -> dict:
        """The server's public key (receipts and checkpoints are signed with it)."""
        return self.evidence.public_key()

    def checkpoint_log(self) -> dict:
        """The checkpoint log checked: ok, or the first bad line."""
        return self.evidence.log_report()

    def checkpoints(self, after: int = 0, limit: int = 100, game: str | None = None) -> list[dict]:
        """The checkpoint log's lines after `after`, for mirrors and auditors."""
        return self.evidence.checkpoints(after, limit, game)

    def backup(self, path: str, force: bool = False) -> dict:
        """A consistent online copy of the event store at `path` (SQLite); raises BadInput otherwise."""
        from .backup import backup

        key_file = self.evidence.key_file
        return {**backup(self.app.database_url, path, force), "checkpoint_log": self.checkpoint_log(),
                "key_file": str(key_file) if key_file is not None else None}

    def health(self) -> dict:
        """Liveness: {"status": "ok", "engine_version", "games"}."""
        return health_report()

    def games(self) -> list[dict]:
        """The games arbiter referees, as their specs declare them (domain.spec.GameSpec.as_json: id, title,
        players, options), in registry order."""
        from domain.games import SPECS

        return [spec.as_json() for spec in SPECS.values()]

    def game_ids(self) -> list[str]:
        """Every stored game's id, in creation order, then those the checkpoint log knows and the store lost."""
        stored = [str(g) for g in game_ids(self.app)]
        known = set(stored)
        return stored + [g for g in self.evidence.logged_games() if g not in known]

    def reverify(self, game_id: Any) -> dict:
        """Replay a stored game's moves under the current engine: does its outcome stay the same?"""
        return reverify(self.app, parse_game_id(game_id))

    def record(self, game_id: Any, token: str | None) -> dict:
        """The game as an `arbiter.record/1` document: the referee's, or anyone's once over."""
        gid = parse_game_id(game_id)
        game = self.app.game(gid)
        viewer = self.viewer(game_id, token)
        if viewer.role != "referee" and not game.outcome.is_over:
            raise Forbidden("the record is the referee's until the game is over")
        doc = game.to_record()
        evidence = check_evidence(self.app, gid)
        if evidence is not None and evidence.get("ok") is not None:
            doc["evidence"] = evidence  # an addition to arbiter.record/1: the game's own honesty check, once over
        return doc


def _delayed(view: dict, cut: Cut) -> dict:
    """A delayed spectator's view: the game as at the cut; its clock stands still at that moment."""
    view["spectator_delay"], view["delayed"] = cut.as_dict(), True
    view["clock"] = {**view["clock"], "as_of": _iso_ms(cut.as_of_ms), "frozen": True}
    return view


def _delay_words(delay: dict) -> str:
    (key, n), = delay.items()
    return f"{n} {key[:-1] if n == 1 else key}"


def _iso_ms(at_ms: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(at_ms / 1000, tz=timezone.utc).isoformat()


def deleted_report(gid: UUID, checkpoint: dict) -> dict:
    """The verification report of a game the checkpoint log knows and the store no longer holds."""
    signed = checkpoint["checkpoint"]
    chain = {"ok": False, "length": 0, "head": "", "broken_at": 1, "problem": checkpoint["status"], "problems": []}
    deal = {"commitment": None, "seed": None, "stacked": None, "seed_given": None, "fixed_outcomes": [], "shuffles": [],
            "fair": None, "consistent": None,
            "status": f"not checked: the game is gone (it was at version {signed['version']} or later)"}
    return {"id": str(gid), "game": None, "ok": False, "chain": chain, "deal": deal, "checkpoint": checkpoint,
            "engine": None, "provenance": []}


def health_report() -> dict:
    """What GET /api/v1/health says, store or no store: {"status": "ok", "engine_version", "games"}."""
    from domain import ENGINE_VERSION
    from domain.games import DECIDERS

    return {"status": "ok", "engine_version": ENGINE_VERSION, "games": sorted(DECIDERS)}


def _bounded(body: dict) -> None:
    """A request body within the JSON bounds (domain.json_limits); raises BadInput naming the field."""
    try:
        json_limits.check(body)
    except json_limits.LimitError as e:
        raise BadInput(str(e), field=e.field) from None


def verdict_of(game, illegal: dict | None) -> dict:
    """The contract §2 verdict of a stored game."""
    outcome = game.outcome
    status = "illegal" if illegal else ("finished" if outcome.is_over else "in_progress")
    return {"status": status, "moves_applied": game.move_count, "result": outcome.result, "winner": outcome.winner_json(),
            "illegal": illegal, "final": game.decider.final(game.state)}

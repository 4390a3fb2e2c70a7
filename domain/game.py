"""The one generic game aggregate: hosts any game's decider; its state is only ever the fold of its events.

Each domain event the decider produces (deal, draw, reshuffle, play, pass,
claim, elimination, win, ...) is stored as its own ``Game.Happened`` event,
with cards written as strings so the stored log reads like the table. Every
stored event carries ``prev``, the hash of its predecessor (domain.audit), who
acted and, for game events, the clause and rules-engine version that decided it.
The seed's reveal, disputes and rewinds are events too; refused attempts are kept in a
stream of their own (domain.attempts), so that they never change the game's version. The line of play (the moves,
the answers to idempotency keys, the outcomes of chance, the record) is domain.move_log's.

Over 300 lines: the aggregate and its stored event classes are one room. Each event class is nested in `Game`
because its topic (``domain.game:Game.Happened``, ...) is written in every stored event and snapshot: moving one out
would change what every store holds.
"""

from __future__ import annotations

from datetime import timezone

from eventsourcing.domain import Aggregate

from . import ENGINE_VERSION
from . import clocks
from .audit import GENESIS, event_hash
from .games import decider_for, spec_for
from .move_log import MoveLog
from .randomness import Chance, commitment
from .records import Record

ENGINE = "engine"
REFEREE = "referee"


def seat_actor(seat: int) -> str:
    """The actor name of a seat in audit entries."""
    return f"seat:{seat}"


def _utc(timestamp) -> str:
    """An event's server time as ISO 8601 in UTC (what views show beside its version)."""
    return timestamp.astimezone(timezone.utc).isoformat()


class Chained(Aggregate.Event):
    """A game event that carries the hash of its predecessor."""

    prev: str

    def apply(self, game: "Game") -> None:
        if isinstance(game, Game) and not isinstance(self, Game.Happened):
            game._settle_clock()  # the batch before this event is complete (Happened events settle their own)
        self.apply_to(game)
        game.chain_head = event_hash(self)

    def apply_to(self, game: "Game") -> None:  # pragma: no cover - overridden
        pass


class Game(MoveLog, Aggregate):
    """A game of any registered kind, played through its decider."""

    # games stored (or snapshotted) before delays and clocks existed have none of these in their state
    spectator_delay = None
    time_control = None
    # the version of the last event that changed the position (a move, the engine's steps, the end, a rewind): disputes,
    # rulings, names, flags and table talk do not, so they never make a seat's `expected_version` stale; None in
    # games snapshotted before it was kept (then every event counts)
    position_version = None
    _batch = None

    class Created(Aggregate.Created):
        game: str
        options: dict
        players: list
        dealer: int | None
        starter: int | None
        seed: str
        seed_given: bool
        commitment: str
        outcomes: dict
        stacked: bool
        engine_version: str
        seat_token_hashes: list
        referee_token_hash: str
        prev: str
        spectator_delay: dict | None = None  # {"moves": N} or {"seconds": S} (service.views.spectator_delay); absent before
        time_control: dict | None = None  # {"game_seconds"?, "move_seconds"?} (service.play.clocks); absent before
        imported: bool = False  # made from an uploaded record (POST /records, `arbiter import`); absent before

        def apply(self, game: "Game") -> None:
            game.chain_head = event_hash(self)
            game.position_version = self.originator_version

    class Happened(Chained):
        """One domain event of the game (its `kind` is the decider's event type)."""

        kind: str
        data: dict
        actor: str
        clause: str
        engine_version: str
        idempotency_key: str | None
        automatic: bool = False  # a move the service made for its seat (a forced pass, the table's `auto_pass`)

        def apply_to(self, game: "Game") -> None:
            """The library's road (`mutate`): the opening, and every event of a game rebuilt from the store, is
            decoded and folded into the state."""
            event = game.codec.decode_event(self.data)
            move = self._mark(game, event)
            if self.actor != ENGINE or game._batch is None:  # a new batch: the opening, or a seat's move
                game._settle_clock()
                mover = None if self.actor == ENGINE else int(self.actor.split(":")[1])
                game._batch = [clocks.ms(self.timestamp), self.originator_version, mover,
                               bool(move and move.get("type") == "say")]
            game._fold(event, self.originator_version, self.actor, self.idempotency_key)

        def apply_decided(self, game: "Game", event: dict) -> None:
            """What `apply` does, for an event `play` has just decided (`event`, the decider's own, not decoded):
            play already holds the state after its move (decider.step) and keeps the clock and the move log."""
            self._mark(game, event)
            game.chain_head = event_hash(self)

        def _mark(self, game: "Game", event: dict) -> dict | None:
            """Keep the event's random outcomes and the position's version; the move it records, if a seat's."""
            game._remember_chance(event)
            move = game.decider.move_of(event) if self.actor != ENGINE else None
            if move is None or move.get("type") != "say":  # table talk changes nothing a seat decides on
                game.position_version = self.originator_version
            return move

    class SeedRevealed(Chained):
        """The game ended: its outcome, and the secret seed published so anyone can check the deal (contract §4).

        Generic: read models learn the end of any game from here (result, winner, per-seat scores).
        """

        seed: str
        result: str
        winner: dict | None
        scores: list | None

        def apply_to(self, game: "Game") -> None:
            game.seed_revealed = True
            game.position_version = self.originator_version

    class DisputeFiled(Chained):
        """A seat disputes the move at a version, or (`attempt`) the refusal of its own attempt met at that version."""

        number: int
        actor: str
        against_version: int
        claim: str
        attempt: int | None = None  # absent from disputes filed before refusals could be disputed

        def apply_to(self, game: "Game") -> None:
            dispute = {"number": self.number, "seat": int(self.actor.split(":")[1]), "version": self.against_version,
                       "claim": self.claim, "filed_at": self.originator_version, "filed_time": _utc(self.timestamp),
                       "ruling": None}
            if self.attempt is not None:
                dispute["attempt"] = self.attempt
            game.disputes.append(dispute)

    class DisputeRuled(Chained):
        """The referee's ruling on a dispute."""

        number: int
        actor: str
        decision: str
        remedy: str
        note: str

        def apply_to(self, game: "Game") -> None:
            game.disputes[self.number - 1]["ruling"] = {"decision": self.decision, "remedy": self.remedy, "note": self.note,
                                                       "ruled_at": self.originator_version, "ruled_time": _utc(self.timestamp)}

    class PlayerNamed(Chained):
        """A seat gives the name it plays under (at the table, after joining); views, logs and records show it."""

        seat: int
        name: str
        actor: str

        def apply_to(self, game: "Game") -> None:
            players = [dict(p) for p in game.players]  # a new list: the repository's cached copy shares the old one
            players[self.seat]["name"] = self.name
            game.players = players

    class Rewound(Chained):
        """A judge's backup: the game returns to its state as at `to_version` (nothing is deleted)."""

        number: int
        to_version: int
        from_version: int
        state: dict
        moves: list
        move_versions: list

        def apply_to(self, game: "Game") -> None:
            game.state = game.codec.load_state(self.state)
            game.move_log = []
            for move, version in zip(self.moves, self.move_versions):
                game._log_move(move, version)
            game.rewinds.append({"dispute": self.number, "to_version": self.to_version, "from_version": self.from_version,
                                 "at": self.originator_version})
            game._batch = [clocks.ms(self.timestamp), self.originator_version, None, False]  # who acts changed
            game.position_version = self.originator_version

    class TimeExpired(Chained):
        """A seat ran out of time (service.play.clocks): recorded for the referee to rule on, like a dispute; the game
        itself is not changed. `control` is `game` (turn 0) or `move` (turn: the version its turn began at)."""

        number: int
        seat: int
        control: str
        turn: int
        used_ms: int
        limit_ms: int

        def apply_to(self, game: "Game") -> None:
            game.clock = clocks.flagged(game.clock, self.seat, self.control, self.turn)
            what = "its game time" if self.control == "game" else "its time for one move"
            claim = (f"time expired: seat {self.seat} used {self.used_ms / 1000:.1f} s of {what} "
                     f"({self.limit_ms / 1000:.0f} s)")
            game.disputes.append({"number": self.number, "seat": self.seat, "version": self.originator_version,
                                  "claim": claim, "filed_at": self.originator_version, "filed_time": _utc(self.timestamp),
                                  "ruling": None, "time_expired": {"control": self.control, "turn": self.turn,
                                                                   "used_ms": self.used_ms, "limit_ms": self.limit_ms}})

    def __init__(self, game: str, options: dict, players: list, dealer, starter, seed: str, seed_given: bool,
                 commitment: str, outcomes: dict, stacked: bool, engine_version: str, seat_token_hashes: list, referee_token_hash: str,
                 prev: str, spectator_delay: dict | None = None, time_control: dict | None = None,
                 imported: bool = False):  # noqa: ARG002 - `imported` is the catalogue's (projections.catalogue)
        self.game = game
        self.options = dict(options)
        self.players = [dict(p) for p in players]
        self.dealer, self.starter = dealer, starter
        self.seed = seed
        self.seed_given = seed_given
        self.commitment = commitment
        self.outcomes = {k: list(v) if isinstance(v, list) else v for k, v in outcomes.items()}
        self.stacked = stacked
        self.engine_version = engine_version
        self.seat_token_hashes = list(seat_token_hashes)
        self.referee_token_hash = referee_token_hash
        setup = self.decider.configure(self.options, self.players, dealer, starter)
        self.state = self.decider.initial_state(setup)
        # The current line of play: chunks of up to 100 lines "<version of the move's first event> <move JSON>",
        # so that a snapshot of a long game decodes a few long strings rather than thousands of objects.
        self.move_log: list[str] = []
        self.answers: dict[str, dict] = {}  # idempotency key -> the answer given
        self.seed_revealed = False
        self.disputes: list[dict] = []
        self.rewinds: list[dict] = []
        self.chain_head = GENESIS
        self.chance_results: dict = {}  # label -> outcome of each random step so far (cards as ints)
        self.spectator_delay = dict(spectator_delay) if spectator_delay else None
        self.time_control = dict(time_control) if time_control else None
        # domain.clocks: replaced, never changed in place; waiting for the first move where the time control says so
        self.clock = clocks.initial(len(self.players), clocks.start_of(time_control) == "first_move")
        self._batch: list | None = None  # [at_ms, version, mover, say] of the batch whose clock is not settled yet

    def __deepcopy__(self, memo: dict) -> "Game":
        """A copy for one command (the repository's cache hands out copies): states are immutable and shared,
        the containers a command can change are copied."""
        new = object.__new__(type(self))
        new.__dict__ = dict(self.__dict__)
        for key in ("move_log", "disputes", "rewinds", "_pending_events"):
            new.__dict__[key] = list(self.__dict__[key])
        new.__dict__["disputes"] = [dict(d) for d in self.disputes]
        new.__dict__["answers"] = dict(self.answers)
        new.__dict__["chance_results"] = dict(self.chance_results)
        return new

    @classmethod
    def start(cls, record: Record, seat_token_hashes: list[str] | None = None, referee_token_hash: str = "",
              spectator_delay: dict | None = None, time_control: dict | None = None, imported: bool = False) -> "Game":
        """Create a game from a validated set-up and play its opening (deal, first turn); `imported`: made from an
        uploaded record (the Created event says so, and the catalogue shows it)."""
        setup = record.setup
        game = cls._create(
            cls.Created, game=record.game, options=setup.options(), players=setup.players(),
            dealer=setup.dealer, starter=setup.starter, seed=record.seed, seed_given=record.seed_given,
            commitment=commitment(record.seed),
            outcomes=record.outcomes, stacked=record.stacked, engine_version=ENGINE_VERSION,
            seat_token_hashes=list(seat_token_hashes or []), referee_token_hash=referee_token_hash, prev=GENESIS,
            spectator_delay=spectator_delay, time_control=time_control, imported=imported)
        game._record_opening(game.decider.start(setup, game.chance))
        game._settle_clock()
        return game

    # -- what the game is played under -------------------------------------------------------

    @property
    def decider(self):
        """The rules module this game is played under."""
        return decider_for(self.game)

    @property
    def codec(self):
        """The game's codec (its spec's): stored events, snapshots, record moves and cards."""
        return spec_for(self.game).codec

    @property
    def chance(self) -> Chance:
        """The game's randomness: its seed and any fixed outcomes of its record."""
        return Chance(self.seed, self.outcomes)

    def current_for(self, expected_version: int) -> bool:
        """Whether a seat that decided at `expected_version` still sees the position as it is: only events that change
        the position since then make it stale (a dispute, a ruling, a name, a flag or table talk do not)."""
        since = self.version if self.position_version is None else self.position_version
        return since <= expected_version <= self.version

    @property
    def setup(self):
        """The validated set-up (part of the state)."""
        return self.state.setup

    @property
    def outcome(self):
        """How the game stands (an Outcome)."""
        return self.decider.outcome(self.state)

    # -- commands ----------------------------------------------------------------------------

    def play(self, move: dict, idempotency_key: str | None = None, automatic: bool = False) -> list[dict]:
        """Apply one move (cards as ints): one event per thing that happened; raises RuleViolation, adding nothing.
        `automatic`: the service makes the move for its seat (marked on its first event)."""
        decider = self.decider
        events, state = decider.step(self.state, move, self.chance)
        self._settle_clock()
        first_version = self.version + 1
        self._record_decided(events, seat_actor(move["seat"]), idempotency_key, automatic)
        self.state = state
        accepted = self._pending_events[-len(events)].timestamp
        self._batch = [clocks.ms(accepted), first_version, move["seat"], move["type"] == "say"]
        self._settle_clock()
        self._note_move(decider.move_of(events[0]), first_version, idempotency_key, seat_actor(move["seat"]))
        outcome = decider.outcome(state)
        if outcome.is_over:  # once per ending (a rewind past the end and a new ending tell it again)
            self.trigger_event(Game.SeedRevealed, seed=self.seed, result=outcome.result, winner=outcome.winner_json(),
                               scores=None if outcome.scores is None else list(outcome.scores), prev=self.chain_head)
        return events

    def play_forced(self, limit: int = 1000) -> int:
        """Make every pass the game's rules force in public view, as the table's `auto_pass` option asks (the
        spec's `forced_pass`); each is the seat's move, marked automatic. Returns how many were made."""
        forced = spec_for(self.game).forced_pass
        made = 0
        while forced is not None and made < limit:
            move = forced(self.state)
            if move is None:
                break
            self.play(move, automatic=True)
            made += 1
        return made

    def file_dispute(self, seat: int, against_version: int, claim: str, attempt: int | None = None) -> int:
        """A seat disputes the move at a version (or the refusal of its attempt number `attempt`, met at that
        version); returns the dispute's number."""
        number = len(self.disputes) + 1
        self.trigger_event(Game.DisputeFiled, number=number, actor=seat_actor(seat), against_version=against_version,
                           claim=claim, attempt=attempt, prev=self.chain_head)
        return number

    def rule(self, number: int, decision: str, remedy: str, note: str) -> None:
        """The referee's ruling on a dispute."""
        self.trigger_event(Game.DisputeRuled, number=number, actor=REFEREE, decision=decision, remedy=remedy, note=note,
                           prev=self.chain_head)

    def expire(self, seat: int, control: str, turn: int, used_ms: int, limit_ms: int) -> int:
        """Record that a seat ran out of time (opens a dispute-like entry for the referee); returns its number."""
        number = len(self.disputes) + 1
        self.trigger_event(Game.TimeExpired, number=number, seat=seat, control=control, turn=turn, used_ms=used_ms,
                           limit_ms=limit_ms, prev=self.chain_head)
        return number

    def name_player(self, seat: int, name: str) -> None:
        """A seat's name from now on (a validated, non-empty text)."""
        self.trigger_event(Game.PlayerNamed, seat=seat, name=name, actor=seat_actor(seat), prev=self.chain_head)

    def rewind(self, number: int, earlier: "Game") -> None:
        """Return to `earlier` (this game loaded as at an earlier version) by a new event."""
        self.trigger_event(Game.Rewound, number=number, to_version=earlier.version, from_version=self.version,
                           state=self.codec.dump_state(earlier.state), moves=[dict(m) for m in earlier.moves],
                           move_versions=list(earlier.move_versions), prev=self.chain_head)

    # -- the clock ---------------------------------------------------------------------------

    def clock_now(self) -> dict:
        """The clock with the latest batch settled (domain.clocks), without changing the aggregate."""
        batch = self.__dict__.get("_batch")
        if "clock" not in self.__dict__:  # loaded from a snapshot taken before clocks: they start from here
            self.clock = clocks.initial(len(self.players))
        if not batch:
            return self.clock
        return clocks.settled(self.clock, self.decider, self.state, batch)

    def _settle_clock(self) -> None:
        if self.__dict__.get("_batch"):
            self.clock = self.clock_now()
        self._batch = None

    # -- the fold ----------------------------------------------------------------------------

    def _record_opening(self, events: list[dict]) -> None:
        """The opening's events (the engine's), by the library's trigger_event: each is folded as it is applied."""
        trigger, happened, clause_of, encode = self.trigger_event, Game.Happened, self.decider.clause_of, self.codec.encode_event
        for e in events:
            trigger(happened, kind=e["type"], data=encode(e), actor=ENGINE, clause=clause_of(e),
                    engine_version=ENGINE_VERSION, idempotency_key=None, automatic=False, prev=self.chain_head)

    def _record_decided(self, events: list[dict], actor: str, idempotency_key: str | None, automatic: bool) -> None:
        """A move's events, made as the library's trigger_event makes them (the next version, a new timestamp, the
        same fields) and applied by Happened.apply_decided instead of its `mutate`: the state after them is the
        step's, so none is decoded and folded again. A game rebuilt from the store folds each (Happened.apply_to)."""
        happened, clause_of, encode = Game.Happened, self.decider.clause_of, self.codec.encode_event
        pending = self._pending_events
        for i, e in enumerate(events):
            first = i == 0
            event = happened(originator_id=self.id, originator_version=self.version + 1,
                             timestamp=happened.create_timestamp(), prev=self.chain_head, kind=e["type"],
                             data=encode(e), actor=actor if first else ENGINE, clause=clause_of(e),
                             engine_version=ENGINE_VERSION, idempotency_key=idempotency_key if first else None,
                             automatic=automatic and first)
            event.apply_decided(self, e)
            self.version, self.modified_on = event.originator_version, event.timestamp  # as `mutate` leaves them
            pending.append(event)

    def _fold(self, event: dict, version: int, actor: str, idempotency_key: str | None) -> None:
        self.state = self.decider.evolve(self.state, event)
        if actor != ENGINE:
            move = self.decider.move_of(event)
            if move is not None:
                self._note_move(move, version, idempotency_key, actor)

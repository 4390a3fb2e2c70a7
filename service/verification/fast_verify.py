"""The common stored game verified in one pass with the bare decider: the report service.verification.integrity would give, faster.

A game qualifies when its rows are plain: versions 1..n, only Created, Happened and SeedRevealed events,
each row decoding to its class's fields, the refused attempts' own stream intact. For such a game one pass does what the
separate checks of service.verification.integrity each do again: it hashes every event once for the chain, and
re-decides the game from its Created event with the bare decider — the opening, then every stored move,
each compared event for event with what the store holds, the seed revealed where the game ended — so
the re-decision is both the fair-deal check (each random step against the revealed seed) and the
engine's replay. Snapshots are compared with the game as the aggregate would hold it at their version.

The pass works on each row's decoded fields (service.verification.plain_rows: one JSON decoding, the chain hash computed on
the same dict) and builds event objects only for the few events the report needs (the Created event, the
revealed seed, the last event).

Anything the pass does not expect (a broken chain, an event the engine would not produce, a move it
refuses, a snapshot that differs, a game with disputes or rewinds, a row the fast decoding does not take)
makes it answer None, and the game takes the detailed road (service.verification.integrity), which finds and names the
problem. So the fast pass can only say "all is well" where every check agrees, and never has to word a
finding itself.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain import clocks
from domain import ENGINE_VERSION
from domain.audit import GENESIS
from domain.game import ENGINE, Game, _pack_move
from domain.games import DECIDERS
from domain.randomness import Chance, commitment
from domain.rules import RuleViolation

from .checks import PENDING, _attempts_problem, deal_verdict, evidence_report
from .plain_rows import HAPPENED, REVEALED, Unusual, decode_game, event_of, timestamp_of
from .report import catalogue_report, provenance, report_ok
from .stored_rows import _settled_fields, _snapshots

_Unusual = Unusual  # the name the detailed road's tests know


class _Recording:
    """The chance of a re-decision whose stored events hold random outcomes: hands out the record's outcomes and
    notes, per label, whether the revealed seed alone gives the same (service.verification.checks._SeedCheck's notes).
    The revealed seed is the game's own (checked before): a label the record does not fix is drawn from that seed
    by both, so it is drawn once and is the seed's; a fixed one is held against the seed's draw."""

    def __init__(self, chance: Chance, seed: str):
        if seed != chance.seed:
            raise Unusual
        self.chance, self.fixed, self.seeded, self.checked = chance, chance.outcomes, Chance(seed), []

    def shuffle(self, label, items):
        got = self.chance.shuffle(label, items)
        self.checked.append((label, self.fixed.get(label) is None or got == self.seeded.shuffle(label, items)))
        return got

    def randbelow(self, label, n):
        got = self.chance.randbelow(label, n)
        self.checked.append((label, self.fixed.get(label) is None or got == self.seeded.randbelow(label, n)))
        return got

    def salt(self, label):
        return self.chance.salt(label)


def fast_report(app: Any, game_id: UUID, rows: Any, replay: bool, catalogue: bool) -> dict | None:
    """service.verification.integrity.verify_game's report for a plain game (module docstring), or None for any other."""
    try:
        return _report(app, game_id, rows, replay, catalogue)
    except Unusual:
        return None
    except Exception:  # data the pass did not expect: the detailed road reports it
        return None


def _report(app: Any, game_id: UUID, rows: Any, replay: bool, catalogue: bool) -> dict:
    if app.mapper.cipher is not None or app.mapper.compressor is not None:
        raise Unusual  # rows the plain decoding cannot read: the mapper's road
    if rows.attempts and _attempts_problem(app, game_id, rows.attempts) is not None:
        raise Unusual  # the refused attempts' own rows and chain, checked as the detailed road does
    plain = decode_game(game_id, rows.raw)  # every row decoded, shape-checked and hashed; the chain followed
    fields, hashes, created, reveals = plain.fields, plain.hashes, plain.created, plain.reveals
    if created.game not in DECIDERS:
        raise Unusual
    snapshots, unreadable = _snapshots(app, game_id, rows.snapshots)
    if unreadable or any(v > len(fields) for v in snapshots):
        raise Unusual
    kind = fields[-1]["class"]
    last = created if len(fields) == 1 else reveals[-1] if kind == REVEALED else event_of(Game.Happened, fields[-1], game_id)
    deal, moves, decoded = _redecide(created, fields, reveals, hashes, snapshots)
    out: dict = {"id": str(game_id), "game": created.game,
                 "chain": {"ok": True, "length": len(fields), "head": hashes[-1], "broken_at": None, "problem": None,
                           "problems": []},
                 "deal": deal}
    evidence = evidence_report(DECIDERS[created.game], decoded, reveals[0].seed if reveals else None)
    if evidence is not None:
        out["evidence"] = evidence
    if replay:
        out["engine"] = {"id": str(game_id), "played_under": created.engine_version, "current_engine": ENGINE_VERSION,
                         "moves": moves, "same": True, "differences": []}
    if catalogue:
        row = rows.catalogue
        if row is not None and (row.get("version").__class__ is not int or row["version"] != len(fields)):
            raise Unusual  # a row behind or beyond the game: the detailed road says which
        out["catalogue"] = catalogue_report(row, _catalogue_events(created, reveals, last))
    out["provenance"] = provenance(created)
    out["ok"] = report_ok(out)
    rows.heads = hashes
    return out


def _catalogue_events(created: Any, reveals: list, last: Any) -> list:
    """The events whose fold gives the catalogue row of the whole game (integrity._catalogue_events of a plain game)."""
    out = [created] + [e for e in reveals if e is not last]
    return out if last is created else out + [last]


def _redecide(created: Any, fields: list, reveals: list, hashes: list, snapshots: dict) -> tuple[dict, int, list]:
    """Decide the game again from its Created event and hold every stored event against the engine's; returns the
    deal report, the number of moves and the game's events decoded by its decider. Raises Unusual wherever the store
    and the engine part."""
    d = DECIDERS[created.game]
    setup = d.configure(dict(created.options), [dict(p) for p in created.players], created.dealer, created.starter)
    chance = Chance(created.seed, created.outcomes)
    revealed = reveals[0].seed if reveals else None
    if revealed is not None and (revealed != created.seed or commitment(revealed) != created.commitment):
        raise Unusual
    fixed = set(created.outcomes)
    if created.dealer is not None:
        fixed.add("dealer")
    if created.starter is not None:
        fixed.add("starter")
    shadow = _Shadow(created, d) if snapshots else None
    shuffles: list[dict] = []
    decode, chance_of, move_of, clause_of = d.decode_event, d.chance_of, d.move_of, d.clause_of

    # the stored game cut into decisions: the opening, then each move with the engine's events after it
    decisions: list[list] = [[]]
    decoded: list = []
    for f in fields[1:]:
        if f["class"] == HAPPENED:
            if f["actor"] != ENGINE:
                decisions.append([])
            event = decode(f["data"])
            decoded.append(event)
            decisions[-1].append((f, event))
        else:
            decisions[-1].append((f, None))  # SeedRevealed: checked after the move it follows

    state = d.initial_state(setup)
    moves = 0
    last_decision = len(decisions) - 1
    for number, stored in enumerate(decisions):
        happened = [(f, de) for f, de in stored if de is not None] if len(stored) != 1 else stored
        if not happened or happened[0][1] is None:
            raise Unusual  # a decision with no event of the game (a reveal with no move before it)
        random = revealed is not None and any(chance_of(de) for _, de in happened)
        using = _Recording(chance, revealed) if random else chance
        if number == 0:
            decided = d.start(setup, using)
            before = state
            for e in decided:
                state = d.evolve(state, e)
            move, actor = None, None
        else:
            first = happened[0][0]
            move = move_of(happened[0][1])
            if move is None or first["actor"] != f"seat:{move['seat']}":
                raise Unusual
            before = state
            try:
                decided, state = d.step(state, move, using)
            except RuleViolation:
                raise Unusual from None
            moves += 1
            actor = first["actor"]
        if len(decided) != len(happened):
            raise Unusual
        for (f, stored_event), mine in zip(happened, decided):  # (actors: the cut above gives a move's events
            if stored_event != mine or f["kind"] != mine["type"] or f["clause"] != clause_of(mine):  # to the engine)
                raise Unusual
        met = [f for f, de in stored if de is None] if len(stored) != len(happened) else ()
        # an ended game refuses every later move, so only the last decision can end it
        outcome = d.outcome(state) if met or number == last_decision else None
        if outcome is not None and outcome.is_over and number > 0:
            if len(met) != 1 or stored[-1][0] is not met[0] or met[0]["seed"] != created.seed \
                    or met[0]["result"] != outcome.result or met[0]["winner"] != outcome.winner_json() \
                    or met[0]["scores"] != (None if outcome.scores is None else list(outcome.scores)):
                raise Unusual
        elif met:
            raise Unusual
        if isinstance(using, _Recording):
            version = happened[0][0]["originator_version"]
            for label, ok in using.checked:
                if not ok and label not in fixed:
                    raise Unusual  # a shuffle that is not the seed's: the detailed road names it
                shuffles.append({"label": label, "version": version, "fixed_by_record": label in fixed,
                                 "verified": ok or label in fixed})
        if shadow is not None:
            shadow.decision(before, happened, met, move, actor, hashes, snapshots)
    if shadow is not None and snapshots:
        raise Unusual  # a snapshot at a version the pass did not meet
    out = {"commitment": created.commitment, "seed": revealed, "stacked": created.stacked,
           "seed_given": created.seed_given, "fixed_outcomes": sorted(created.outcomes), "shuffles": shuffles,
           "fair": None, "consistent": None}
    if revealed is None:
        out["status"] = PENDING
        return out, moves, decoded
    return deal_verdict(out, created, []), moves, decoded


class _Shadow:
    """The game as the aggregate holds it after each event (what a snapshot stores), for the versions snapshots
    were taken at: the decider's state, the move log, the answers to idempotency keys, the outcomes of chance.
    Events are met as their rows' decoded fields (service.verification.plain_rows)."""

    def __init__(self, created: Any, d: Any):
        self.created, self.d = created, d
        self.move_log: list[str] = []
        self.answers: dict = {}
        self.chance_results: dict = {}
        self.seed_revealed = False
        self.version = 1
        self.position_version = 1  # Game.position_version: the Created event, then each event that moves the position
        self.clock = clocks.initial(len(created.players))  # settled after the last decision (domain.clocks)
        self.batch: tuple | None = None  # (at_ms, version, mover, say) of the decision being met, as Game folds it

    def _log(self, move: dict, version: int) -> None:
        line = _pack_move(move, version)
        if self.move_log and self.move_log[-1].count("\n") < 99:
            self.move_log[-1] += "\n" + line
        else:
            self.move_log.append(line)

    def decision(self, state: Any, happened: list, reveals: list, move: Any, actor: Any, hashes: list,
                 snapshots: dict) -> None:
        d, created = self.d, self.created
        first = happened[0][0]
        self.batch = (clocks.ms(timestamp_of(first)), first["originator_version"],
                      None if move is None else move["seat"], bool(move and move["type"] == "say"))
        for f, decoded in happened:
            version = f["originator_version"]
            state = d.evolve(state, decoded)
            if f["actor"] == ENGINE or move is None or move["type"] != "say":
                self.position_version = version
            for label, value in d.chance_of(decoded).items():
                if (label == "dealer" and created.dealer is not None) or (label == "starter" and created.starter is not None):
                    continue
                self.chance_results[label] = value
            if f["actor"] != ENGINE:
                noted = d.move_of(decoded)
                if noted is not None:
                    self._log(noted, version)
                    if f["idempotency_key"]:
                        self.answers[f["idempotency_key"]] = {"version": version, "rejected": False,
                                                              "actor": f["actor"]}
            self._check(version, state, hashes, snapshots)
        self.clock = self._settled(state)
        self.batch = None
        for f in reveals:
            self.seed_revealed = True
            self.position_version = f["originator_version"]
            self._check(f["originator_version"], state, hashes, snapshots)

    def _settled(self, state: Any) -> dict:
        """The clock with the decision being met settled at `state` (Game.clock_now at that version)."""
        if self.batch is None:
            return self.clock
        return clocks.settled(self.clock, self.d, state, self.batch)

    def _check(self, version: int, state: Any, hashes: list, snapshots: dict) -> None:
        snapshot = snapshots.pop(version, None)
        if snapshot is None:
            return
        c = self.created
        mine = {"game": c.game, "options": dict(c.options), "players": [dict(p) for p in c.players], "dealer": c.dealer,
                "starter": c.starter, "seed": c.seed, "seed_given": c.seed_given, "commitment": c.commitment,
                "outcomes": {k: list(v) if isinstance(v, list) else v for k, v in c.outcomes.items()},
                "stacked": c.stacked, "engine_version": c.engine_version, "seat_token_hashes": list(c.seat_token_hashes),
                "referee_token_hash": c.referee_token_hash, "state": state, "move_log": list(self.move_log),
                "answers": self.answers, "seed_revealed": self.seed_revealed, "disputes": [], "rewinds": [],
                "chain_head": hashes[version - 1], "chance_results": self.chance_results,
                "spectator_delay": dict(c.spectator_delay) if getattr(c, "spectator_delay", None) else None,
                "time_control": dict(c.time_control) if getattr(c, "time_control", None) else None,
                "clock": self._settled(state), "position_version": self.position_version}
        if _settled_fields(snapshot.mutate(None)) != mine:
            raise Unusual

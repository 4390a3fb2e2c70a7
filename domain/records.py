"""Recorded games (`arbiter.record/1`, contract §2): validate a whole record, replay it, give the verdict.

Validation happens before any move is replayed: a record that is not valid
raises InvalidRecord (exit 2); a move the rules forbid stops the replay with
an `illegal` verdict (exit 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import json_limits
from .cards import CardError
from .games import spec_for
from .randomness import Chance, new_seed
from .rules import InvalidSetup, MalformedMove, RuleViolation

FORMAT = "arbiter.record/1"
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")


class InvalidRecord(ValueError):
    """A document that is not a valid record: the message names the field and what is wrong."""


@dataclass
class Record:
    """A validated record: the decider, its set-up, randomness and the moves with cards as ints."""

    game: str
    decider: Any
    setup: Any
    seed: str
    seed_given: bool
    outcomes: dict
    stacked: bool
    moves: list[dict]
    raw_options: dict = field(default_factory=dict)

    @property
    def chance(self) -> Chance:
        """The game's randomness: the seed, with the record's fixed outcomes."""
        return Chance(self.seed, self.outcomes)

    @property
    def codec(self):
        """The game's codec (domain.kit.codec.Codec, declared in its spec)."""
        return spec_for(self.game).codec


def load(path: str) -> Record:
    """Read and validate a record file; raises InvalidRecord with one clear line. The file is read as every file a
    stranger hands arbiter is (json_limits.read_document: its size and every JSON bound)."""
    try:
        with open(path, "rb") as f:
            text = f.read(json_limits.MAX_DOCUMENT_BYTES + 1)
    except OSError as e:
        raise InvalidRecord(f"cannot read {path}: {e.strerror}") from None
    try:
        doc = json_limits.read_document(text)
    except json_limits.LimitError as e:
        raise InvalidRecord(str(e)) from None
    return parse(doc, checked=True)  # within the bounds


def _card(codec: Any, value: Any, where: str) -> int:
    try:
        return codec.parse_card(value)
    except CardError as e:
        raise InvalidRecord(f"{where}: {e}") from None


def _cards(codec: Any, value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidRecord(f"{where}: must be a list of card strings")
    return [_card(codec, v, f"{where}[{i}]") for i, v in enumerate(value)]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse(doc: Any, checked: bool = False) -> Record:
    """Validate a record document (contract §2); raises InvalidRecord naming what is wrong (`checked`: the caller
    knows the document keeps json_limits' bounds already)."""
    if not isinstance(doc, dict):
        raise InvalidRecord("a record must be a JSON object")
    try:
        if not checked:
            json_limits.check(doc)
    except json_limits.LimitError as e:
        raise InvalidRecord(str(e)) from None
    if doc.get("format") != FORMAT:
        raise InvalidRecord(f"format: expected {FORMAT!r}, got {doc.get('format')!r}")
    game = doc.get("game")
    try:
        spec = spec_for(game if isinstance(game, str) else repr(game))
    except KeyError as e:
        raise InvalidRecord(f"game: {e.args[0]}") from None
    players = doc.get("players")
    dealer, starter = doc.get("dealer"), doc.get("starter")
    options = doc.get("options", {})
    try:
        setup = spec.decider.configure(options, players, dealer, starter)
    except InvalidSetup as e:
        raise InvalidRecord(str(e)) from None
    n = setup.n
    seed = doc.get("seed")
    seed_given = seed is not None
    if seed_given:
        if not isinstance(seed, str) or not seed:
            raise InvalidRecord("seed: must be a non-empty hex string")
        if not _HEX.fullmatch(seed):
            raise InvalidRecord(f"seed: {seed[:40]!r} is not a hex string (an even number of 0-9a-f digits)")
    else:
        seed = new_seed()
    codec = spec.codec
    outcomes = _outcomes(codec, doc.get("outcomes"))
    stacked = "deck" in doc
    if stacked:
        deck = _cards(codec, doc["deck"], "deck")
        try:
            codec.check_deck(setup, deck)
        except InvalidSetup as e:
            raise InvalidRecord(str(e)) from None
        label = spec.deck_label  # the label of the game's first shuffle
        if label in outcomes and outcomes[label] != deck:
            raise InvalidRecord(f"deck and outcomes.{label} are both given and differ")
        outcomes[label] = deck
    moves = doc.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidRecord("moves: must be a list")
    return Record(game, spec.decider, setup, seed, seed_given, outcomes, stacked, _parse_moves(moves, n, codec), options)


def _parse_moves(moves: list, n: int, codec: Any) -> list[dict]:
    """parse_move of every move: a move whose seat and type are plainly right goes straight to the game's codec; any
    other, or one the codec refuses, through parse_move, which names what is wrong."""
    parse_own, types = codec.parse_move, codec.move_types
    parsed = []
    for i, m in enumerate(moves):
        if type(m) is dict:
            seat, kind = m.get("seat"), m.get("type")
            if type(seat) is int and 0 <= seat < n and type(kind) is str and kind in types:
                try:
                    parsed.append(parse_own(m, n))
                    continue
                except (MalformedMove, RecursionError):
                    pass
        parsed.append(parse_move(m, n, codec, f"moves[{i}]", index=i))  # raises InvalidRecord, or parses as above
    return parsed


def _outcomes(codec: Any, value: Any) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidRecord("outcomes must be an object {label: cards}")
    out = {}
    for label, v in value.items():
        if isinstance(v, list):
            out[label] = _cards(codec, v, f"outcomes.{label}")
        elif _is_int(v):
            out[label] = v
        else:
            raise InvalidRecord(f"outcomes.{label}: must be a list of card strings or an integer")
    return out


def parse_move(m: Any, n: int, codec: Any, where: str = "move", index: int | None = None) -> dict:
    """Validate one move's seat and type, then its own fields through the game's codec (its spec's); raises
    InvalidRecord."""
    if not isinstance(m, dict):
        raise InvalidRecord(f"{where}: must be an object with seat and type")
    seat = m.get("seat")
    if not _is_int(seat) or not 0 <= seat < n:
        raise InvalidRecord(f"{where}.seat: must be a seat number from 0 to {n - 1}, got {seat!r}")
    kind = m.get("type")
    if not isinstance(kind, str) or kind not in codec.move_types:
        raise InvalidRecord(f"{where}.type: unknown move type {kind!r}; expected one of {', '.join(sorted(codec.move_types))}")
    try:
        return codec.parse_move(m, n)
    except MalformedMove as e:
        if not e.field:  # a move whose whole shape is wrong: "move 3: <what it needs>"
            raise InvalidRecord(f"move {index}: {e.reason}" if index is not None else e.reason) from None
        raise InvalidRecord(f"{where}.{e.field}: {e.reason}") from None
    except RecursionError:
        raise InvalidRecord(f"{where}: nested too deeply") from None


@dataclass
class Replay:
    """The result of replaying a record: the final state, how many moves applied, the first illegal one."""

    record: Record
    state: Any
    events: list[dict]
    moves_applied: int
    illegal: dict | None

    def verdict(self) -> dict:
        """The verdict JSON of contract §2."""
        d = self.record.decider
        outcome = d.outcome(self.state)
        if self.illegal is not None:
            status = "illegal"
        else:
            status = "finished" if outcome.is_over else "in_progress"
        return {
            "status": status,
            "moves_applied": self.moves_applied,
            "result": outcome.result,
            "winner": outcome.winner_json(),
            "illegal": self.illegal,
            "final": d.final(self.state),
        }


def fast_road(record: Record, allowed: bool = True) -> Any:
    """The game's second road for this record (domain.spec.FastReplay), or None when it has none, was not written
    for the record's set-up, or is not `allowed` (`arbiter replay --no-fast-road`, ARBITER_FAST_ROAD=0, read at the
    edge by service.fast_road: a replay then judges exactly as live play does): then every move takes `step`."""
    fast = spec_for(record.game).fast_replay if allowed else None
    return fast if fast is not None and fast.takes(record.setup) else None


def replay(record: Record, keep_events: bool = False, fast_road_allowed: bool = True) -> Replay:
    """Replay a validated record through its bare decider (no store), on the game's fast road where it has one for
    the record and it is allowed."""
    d = record.decider
    chance = record.chance
    state = d.initial_state(record.setup)
    events: list[dict] = []
    try:
        opening = d.start(record.setup, chance)
    except InvalidSetup as e:
        raise InvalidRecord(str(e)) from None
    for e in opening:
        state = d.evolve(state, e)
    if keep_events:
        events.extend(opening)
    fast = fast_road(record, fast_road_allowed)
    step = (fast.fold_step or d.step) if fast else d.step  # no state before a move is kept: in place where it can
    fold = fast.fold_moves if fast else None  # a verdict-only loop over the ordinary moves (domain/spec.py)
    illegal = None
    applied = 0
    try:
        if keep_events:
            for move in record.moves:
                new_events, state = step(state, move, chance)
                events.extend(new_events)
                applied += 1
        elif fold is not None:  # the loop folds what it can, the step takes each move it leaves (and may raise)
            moves, end = record.moves, len(record.moves)
            while True:
                state, applied = fold(state, moves, applied, chance)
                if applied == end:
                    break
                state = step(state, moves[applied], chance)[1]
                applied += 1
        else:
            for move in record.moves:
                state = step(state, move, chance)[1]
                applied += 1
    except RuleViolation as v:
        illegal = {"move_index": applied, "rule": v.clause, "reason": v.reason}
    return Replay(record, state, events, applied, illegal)


def to_document(game: str, setup: Any, seed: str | None, outcomes: dict, moves: list[dict]) -> dict:
    """An `arbiter.record/1` document from a set-up and moves with int cards (the inverse of parse)."""
    spec = spec_for(game)
    d = spec.codec
    doc: dict = {"format": FORMAT, "game": game, "options": setup.options(), "players": setup.players()}
    if seed is not None:
        doc["seed"] = seed
    fixed = dict(outcomes)
    label = spec.deck_label
    if label in fixed:
        doc["deck"] = [d.format_card(c) for c in fixed.pop(label)]
    if setup.dealer is not None:
        doc["dealer"] = setup.dealer
    if setup.starter is not None:
        doc["starter"] = setup.starter
    if fixed:
        doc["outcomes"] = {k: [d.format_card(c) for c in v] if isinstance(v, list) else v for k, v in fixed.items()}
    doc["moves"] = [d.format_move(m) for m in moves]
    return doc

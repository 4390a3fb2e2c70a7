"""A stored game decided again, decision by decision, in one pass that the deal and engine checks share.

The decoded rows are cut into decisions: the opening (the Created event and the engine's events after it), then each
seat's event with the engine's events after it, and each rewind. The pass decides each decision once with the game's
own decider (`step`, or `start` for the opening), with a chance that hands out the outcomes the store holds, and hands
what it decided to the checks that asked (service.verification.deal_check, service.verification.engine_check). The
game's state after each decision is the fold of the stored events (the decided events, already folded by `step`,
where they are the stored ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from domain.game import ENGINE, Game
from domain.games import spec_for
from domain.randomness import Chance


class Decision(NamedTuple):
    """One decision of a stored game: `move` is None for the opening, the Rewound event for a rewind, else the seat's
    move (the decider's move_of of its first event); `happened` its Happened rows with their decoded events, `reveals`
    its SeedRevealed rows (made with `_decision`: a plain tuple's speed, a decision a move)."""

    move: Any
    happened: list
    reveals: tuple | list = ()

    @property
    def version(self) -> int:
        """The version of its first Happened event."""
        return self.happened[0][0].version

    @property
    def ends_revealed(self) -> bool:
        """Whether its last row is a SeedRevealed one (rows come in version order)."""
        return bool(self.reveals) and (not self.happened or self.reveals[-1].version > self.happened[-1][0].version)


_decision = tuple.__new__  # Decision's own constructor is a Python function: this is the tuple's, in C


@dataclass
class Cut:
    """A game's decisions and its Happened events decoded in order; `decode_error`: the first event whose data does
    not decode (decoding stopped there), `error`: the first failure in cutting (a decoding, an actor or a move that
    cannot be read: `decisions` stopped there)."""

    decisions: list
    decoded: list
    decode_error: Exception | None = None
    error: Exception | None = None


def cut(decider: Any, rows: list) -> Cut:
    """The decoded rows after the Created event cut into decisions (module docstring)."""
    decisions: list[Decision] = [_decision(Decision, (None, [], ()))]
    decoded: list = []
    out = Cut(decisions, decoded)
    decode, move_of = spec_for(rows[0].event.game).codec.decode_event, decider.move_of
    happened_kind, rewound, revealed = Game.Happened, Game.Rewound, Game.SeedRevealed
    error = None
    for row in rows[1:]:
        kind = row.kind
        if kind is happened_kind:
            fields = row.fields
            try:
                event = decode(fields["data"])
            except Exception as e:
                out.decode_error = _as_read(e, fields, "data")
                out.error = error or out.decode_error
                return out
            decoded.append(event)
            if error is not None:
                continue  # the decisions stopped: only the decoding goes on
            try:
                if fields["actor"] != ENGINE:
                    decisions.append(_decision(Decision, (move_of(event), [(row, event)], ())))
                    continue
            except Exception as e:
                error = out.error = _as_read(e, fields, "actor")
                continue
            decisions[-1].happened.append((row, event))
        elif error is not None:
            continue
        elif kind is rewound:
            decisions.append(_decision(Decision, (row.event, [], ())))
        elif kind is revealed:
            last = decisions[-1]
            decisions[-1] = last._replace(reveals=[*last.reveals, row])
    return out


def _as_read(error: Exception, fields: dict, name: str) -> Exception:
    """The error reading `name` from a row's event object would have met: AttributeError where the row lacks it."""
    return AttributeError(name) if isinstance(error, KeyError) and name not in fields else error


class SeedCheck(Chance):
    """The chance of a decision the store holds random outcomes for: gives each label the outcome the store holds, and
    notes whether the revealed seed alone gives the same (contract §4); a label the store lacks comes from the seed.

    `replay`: the game's own chance (its Created seed and the record's fixed outcomes), where the engine check follows
    the pass: `departs` turns true when a stored outcome is not what that chance gives."""

    __slots__ = ("stored", "seeded", "checked", "replay", "departs")

    def __init__(self, seed: str, stored: dict, replay: Chance | None = None):
        super().__init__(seed)
        self.stored = stored
        self.seeded = Chance(seed)
        self.checked: list[tuple[str, bool]] = []
        self.replay, self.departs = replay, False

    def _replayed(self, label: str, got: Any, mine: Any, draw: str, arg: Any) -> None:
        if label not in self.replay.outcomes:
            self.departs = self.departs or got != mine
            return
        try:
            self.departs = self.departs or got != getattr(self.replay, draw)(label, arg)
        except Exception:  # a fixed outcome that does not fit: not the engine's game
            self.departs = True

    def shuffle(self, label, items):
        mine = self.seeded.shuffle(label, items)
        got = self.stored.get(label, mine)
        self.checked.append((label, got == mine))
        if self.replay is not None:
            self._replayed(label, got, mine, "shuffle", items)
        return list(got)

    def randbelow(self, label, n):
        mine = self.seeded.randbelow(label, n)
        got = self.stored.get(label, mine)
        self.checked.append((label, got == mine))
        if self.replay is not None:
            self._replayed(label, got, mine, "randbelow", n)
        return got


def redecide(decider: Any, created: Any, cutting: Cut, revealed: str | None, deal: Any = None, lines: tuple = ()) -> None:
    """Decide the game again (module docstring), handing each decision to `deal` (`decided(decision, chance, error)`,
    for decisions with stored random outcomes, once the seed is revealed) and to each of `lines` (`decided(number,
    decision, events, error, chance, before, after)`, for every decision: `events` None where they are not the stored
    ones, `before` and `after` the game's state around it); raises what configuring the game or folding a stored event
    raises, and the cut's error."""
    setup = decider.configure(created.options, created.players, created.dealer, created.starter)
    state = decider.initial_state(setup)
    if cutting.error is not None:
        raise cutting.error
    own = Chance(created.seed, created.outcomes) if lines else None
    start, step, evolve, chance_of = decider.start, decider.step, decider.evolve, decider.chance_of
    load_state = spec_for(created.game).codec.load_state
    rewound = Game.Rewound
    for number, decision in enumerate(cutting.decisions):
        move, happened, _ = decision
        if move.__class__ is rewound:
            before, state = state, load_state(move.state)
            for line in lines:
                line.decided(number, decision, None, None, None, before, state)
            continue
        results = None
        if deal is not None:
            results = {}
            for _, event in happened:
                results.update(chance_of(event))
        dealt = bool(results)
        decided = after = error = chance = None
        if dealt or lines:
            chance = SeedCheck(revealed, results, own) if dealt else own
            try:
                if move is None:
                    decided = start(setup, chance)
                else:
                    decided, after = step(state, move, chance)
            except Exception as e:  # the stored line cannot be decided again: each check says what that means
                error = e
            if dealt:
                deal.decided(decision, chance, error)
        same = decided is not None and len(decided) == len(happened)
        if same:
            for mine, (_, stored) in zip(decided, happened):
                if mine != stored:
                    same = False
                    break
        before = state
        if same and after is not None:
            state = after
        else:
            for _, event in happened:
                state = evolve(state, event)
        for line in lines:
            line.decided(number, decision, decided if same else None, error, chance, before, state)

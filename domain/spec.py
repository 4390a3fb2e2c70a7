"""What a game declares about itself: one `GameSpec` per game, read by every generic part of arbiter.

The OpenSpiel idea (../shared/STYLE.md): a game is its rules plus a declared type — players, options with
defaults, what it can do beyond the Decider contract — and generic code reads that declaration instead of
asking which game it is. Each game package exports its spec once (``domain/<game>/spec.py``, ``SPEC``) and
``domain/games.py`` lists where each spec lives, one line per game.

What sits above the domain (its bot, its projection, its page partial) is named here by a dotted path or a
resource string and never imported: the domain imports nothing above it. It runs over 300 lines because each
capability a game may declare is explained beside its field: one concept, the declaration, read in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .kit.codec import Codec

OPTION_KINDS = ("choice", "flags", "int", "bool")


@dataclass(frozen=True)
class Choice:
    """One value an option may take, and how a person reads it."""

    value: Any
    label: str


@dataclass(frozen=True)
class OptionSpec:
    """One field of a game's `options` object, as its `configure` validates it (the set-up stays the judge).

    kind: ``choice`` (one of `choices`), ``flags`` (a list of some of `choices`, each at most once),
    ``int`` (an integer from `low` to `high`), ``bool`` (true or false). `default` is what leaving the
    field out means (None: nothing, e.g. no limit); `note` says in words when the option applies.
    """

    name: str
    kind: str
    label: str
    clause: str
    default: Any = None
    choices: tuple[Choice, ...] = ()
    low: int | None = None
    high: int | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {', '.join(OPTION_KINDS)}")

    def as_json(self) -> dict:
        """The option as plain JSON types (the lobby form, the API's description)."""
        out: dict = {"name": self.name, "kind": self.kind, "label": self.label, "clause": self.clause,
                     "default": self.default}
        if self.choices:
            out["choices"] = [{"value": c.value, "label": c.label} for c in self.choices]
        if self.low is not None:
            out["low"] = self.low
        if self.high is not None:
            out["high"] = self.high
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Seats:
    """A range of players a game seats, and the clause that says so; with `option`, the range that applies when
    that option is (for flags: includes) `value`."""

    low: int
    high: int
    clause: str
    option: str | None = None
    value: Any = None

    def applies(self, options: dict) -> bool:
        """Whether this range is the one for a table with these options (a plain range always applies)."""
        if self.option is None:
            return True
        given = (options or {}).get(self.option)
        return self.value in given if isinstance(given, list) else given == self.value

    def text(self) -> str:
        """``3–4`` or ``2``."""
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


@dataclass(frozen=True)
class Length:
    """How a balance report measures a finished game's length, in the game's own unit: the number of moves of
    type `move`, or of events of type `event`, or the field `final` of the verdict's `final`; else every move."""

    unit: str = "moves"
    move: str | None = None
    event: str | None = None
    final: str | None = None

    def of(self, events: list[dict], moves: list[dict], verdict: dict) -> int:
        """The length of one game (its events, its moves `say` aside, its verdict)."""
        if self.final is not None:
            return verdict["final"][self.final]
        if self.event is not None:
            return sum(1 for e in events if e["type"] == self.event)
        if self.move is not None:
            return sum(1 for m in moves if m["type"] == self.move)
        return len(moves)


@dataclass(frozen=True)
class Ending:
    """Where a finished game says why it ended: the field `field` of its last event of type `event`."""

    event: str
    field: str

    def of(self, events: list[dict]) -> str:
        """The ending kind of a finished game's events."""
        return next(e[self.field] for e in reversed(events) if e["type"] == self.event)


@dataclass(frozen=True)
class FastReplay:
    """A game's second road for records.replay, and the set-ups it was written for: replay takes it only for a set-up
    whose every option it declares with the value the set-up has; any other game takes the decider's `step` alone.
    tests/unit/test_fast_roads.py holds it to `step` over every registered game and option.

    `options`: option name -> the values the road was written for, or None for every value `configure` accepts
    (a flags option's list is taken when each flag is listed). An option the game gains later is not declared
    here, so its games take the slow road until someone writes the road for it and says so.
    """

    options: Mapping[str, tuple | None]
    # (state, move, chance) -> (events, state): step for a caller that keeps no earlier state; it may apply the move
    # to the state given and return that, leaving it as it was when the move is illegal
    fold_step: Callable | None = None
    # (state, moves, start, chance) -> (state, stop): the verdict-only loop; applies moves[start:] in place while it
    # can prove each legal and ordinary and returns the index of the first it left (len(moves) when none); never
    # raises: replay hands the move at `stop` to fold_step (or step) and calls it again after
    fold_moves: Callable | None = None

    def takes(self, setup: Any) -> bool:
        """Whether the road was written for this set-up (its `options()`, the record's canonical options)."""
        for name, value in setup.options().items():
            if name not in self.options:
                return False
            allowed = self.options[name]
            if allowed is None:
                continue
            if isinstance(value, list):
                if not all(v in allowed for v in value):
                    return False
            elif value not in allowed:
                return False
        return True


@dataclass(frozen=True)
class Analysis:
    """A game's computer analysis (docs/analysis.md): what domain.analysis needs to judge a seat's decisions by
    determinized rollouts, knowing only what that seat had seen.

    `sample(setup, seat, seen, rng)` builds one full decider state consistent with `seen` and nothing else: `seen` is
    the seat's knowledge up to a version, one entry per game event, ``{"kind", "data", "shown"}``: the event's stored
    data as the game's projection redacts it for that seat, and the cards (strings) the event showed that seat,
    privately or to all (the decider's `disclosed`, as the disclosure ledger reads it). `playout(state, seat, rng,
    chance)` plays on from a state with the game's cheap rollout players, in place where it likes, and returns the
    seat's value: 1/0 (a win; 1/k shared) with `unit` "win", the seat's score with `unit` "score".
    `candidates(state, seat)` lists the moves worth comparing (None: every legal move of the seat; an empty list:
    the decision is not analysed, e.g. 40,320 orderings). Values are shown in points: `scale` points per unit of
    value (100: a probability in percentage points); `tolerance` is the half-width, in points, of the 95% interval
    the engine aims at; `marks` are the losses, in points, from which a move is an inaccuracy, a mistake, a blunder.
    """

    sample: Callable[..., Any]
    playout: Callable[..., float]
    candidates: Callable[..., list | None] | None = None
    unit: str = "win"
    scale: float = 100.0
    tolerance: float = 5.0
    marks: tuple[float, float, float] = (5.0, 10.0, 20.0)
    horizon: str = "the end of the game"  # what a rollout plays to, in words (docs, the CLI's header)
    # playout takes `memo=`, a dict the candidates of one sample share: a rollout that reaches a position (and rollout
    # stream) another candidate's reached may return that one's value (an exact shortcut: the value is the same)
    memo: bool = False
    # sample split in two (optional, both or neither): fold(setup, seat, seen) reads the knowledge once per decision,
    # deal(folded, rng) draws one state from it (what sample does in one go, without reading `seen` every sample)
    fold: Callable[..., Any] | None = None
    deal: Callable[..., Any] | None = None
    # playout takes `before=`, the sampled state the candidate move was made in (a value counted from it: a round's)
    before: bool = False
    # inference from the other seats' public choices (needs fold/deal): evidence(folded, state) is the likelihood, up
    # to a constant factor and at most 1, that the other seats made the choices the seat saw them make if they held
    # the sampled state's hidden cards, under the game's stated opponent model; domain.analysis draws `proposals`
    # states a sample and keeps one in proportion to it (importance resampling). None: plain sampling.
    evidence: Callable[..., float] | None = None
    proposals: int = 8
    # whether the study room's analysis (domain.analysis) weighs its samples by `evidence` too. The fair-play worlds
    # always do (domain.fairplay.dealer): the rank test's null needs them drawn as the seat's observations say. For
    # the analysis a model is kept only if it makes the analysis stronger (docs/analysis.md "Inference").
    analysis_infers: bool = True
    # key(state, seat, move): the group of equivalent moves a move belongs to (candidates lists one move a group);
    # domain.analysis puts the move played in place of its group's candidate. None: every move is its own group.
    key: Callable[..., Any] | None = None
    # REFEREE ONLY, the pair test (domain.collusion): hand(state, seat), the cards of a seat's hand in a full state; a
    # game that declares it lets `sample` (and `fold`) take `hands=`, {seat: cards}, hands the sampling seat is told
    # (a colluding partner's), and draws the rest as before. None: the game has no pair test.
    hand: Callable[..., list] | None = None
    # the guarded analysis player's bound (domain/analysis_player.py), in standard errors of the paired samples: how
    # sure the analysis must be that its best move beats the prior (the heuristic bot's) before it overrules it.
    # 1.645 (95%, one-sided) where the bot is the stronger player; 0 (a better mean is enough) where plain sampling
    # already beats the bot (docs/analysis.md "Strength")
    guard: float = 1.6448536269514722
    # the fair-play screen's judge (domain.screening, docs/fairplay.md "The glance"): glance(after, seat, rng, chance,
    # before) the seat's value, in the unit, of the state a candidate move made from `before`, read at once (or after
    # a short, cheap continuation) instead of a rollout to the horizon. Any fixed rule keeps the screen's null (the
    # true state and the sampled worlds are judged alike); one that sees what a move gains at once gives it power
    # and costs little. None: the screen rolls out like the analysis.
    glance: Callable[..., float] | None = None
    glance_words: str = ""  # what the glance judges, in words, for the reports ("whether the strike removed a card")
    # the screen's false-referral rate as measured over simulated honest players (docs/fairplay.md), in words, for the
    # review packet's calibration: what a referee and a suspected player may rely on for this game. "": not measured
    calibrated: str = ""


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code knows about one game. Optional capabilities are None (or their default) when the
    game has none; generic code reads them here, never by probing the decider."""

    # who it is
    id: str  # the contract's game id
    title: str  # how people name it
    prefix: str  # its rulebook's clause prefix ("ER")
    decider: Any  # the Decider package (domain/rules.py): the rules
    codec: Codec  # the game at its edges: move types, cards, moves, stored events, snapshots, the pack
    # the table
    seats: tuple[Seats, ...]  # the first is the base range; a later one applies when its option says so
    teams: str | None = None  # the clause that lets players form teams; None: individuals only
    options: tuple[OptionSpec, ...] = ()
    example_options: tuple[dict, ...] = ({},)  # tables the generic property tests and examples play
    # capabilities beyond the Decider contract
    deck_label: str = "deal"  # the random step a record's `deck` fixes (contract §2)
    # (state) -> the pass of the seat to act that the table's `auto_pass` option lets the service make, only where
    # every seat can see it is forced (docs/desk.md), else None; games without it refuse the option
    forced_pass: Callable[[Any], dict | None] | None = None
    # records.replay's second road (FastReplay): the set-ups it was written for, and its in-place step and loop
    fast_replay: FastReplay | None = None
    # (decoded events, revealed seed) -> {"ok", "problems", ...}: the game's own evidence check once the seed is
    # revealed (the service shows it in verify, the audit, the exported record and the import answer)
    honesty: Callable[[list, str], dict] | None = None
    # computer analysis (Analysis): the seat-knowledge sampler and the rollout players; without it analysis refuses
    analysis: Analysis | None = None
    # matches and tournaments (domain/tournament, docs/tournaments.md); without next_deal every game of a match
    # draws dealer and starter from its own seed
    next_deal: Callable | None = None  # (setup, state | None) -> NextDeal: who deals and starts the next game
    match_games: Callable | None = None  # (setup) -> the length of a match the rulebook fixes
    rank_by_score: bool = False  # a match is won on the score total, not on games won
    # balance reports
    length: Length = Length()
    setup_moves: frozenset[str] = frozenset()  # move types made before play (the first player is the first other)
    ending: Ending | None = None  # None: the verdict's result
    # the game's parts above the domain, by name (never imported here)
    projection: str = ""  # module offering table(state, viewer, disclose_all) and redact(kind, data, viewer, n)
    narration: str | None = None  # "module:function": describe(event, names) -> str | None
    bot: str | None = None  # "module:Class": the heuristic bot, Class(seat, rng)
    partial: str | None = None  # "package:path": the page partial (api/templates/games/_generic.html if None)
    rulebook: str | None = "rulebook.md"  # a resource of the decider's package

    def seats_for(self, options: dict | None) -> Seats:
        """The range of players for a table with these options (the last range that applies)."""
        return [s for s in self.seats if s.applies(options or {})][-1]

    @property
    def min_players(self) -> int:
        """The fewest players any table of the game seats."""
        return min(s.low for s in self.seats)

    @property
    def max_players(self) -> int:
        """The most players any table of the game seats."""
        return max(s.high for s in self.seats)

    def players_text(self) -> str:
        """The player ranges in words: ``3–4 players (5–6 with five_six)``."""
        base, *others = self.seats
        extra = "".join(f" ({s.text()} with {s.value if s.value is not True else s.option})" for s in others)
        return f"{base.text()} players{extra}"

    def rulebook_file(self):
        """The rulebook as a resource of the decider's package (a Traversable), or None."""
        return None if self.rulebook is None else resources.files(self.decider.__name__) / self.rulebook

    def as_json(self) -> dict:
        """What the lobby and the API show of a game: id, title, players, teams and options (plain JSON types)."""
        return {"id": self.id, "title": self.title, "min_players": self.min_players, "max_players": self.max_players,
                "players_text": self.players_text(), "teams": self.teams is not None,
                "options": [o.as_json() for o in self.options]}


def load(location: str) -> Any:
    """The object a ``module:attribute`` location names (a spec, a bot class, a function), imported now."""
    import importlib

    module, _, attribute = location.partition(":")
    target = importlib.import_module(module)
    for part in attribute.split(".") if attribute else ():
        target = getattr(target, part)
    return target

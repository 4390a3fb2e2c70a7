"""Every second road of records.replay (a game's `FastReplay`, domain/spec.py) gives the decider's answer, and takes
only the set-ups it declares: over every registered game and a representative grid of every option its spec declares
(each value, and their combinations while the grid is small), random games with says, stacked decks and random wrong
moves replay to the same verdict (the first illegal move, its clause and reason) and the same final state by
`records.replay` as by the decider's `step` alone; a set-up with an option the road does not declare never reaches it.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from domain.autoplay import pick_move
from domain.games import DECIDERS, SPECS, registered
from domain.randomness import Chance
from domain.records import Replay, fast_road, parse, replay, to_document
from domain.rules import InvalidSetup, RuleViolation
from domain.spec import FastReplay, OptionSpec

GAMES = sorted(DECIDERS)
ABSENT = object()  # the option left out of the record (its default)
MAX_GRID = 40  # option combinations a game plays at most
FAST = [g for g in GAMES if SPECS[g].fast_replay is not None]


def values_of(option: OptionSpec) -> list:
    """A representative set of an option's values: each choice, both booleans, an integer's default, lowest and a
    small one, a flags option's empty list, each flag alone and every pair."""
    if option.kind == "choice":
        return [ABSENT] + [c.value for c in option.choices]
    if option.kind == "bool":
        return [ABSENT, False, True]
    if option.kind == "int":
        return [ABSENT, option.low] + ([option.low + 3] if option.high is None else [])
    flags = [c.value for c in option.choices]
    return [ABSENT, []] + [[f] for f in flags] + [list(pair) for pair in itertools.combinations(flags, 2)]


def option_grid(game: str) -> list[dict]:
    """Options objects of the game: every combination of values_of when they are few, else a seeded sample that
    still gives every value of every option at least once."""
    spec = SPECS[game]
    names = [o.name for o in spec.options]
    values = [values_of(o) for o in spec.options]
    combos = list(itertools.product(*values))
    if len(combos) > MAX_GRID:
        singles = [tuple(v if k == i else ABSENT for k in range(len(names))) for i, vs in enumerate(values) for v in vs]
        combos = singles + random.Random(game).sample(combos, MAX_GRID)
    return [{n: v for n, v in zip(names, combo) if v is not ABSENT} for combo in combos]


def tables(game: str) -> list[tuple[dict, int]]:
    """(options, seats) the game accepts, one seat count per options object of the grid (seeded)."""
    d, spec = DECIDERS[game], SPECS[game]
    rng = random.Random(f"{game}:seats")
    out = []
    for options in option_grid(game):
        counts = list(range(spec.min_players, spec.max_players + 1))
        rng.shuffle(counts)
        for n in counts:
            try:
                d.configure(options, _players(n), None, None)
            except InvalidSetup:
                continue
            out.append((options, n))
            break
    return out


def _players(n: int) -> list[dict]:
    return [{"name": f"P{i}"} for i in range(n)]


def _parses(d, move: dict, n: int) -> bool:
    """Whether a made-up move survives the record's codec unchanged (else it is not a move a record can hold)."""
    try:
        return d.parse_move(d.format_move(move), n) == move
    except Exception:
        return False


def wrong_moves(d, state, setup, earlier: list[dict], rng: random.Random) -> list[dict]:
    """Moves of the shapes a record can hold, most of them illegal now: a legal move by another seat, of another type,
    with a card swapped, named twice or none; a move legal at an earlier point of the game."""
    legal = list(itertools.islice(d.legal_moves(state), 300))
    pack = d.pack(setup)
    types = sorted(d.MOVE_TYPES - {"say"})
    out = [rng.choice(earlier)] if earlier else []
    for move in rng.sample(legal, min(3, len(legal))):
        out.append(dict(move, seat=(move["seat"] + rng.randint(1, setup.n - 1)) % setup.n))
        out.append(dict(move, type=rng.choice(types)))
        cards = list(move.get("cards") or ())
        if cards:
            swapped = cards.copy()
            swapped[rng.randrange(len(cards))] = rng.choice(pack)
            out += [dict(move, cards=swapped), dict(move, cards=cards + cards[:1]), dict(move, cards=[])]
    return [m for m in out if _parses(d, m, setup.n)]


def random_record(game: str, options: dict, n: int, index: int):
    """A random game of this table as a validated record: legal moves, says now and then, sometimes a stacked deck,
    and (in most games) one wrong move somewhere, or a move after the end."""
    d, spec = DECIDERS[game], SPECS[game]
    rng = random.Random(f"{game}:{options}:{n}:{index}")
    setup = d.configure(options, _players(n), None, None)
    seed = f"{rng.getrandbits(32):08x}"
    outcomes = {}
    if rng.random() < 0.3:
        deck = rng.sample(d.pack(setup), len(d.pack(setup)))
        try:
            d.check_deck(setup, deck)
            outcomes = {spec.deck_label: deck}
        except InvalidSetup:
            pass
    chance = Chance(seed, outcomes)
    state = d.initial_state(setup)
    try:
        for e in d.start(setup, chance):
            state = d.evolve(state, e)
    except InvalidSetup:  # a stacked deck this opening refuses
        return random_record(game, options, n, index + 1000)
    moves: list[dict] = []
    limit = rng.choice([30, 150, 500])
    wrong_at = rng.randrange(-limit // 2, limit)
    while len(moves) < limit:
        if rng.random() < 0.05:
            moves.append({"seat": rng.randrange(n), "type": "say", "text": "hm"})
        if d.outcome(state).is_over:
            if moves and rng.random() < 0.3:
                moves.append(rng.choice(moves))
            break
        if len(moves) == wrong_at:
            wrong = wrong_moves(d, state, setup, moves, rng)
            if wrong:
                moves.append(rng.choice(wrong))
        move = pick_move(list(itertools.islice(d.legal_moves(state), 300)), rng)  # a formation's arrangements: enough
        _, state = d.step(state, move, chance)
        moves.append(move)
    return parse(to_document(game, setup, seed, outcomes, moves))


def slow_replay(record) -> Replay:
    """The record replayed by the decider's `step` alone, on a fresh state each move (the slow road)."""
    d, chance = record.decider, record.chance
    state = d.initial_state(record.setup)
    for e in d.start(record.setup, chance):
        state = d.evolve(state, e)
    applied, illegal = 0, None
    for move in record.moves:
        try:
            _, state = d.step(state, move, chance)
        except RuleViolation as v:
            illegal = {"move_index": applied, "rule": v.clause, "reason": v.reason}
            break
        applied += 1
    return Replay(record, state, [], applied, illegal)


def _same(fast: Replay, slow: Replay) -> None:
    d = slow.record.decider
    assert fast.verdict() == slow.verdict()
    assert fast.state == slow.state
    assert d.dump_state(fast.state) == d.dump_state(slow.state)


@pytest.mark.parametrize("game", GAMES)
def test_replay_gives_the_deciders_verdict_and_state_for_every_option_of_every_game(game):
    grid = tables(game)
    # a game without a second road replays by step either way: fewer games, yet a dozen at least
    games = max(3 if game in FAST else 1, -(-12 // len(grid)))
    seen_illegal = 0
    for options, n in grid:
        for index in range(games):
            record = random_record(game, options, n, index)
            slow = slow_replay(record)
            _same(replay(record), slow)
            with_events = replay(record, keep_events=True)  # fold_step for each move, where the road has one
            _same(with_events, slow)
            seen_illegal += slow.illegal is not None
    assert seen_illegal, "no game had a wrong move: the test would not see a wrong verdict"


@pytest.mark.parametrize("game", GAMES)
def test_every_table_of_the_grid_takes_the_road_its_declaration_says(game):
    fast = SPECS[game].fast_replay
    for options, n in tables(game):
        record = random_record(game, options, n, 0)
        taken = fast_road(record)
        if fast is None:
            assert taken is None
            continue
        declared = all(name in fast.options and (fast.options[name] is None or all(
            v in fast.options[name] for v in (value if isinstance(value, list) else [value])))
            for name, value in record.setup.options().items())
        assert (taken is fast) == declared


def test_every_value_a_fast_road_declares_is_one_its_game_offers():
    for game in FAST:
        spec = SPECS[game]
        offered = {o.name: o for o in spec.options}
        for name, allowed in spec.fast_replay.options.items():
            assert name in offered, f"{game}: the fast road declares {name}, which is no option of the game"
            choices = [c.value for c in offered[name].choices]
            if allowed is not None and choices:
                assert set(allowed) <= set(choices), f"{game}: {name} declares values the game does not offer"


class _Spied:
    """A FastReplay whose functions count their calls."""

    def __init__(self, fast: FastReplay, options: dict):
        self.calls = 0

        def counted(function):
            if function is None:
                return None

            def call(*args):
                self.calls += 1
                return function(*args)
            return call

        self.road = FastReplay(options, fold_step=counted(fast.fold_step), fold_moves=counted(fast.fold_moves))


def _declarations_without_one_value(fast: FastReplay, option: OptionSpec) -> list[tuple[dict, object]]:
    """(a declaration missing something, a value of `option` it no longer takes): the option left out, and each of
    its declared values taken away in turn."""
    out = [({k: v for k, v in fast.options.items() if k != option.name}, None)]
    allowed = fast.options.get(option.name)
    for value in allowed or ():
        out.append(({**fast.options, option.name: tuple(v for v in allowed if v != value)}, value))
    return out


@pytest.mark.parametrize("game", FAST)
def test_a_set_up_the_fast_road_does_not_declare_takes_the_decider_alone(game):
    spec = SPECS[game]
    tried = 0
    for option in spec.options:
        for options, value in _declarations_without_one_value(spec.fast_replay, option):
            spied = _Spied(spec.fast_replay, options)
            with registered(game, dataclasses.replace(spec, fast_replay=spied.road)):
                for table_options, n in tables(game):
                    record = random_record(game, table_options, n, 0)
                    canonical = record.setup.options()
                    if option.name not in canonical or (value is not None and canonical[option.name] != value):
                        continue  # the record does not use what the declaration lost
                    _same(replay(record), slow_replay(record))
                    replay(record, keep_events=True)
                    tried += 1
            assert spied.calls == 0, f"{game} with {option.name}={value!r}: the fast road was used though not declared"
    assert tried


@pytest.mark.parametrize("game", FAST)
def test_a_set_up_the_fast_road_declares_takes_it(game):
    """The spy above can see a call: with the game's own declaration, records with moves reach the road."""
    spec = SPECS[game]
    spied = _Spied(spec.fast_replay, dict(spec.fast_replay.options))
    with registered(game, dataclasses.replace(spec, fast_replay=spied.road)):
        for options, n in tables(game)[:4]:
            replay(random_record(game, options, n, 0))
    assert spied.calls

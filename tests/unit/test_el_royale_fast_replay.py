"""El Royale's verdict-only replay loop (domain/el_royale/replay_fast.py) against the decider: over random games with
random wrong moves of every kind, it applies a move only where step accepts it and then makes step's state exactly,
and it leaves every other move, with the state untouched, to the decider; replay's verdicts and final states are
the same with it as without it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain import el_royale as er
from domain.cards import RANK_MASKS, cards_of
from domain.randomness import Chance
from domain.records import parse, replay, to_document
from domain.rules import RuleViolation
from tests.unit.test_el_royale_properties import candidate_moves, choose, play, tables, team_layouts
from tests.conftest import examples


def near_misses(state, legal: list[dict], rng: random.Random) -> list[dict]:
    """Legal moves made wrong by one thing: a card swapped, one added, the order changed, the seat or type changed."""
    out = []
    for move in rng.sample(legal, min(4, len(legal))):
        cards = list(move.get("cards", ()))
        seat = move["seat"]
        hand = cards_of(state.hands[seat])
        if cards:
            swapped = cards.copy()
            swapped[rng.randrange(len(cards))] = rng.choice(hand if hand and rng.random() < 0.7 else range(52))
            out.append(dict(move, cards=swapped))
            same_rank = cards_of(state.hands[seat] & RANK_MASKS[cards[0] % 13]) or hand
            out.append(dict(move, cards=cards + [rng.choice(same_rank or range(52))]))
            out.append(dict(move, cards=rng.sample(cards, len(cards))))
        out.append(dict(move, seat=(seat + rng.randint(1, state.n - 1)) % state.n))
        out.append(dict(move, type=rng.choice(["attack", "throw_in", "beat", "concede", "pass", "claim", "take"]),
                        cards=cards or rng.sample(hand, min(len(hand), 1))))
    return out


def moves_to_try(state, setup, rng: random.Random) -> list[dict]:
    legal = list(er.legal_moves(state))
    probe = state
    if state.to_act is None:  # the game is over: any seat's moves
        probe = state.clone()
        probe.to_act = rng.randrange(setup.n)
    moves = candidate_moves(probe, rng, 6) + near_misses(state, legal, rng)
    moves += [{"seat": rng.randrange(setup.n), "type": "say", "text": "hi"},
              {"seat": rng.randrange(setup.n), "type": "show", "cards": rng.sample(range(52), rng.randint(0, 2))}]
    return moves + rng.sample(legal, min(4, len(legal)))


@settings(max_examples=examples(80), deadline=None)
@given(tables(), st.booleans())
def test_the_loop_applies_a_move_only_as_step_does_and_leaves_any_other_untouched(table, fixed_reshuffles):
    setup, chance, rng, passive = table
    played = chance
    if fixed_reshuffles:  # ER-2.3 with an outcome that may not fit: the loop draws no chance and must leave it
        chance = Chance(chance.seed, {"reshuffle:1": rng.sample(range(52), rng.randint(1, 40))})
    for _, _, _, state in play(setup, played, rng, passive, max_moves=300):
        for move in moves_to_try(state, setup, rng):
            try:
                want = er.step(state, move, chance)[1]
            except RuleViolation:
                want = None
            mine = state.clone()
            got, stop = er.fold_moves(mine, [move], 0, chance)
            assert got is mine
            if stop == 1:
                assert want is not None, ("the loop applied an illegal move", move, state)
                assert got == want, ("the loop's state differs from step's", move, state)
            else:
                assert stop == 0 and got == state, ("the loop changed the state of a move it left", move)


def moves_with_wrong_ones(setup, chance, rng, passive) -> list[dict]:
    """A random game's moves with says and shows among them and, somewhere, a wrong move of any kind (or none)."""
    moves, wrong_at = [], rng.randrange(-40, 250)
    for before, move, _, _ in play(setup, chance, rng, passive, max_moves=250):
        if move is None:
            continue
        if rng.random() < 0.03:
            moves.append({"seat": rng.randrange(setup.n), "type": "say", "text": "x"})
        if rng.random() < 0.03:
            hand = cards_of(before.hands[move["seat"]])
            moves.append({"seat": move["seat"], "type": "show", "cards": rng.sample(hand, min(len(hand), 2))})
        if len(moves) == wrong_at:
            wrong = moves_to_try(before, setup, rng)
            moves.append(rng.choice(wrong))
        moves.append(move)
    return moves


@settings(max_examples=examples(80), deadline=None)
@given(tables())
def test_replay_gives_the_deciders_verdict_and_final_state_with_the_loop(table):
    setup, chance, rng, passive = table
    moves = moves_with_wrong_ones(setup, chance, rng, passive)
    doc = to_document("el-royale", setup, chance.seed, {}, moves)
    fast = replay(parse(doc))  # the loop, the step for what it leaves
    slow = replay(parse(doc), keep_events=True)  # step for every move
    assert fast.verdict() == slow.verdict()
    assert fast.state == slow.state


# -- every ending, both roads --------------------------------------------------------------------------------------

# The endings the rulebook has, by edition: a win by play (ER-4.1), a win by elimination (ER-4.3 R; eliminations are
# the revised edition's, ER-5), a draw at the battle limit (ER-4.4). The verdict's `result` names each.
ENDINGS = {"classic": {"win", "draw"}, "revised": {"win", "elimination", "draw"}}
MAX_GAMES = 120


def _option_grid() -> list[tuple[dict, list[dict]]]:
    """Every option of the game with each of its values (edition, a battle limit or none, auto-pass on or off), over
    2 to 8 seats and every team layout, interleaved so that any prefix mixes them."""
    out = []
    layouts = [(n, teams) for n in (2, 3, 4, 5, 6, 8) for teams in team_layouts(n)]
    for i, (n, teams) in enumerate(layouts * 2):
        for edition in ("revised", "classic"):
            options = {"edition": edition}
            if i % 3 == 1:
                options["battle_limit"] = 6 + 7 * (i % 4)
            if i % 2:
                options["auto_pass"] = True
            players = [{"name": f"P{k}"} if teams is None else {"name": f"P{k}", "team": teams[k]} for k in range(n)]
            out.append((options, players))
    return out


def _to_the_end(setup, chance, rng: random.Random, passive: float, max_moves: int = 2500) -> list[dict]:
    """A game the decider plays to its end (or `max_moves`): random legal moves, passive seats conceding and passing
    more (eliminations), and a seat holding few cards taking a play that ends the game when it has one (a win by play
    is otherwise rare in random games); a say or a show now and then."""
    state = er.initial_state(setup)
    for e in er.start(setup, chance):
        state = er.evolve(state, e)
    moves = []
    while not er.outcome(state).is_over and len(moves) < max_moves:
        legal = list(er.legal_moves(state))
        seat = legal[0]["seat"]
        move = None
        if state.hands[seat].bit_count() <= 4:
            move = next((m for m in legal if len(m.get("cards", ())) == state.hands[seat].bit_count()
                         and er.outcome(er.step(state, m, chance)[1]).is_over), None)
        if move is None:
            move = choose(legal, rng, passive)
        if rng.random() < 0.01:
            moves.append({"seat": rng.randrange(setup.n), "type": "say", "text": "x"})
        moves.append(move)
        state = er.step(state, move, chance)[1]
    return moves


def test_the_fast_road_gives_the_deciders_verdict_at_every_ending_of_every_option(monkeypatch):
    """Random games of every option played to their end by the decider, until each ending of each edition has been
    reached (at most MAX_GAMES): `arbiter replay --json`'s road (the verdict-only loop) gives the verdict and the
    final state of the decider's `step` alone (ARBITER_FAST_ROAD=0) and of the step of live play (with events). The
    test fails, rather than stop covering an ending, when one is never reached."""
    grid = _option_grid()
    reached: dict[str, set] = {edition: set() for edition in ENDINGS}
    games = 0
    while games < len(grid) // 2 or any(reached[e] != ENDINGS[e] for e in ENDINGS):
        assert games < MAX_GAMES, f"endings never reached in {MAX_GAMES} games: " + ", ".join(
            f"{e} {sorted(ENDINGS[e] - reached[e])}" for e in ENDINGS if reached[e] != ENDINGS[e])
        options, players = grid[games % len(grid)]
        rng = random.Random(f"endings:{games}")
        setup = er.configure(options, players)
        chance = Chance(f"{games:04x}")
        doc = to_document("el-royale", setup, chance.seed, {}, _to_the_end(setup, chance, rng, rng.random() * 0.6))
        games += 1
        monkeypatch.delenv("ARBITER_FAST_ROAD", raising=False)
        fast = replay(parse(doc))
        live = replay(parse(doc), keep_events=True)
        monkeypatch.setenv("ARBITER_FAST_ROAD", "0")
        decider = replay(parse(doc))
        monkeypatch.delenv("ARBITER_FAST_ROAD")
        assert fast.verdict() == decider.verdict() == live.verdict(), (options, len(players), games - 1)
        assert fast.state == decider.state == live.state
        verdict = decider.verdict()
        if verdict["status"] == "finished":
            assert verdict["result"] in ENDINGS[options["edition"]]
            reached[options["edition"]].add(verdict["result"])


def test_fold_step_folds_in_place_when_the_record_fixes_only_the_openings_outcomes():
    """decider.fold_step: the state given becomes the state after the move, unless the record fixes an outcome past
    the opening (then it is step, on a copy)."""
    from domain.el_royale.decider import fold_step
    from domain.games import SPECS
    from service.offline.simulation import make_plan, run

    d = SPECS["el-royale"].decider
    doc = parse(list(run(make_plan("el-royale", 4, 1, ("heuristic",), {"edition": "revised"}, "fold"), 1))[0])
    state = d.initial_state(doc.setup)
    for e in d.start(doc.setup, doc.chance):
        state = d.evolve(state, e)
    move = doc.moves[0]
    opening = Chance(doc.chance.seed, {"dealer": state.dealer})
    assert fold_step(state, move, opening)[1] is state
    later = Chance(doc.chance.seed, {"reshuffle-1": []})
    before = d.dump_state(state)
    assert fold_step(state, doc.moves[1], later)[1] is not state and d.dump_state(state) == before

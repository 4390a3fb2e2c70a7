"""Bots (issue 16): they see only their seat's view, make only legal moves, and play by their heuristics.

The legality and leak tests run over every registered game, every bot kind and every table the
game accepts (hypothesis draws the seeds); the heuristics are pinned on hand-made views.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import BOT_KINDS, SeatView, make_bot
from bots.batallion import value
from bots.small_battle import SmallBattleBot
from domain.cards import cards_of, format_card
from domain.games import DECIDERS, decider_for, spec_for
from domain.randomness import Chance
from domain.records import parse_move
from service.offline.simulation import make_plan, play

BOTS = Path(__file__).resolve().parents[2] / "bots"
ENGINE = ("domain", "projections", "service", "api")

# Tables played by the property tests: every game, a few seat counts and options each.
TABLES = [
    ("el-royale", 2, {}), ("el-royale", 4, {"edition": "classic"}), ("el-royale", 6, {"edition": "revised"}),
    ("batallion", 3, {"variants": []}), ("batallion", 4, {"variants": ["jokers", "blind", "scarcity"]}),
    ("batallion", 5, {"variants": ["five_six", "jokers", "guts"], "chips": 20}),
    ("four-virtues", 2, {"target": 100}), ("small-battle", 2, {}),
]


def test_bots_import_nothing_of_the_engine_so_they_cannot_reach_a_state_or_a_hidden_card():
    for path in BOTS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                assert name.split(".")[0] not in ENGINE, f"{path.name} imports {name}"


def test_every_registered_game_has_a_heuristic_bot_and_the_random_bot():
    for game in DECIDERS:
        for kind in BOT_KINDS:
            assert make_bot(kind, game, 0, random.Random(0), spec_for(game).bot).kind == kind


def hidden_cards(game: str, state, seat: int) -> set[str]:
    """The cards of a one-pack game that `seat` may not see now, from the rulebooks (ER-7.3, FV-1.3)."""
    if game == "el-royale":
        out = set(state.deck[state.deck_pos:]) | set(cards_of(state.discard))
        for other in range(state.n):
            if other != seat:
                out |= set(cards_of(state.hands[other] & ~state.shown[other]))
        return {format_card(c) for c in out}
    return {format_card(c) for c in list(state.hands[1 - seat]) + list(state.stock)}


def strings(value) -> list[str]:
    """Every string anywhere in a JSON-like value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def assert_sees_only_its_own(game: str, state, seat: int, view: SeatView) -> None:
    """The bot's input holds no card its seat may not see (checked against the referee's state)."""
    d = decider_for(game)
    shown = view.table
    if game in ("el-royale", "four-virtues"):
        leaked = set(strings(shown)) & hidden_cards(game, state, seat)
        assert not leaked, f"seat {seat} was shown {sorted(leaked)}"
    elif game == "batallion":
        hand = Counter(d.format_card(c) for c in state.hands[seat])
        visible = hand + Counter(d.format_card(c) for c in state.discard)
        if state.battle is not None:
            visible += Counter(d.format_card(c) for c in state.battle[2])
        rest = {k: v for k, v in shown.items() if k != "legal_moves"}
        assert not Counter(s for s in strings(rest) if s in set(map(d.format_card, range(53)))) - visible
        for m in shown.get("legal_moves", []):
            assert not Counter(m.get("cards", [])) - hand, "a legal move names a card the seat does not hold"
    else:  # Small Battle: the enemy's ranks at positions no Ace revealed, and the pile's order (SB-2.3, SB-1.4)
        assert "pile" not in shown
        enemy = shown["battlefields"][1 - seat]["positions"]
        for entry in enemy:
            if entry["position"] not in state.revealed[1 - seat]:
                assert "rank" not in entry and "card" not in entry
    assert shown.get("hand", []) == view.hand


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize("game,players,options", TABLES, ids=[f"{g}-{n}p-{i}" for i, (g, n, _) in enumerate(TABLES)])
@settings(max_examples=3)
@given(seed=st.integers(0, 2**32))
def test_bots_make_only_moves_that_decide_accepts_and_never_see_a_hidden_card(kind, game, players, options, seed):
    d = decider_for(game)
    plan = make_plan(game, players, 1, (kind,), options, str(seed), max_moves=150)
    chance = Chance(plan.game_seed(0))

    def watch(state, seat, view, move):
        assert seat in d.to_act(state)
        assert_sees_only_its_own(game, state, seat, view)
        d.decide(state, parse_move(move, players, spec_for(game).codec), chance)  # raises RuleViolation on an illegal move

    doc = play(plan, 0, watch)
    assert doc["moves"], "the bots played"


# -- heuristics on hand-made views ------------------------------------------------------------------

def test_el_royale_bot_plays_a_winning_beat_when_it_has_one():
    table = {"phase": "defence", "battle_pile": ["KC", "KD"], "hand": ["KH", "KS"], "edition": "revised",
             "legal_moves": [{"type": "concede"}, {"type": "beat", "cards": ["KH"]}, {"type": "beat", "cards": ["KS"]},
                             {"type": "beat", "cards": ["KH", "KS"]}]}
    move = make_bot("heuristic", "el-royale", 1, random.Random(0), spec_for("el-royale").bot).choose(SeatView("el-royale", 1, table))
    assert move == {"seat": 1, "type": "beat", "cards": ["KH", "KS"]}


def test_el_royale_bot_concedes_a_cheap_battle_rather_than_break_a_pair():
    table = {"phase": "defence", "battle_pile": ["4C"], "hand": ["4D", "4H", "9S"], "edition": "revised",
             "legal_moves": [{"type": "concede"}, {"type": "beat", "cards": ["4D"]}, {"type": "beat", "cards": ["4H"]}]}
    move = make_bot("heuristic", "el-royale", 0, random.Random(0), spec_for("el-royale").bot).choose(SeatView("el-royale", 0, table))
    assert move["type"] == "concede"


def test_el_royale_bot_claims_a_small_pile_of_ranks_it_collects():
    table = {"phase": "claim", "battle_pile": ["7C", "7D"], "hand": ["7H", "2S"], "edition": "revised",
             "legal_moves": [{"type": "claim"}, {"type": "pass"}]}
    move = make_bot("heuristic", "el-royale", 0, random.Random(0), spec_for("el-royale").bot).choose(SeatView("el-royale", 0, table))
    assert move["type"] == "claim"


def test_batallion_bot_attacks_the_richest_opponent_with_its_strongest_attack():
    table = {"variants": [], "discard": [], "seats": [{"seat": 0, "chips": 10, "hand_size": 3},
                                                      {"seat": 1, "chips": 4, "hand_size": 3},
                                                      {"seat": 2, "chips": 12, "hand_size": 3}],
             "hand": ["5H", "5H", "9H"],
             "legal_moves": [{"type": "attack", "cards": c, "target": t} for t in (1, 2)
                             for c in (["5H"], ["9H"], ["5H", "5H"], ["5H", "9H"], ["5H", "5H", "9H"])]}
    move = make_bot("heuristic", "batallion", 0, random.Random(0), spec_for("batallion").bot).choose(SeatView("batallion", 0, table))
    assert move == {"seat": 0, "type": "attack", "cards": ["5H", "5H", "9H"], "target": 2}


def test_batallion_bot_values_twins_and_a_joker_as_ba_1_3_and_ba_1_4_do():
    assert value(["JS", "JS"], 2) == 4
    assert value(["JS", "JK", "4S"], 2) == 5
    assert value(["7D", "7D", "7D", "JK"], 3) == 9 + 0  # a triplet is full: the joker joins nothing


def test_four_virtues_bot_uses_hearts_with_the_largest_force():
    table = {"phase": "play", "discard": ["2C"], "melds": [], "hand": ["5C", "5D", "5S", "QH"],
             "legal_moves": [{"type": "meld", "cards": ["5C", "5D", "5S"]},
                             {"type": "meld", "cards": ["5C", "5D", "5S"], "face": "QH", "force_max": 3},
                             {"type": "discard", "cards": ["5C"]}]}
    move = make_bot("heuristic", "four-virtues", 0, random.Random(0), spec_for("four-virtues").bot).choose(SeatView("four-virtues", 0, table))
    assert move == {"seat": 0, "type": "meld", "cards": ["5C", "5D", "5S"], "face": "QH", "force": 3}


def _sb_view(drawn: str, removed=(), revealed=None) -> SeatView:
    revealed = revealed or {}
    positions = [{"position": p, "removed": p in removed, "revealed": p in revealed,
                  **({"rank": str(revealed[p])} if p in revealed else {})} for p in range(8)]
    table = {"phase": "striking", "drawn": drawn,
             "battlefields": [{"seat": 0, "positions": []}, {"seat": 1, "positions": positions}],
             "legal_moves": [{"type": "strike", "position": p} for p in range(8) if p not in removed]}
    return SeatView("small-battle", 0, table)


def test_small_battle_bot_remembers_that_a_held_strike_bounds_the_position_from_below():
    bot = SmallBattleBot(0, random.Random(0))
    first = bot.choose(_sb_view("6D"))["position"]
    assert bot.choose(_sb_view("3H"))["position"] != first  # it held against a 6: at least 6, a 3 cannot remove it
    assert bot.lowest[first] == 6


def test_small_battle_bot_spends_a_ten_on_a_revealed_high_card():
    bot = SmallBattleBot(0, random.Random(0))
    assert bot.choose(_sb_view("TD", revealed={5: 9}))["position"] == 5


def _er_view(phase: str, hand: list[str], moves: list[dict], battles: int, pile=(), discard=3) -> SeatView:
    """An El Royale view of seat 0 of 3 after `battles` battles with `discard` cards in the discard pile."""
    seats = [{"seat": s, "hand_size": len(hand) if s == 0 else 5, "shown": [], "eliminated": False} for s in range(3)]
    table = {"edition": "revised", "phase": phase, "battles": battles, "battle_pile": list(pile), "deck_count": 30,
             "discard_count": discard, "reshuffles": 0, "seats": seats, "hand": hand, "legal_moves": moves}
    return SeatView("el-royale", 0, table)


def _er_attacks(hand: list[str]) -> list[dict]:
    return [{"type": "attack", "cards": [c]} for c in hand]


def test_el_royale_bot_attacks_with_its_lowest_rank_once_battles_end_with_no_card_discarded():
    bot = make_bot("heuristic", "el-royale", 0, random.Random(0), spec_for("el-royale").bot)
    hand = ["4D", "7C", "7D", "JC"]
    moves = _er_attacks(hand) + [{"type": "attack", "cards": ["7C", "7D"]}]
    assert bot.choose(_er_view("attack", hand, moves, battles=10))["cards"] == ["JC"]  # the hardest to beat
    for battles in range(11, 16):  # cards go round: no card reaches the discard pile
        bot.choose(_er_view("attack", hand, moves, battles=battles))
    assert bot.choose(_er_view("attack", hand, moves, battles=16))["cards"] == ["4D"]  # the easiest to beat
    assert bot.choose(_er_view("attack", hand, moves, battles=17, discard=5))["cards"] == ["JC"]  # flowing again


def test_el_royale_bot_beats_rather_than_concede_a_cheap_battle_while_cards_go_round():
    bot = make_bot("heuristic", "el-royale", 0, random.Random(0), spec_for("el-royale").bot)
    hand = ["4D", "4H", "9S"]
    moves = [{"type": "concede"}, {"type": "beat", "cards": ["4D"]}, {"type": "beat", "cards": ["4H"]}]
    bot.choose(_er_view("defence", hand, moves, battles=0, pile=["4C"]))
    assert bot.choose(_er_view("defence", hand, moves, battles=6, pile=["4C"]))["type"] == "beat"


@pytest.mark.parametrize("players,edition", [(3, "revised"), (3, "classic"), (5, "revised")])
def test_el_royale_heuristic_self_play_ends_rather_than_send_the_same_cards_round(players, edition):
    plan = make_plan("el-royale", players, 40, ("heuristic",), {"edition": edition}, "progress", max_moves=2000)
    unfinished = [i for i in range(plan.games) if len(play(plan, i)["moves"]) >= plan.max_moves]
    assert not unfinished, f"games {unfinished} were still on after {plan.max_moves} moves"


def test_el_royale_bot_does_not_attack_with_a_card_it_took_by_conceding_while_cards_go_round():
    bot = make_bot("heuristic", "el-royale", 0, random.Random(0), spec_for("el-royale").bot)
    bot.choose(_er_view("defence", ["5D", "9S"], [{"type": "concede"}], battles=0, pile=["7H"]))
    assert bot.choose(_er_view("defence", ["5D", "9S"], [{"type": "concede"}], battles=6, pile=["2C"]))["type"] == "concede"
    hand = ["2C", "5D", "9S"]
    assert bot.choose(_er_view("attack", hand, _er_attacks(hand), battles=7))["cards"] == ["5D"]  # 2C went round


def test_el_royale_heuristic_ends_a_game_where_its_lowest_cards_were_the_ones_going_round():
    plan = make_plan("el-royale", 3, 443, ("heuristic",), {"edition": "revised"}, "progress", max_moves=2000)
    assert len(play(plan, 442)["moves"]) < plan.max_moves  # A♣ and 2♣ went round when it attacked its lowest

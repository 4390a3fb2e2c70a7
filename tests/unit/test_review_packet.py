"""The fair-play review packet's content (docs/fairplay.md "Review packet"): the decisions shown are the ones that
weigh most in the statistic; a blind packet carries no name the report knew, anywhere in its file; the labels are
stable; the texts say "53rd", "once", "twice"; every packet says a flag asks for a review, never a verdict."""

from __future__ import annotations

import json
import random
import re

import pytest

from api.packet_html import render
from domain.autoplay import random_game
from domain.fairplay import player_report, reason_of
from domain.two_stages import player_lines, referred_by_screen
from domain.games import GAMES, spec_for
from domain.records import parse
from domain.review_packet import REVIEW_NOT_VERDICT, label, labels, weighty
from projections.knowledge import seat_knowledge
from service.fairplay.facade import GameInput, Settings
from service.fairplay.stages import screen
from service.fairplay.packet import build, seat_view

NAMES = ["Annabel Lee", "Bartholomew"]
FEW = Settings(own_samples=2, perfect_samples=1, worlds=2, seed="packet", screen_worlds=2, refer=1.0)  # all referred


def verdict(rank: float, game: str = "g", move: int = 0) -> dict:
    return {"informative": False, "gap": 0.0, "rank": rank, "rank_variance": 0.05, "matched_own": False,
            "matched_perfect": False, "game": game, "seat": 0, "move_index": move}


def test_the_weighty_decisions_are_those_ranking_highest_above_one_half_heaviest_first():
    ranks = [0.5, 0.9, 0.1, 0.7, 0.95, 0.55, 0.3, 0.8]
    top = weighty([verdict(r, move=i) for i, r in enumerate(ranks)], k=3)
    assert [v["rank"] for v in top] == [0.95, 0.9, 0.8]
    assert [v["weight"] for v in top] == [0.45, 0.4, 0.3]
    assert [v["rank"] for v in weighty([verdict(r) for r in ranks], k=10)] == [0.95, 0.9, 0.8, 0.7, 0.55]  # > 1/2 only
    tied = weighty([verdict(0.8, "g2", 5), verdict(0.8, "g1", 9), verdict(0.8, "g1", 2)], k=3)
    assert [(v["game"], v["move_index"]) for v in tied] == [("g1", 2), ("g1", 9), ("g2", 5)]  # in the order played


def line(name: str, screen_p: float, full_p: float | None = None, panel: bool = False) -> dict:
    return {"player": name, "screen": {"p_value": screen_p}, "referred": full_p is not None,
            "full": None if full_p is None else {"p_value": full_p}, "panel": panel}


def test_only_the_referred_get_labels_in_the_packet_s_order_and_the_same_report_gives_the_same_labels():
    lines = [line("Ann", 0.4), line("Bob", 0.0001, 0.001), line("Cy", 0.02), line("Dee", 0.0002, 1e-7, True),
             line("Eve", 0.0009, 0.3)]
    assert labels(lines) == {"Dee": "Player A", "Bob": "Player B", "Eve": "Player C"}  # a panel first, then by p
    assert labels(list(reversed(lines))) == labels(lines)
    pairs = [{"pair": ["Ann", "Bob"], **line("x", 0.0001, 0.01)}, {"pair": ["Cy", "Eve"], **line("y", 0.5)}]
    assert labels(lines, pairs) == {"Dee": "Player A", "Bob": "Player B", "Eve": "Player C", "Ann": "Player D"}
    assert (label(0), label(25), label(26), label(27), label(701)) == \
        ("Player A", "Player Z", "Player AA", "Player AB", "Player ZZ")


def test_the_reasons_say_53rd_once_and_twice():
    said = reason_of("Player A", {"decisions": 40, "informative": 3, "matched_perfect": 1, "matched_own": 2,
                                  "rank_mean": 0.53, "p_value": 0.2, "threshold": 0.005, "flagged": False})
    assert "at the 53rd percentile" in said and "all-cards best once" in said and "own-information best twice" in said
    assert "53th" not in said and "1 times" not in said and "2 times" not in said
    assert "over 1 decision," in player_report("X", [verdict(0.9)], 0.005)["reason"]


def short_record(seed: str):
    spec = spec_for("small-battle")
    doc = random_game("small-battle", spec.example_options[0], [{"name": n} for n in NAMES], "ab" * 32,
                      random.Random(seed), max_moves=24)
    return parse(doc)


@pytest.fixture(scope="module")
def screened():
    """Two short games from record files named after the players, both stages run for both (`refer` 1) at a smoke
    test's precision; then the second player is made one the screen did not refer, and the first one a panel is asked
    for (the packet's content does not depend on why)."""
    games = [GameInput(f"/cases/annabel-lee-vs-bartholomew-{i}.json", short_record(f"packet|{i}"), NAMES)
             for i in range(2)]
    result = screen(games, FEW)
    annabel, bartholomew = result["players"]
    result["players"] = [{**annabel, "panel": True, "full": {**annabel["full"], "passed": True}},
                         {**bartholomew, "referred": False, "full": None,
                          "screen": {**bartholomew["screen"], "passed": False}}]
    result["weighty"].pop("Bartholomew")
    return games, result


def test_a_blind_packet_names_no_player_anywhere_in_its_file(screened):
    games, result = screened
    packet = build(result, games, "Annabel Lee's club night")
    html = render(packet, "https://arbiter.example")
    for name in NAMES + ["annabel", "bartholomew"]:
        assert name.lower() not in html.lower(), name
    assert "Player A" in html and 'id="packet-blind"' in html
    assert packet["title"] == "Player A's club night"
    assert "<td>Player B</td>" not in html and "Player B</strong>" not in html  # Bartholomew: not referred, not in it
    assert build(result, games, "Bartholomew v Annabel Lee")["title"] == "another player v Player A"
    named = render(build(result, games, "Annabel Lee's club night", names=True))
    assert "Annabel Lee" in named and "not blind" in named  # the test can see a name when there is one
    assert "Bartholomew" not in named  # not referred: not in the packet, names or not


def test_the_packet_shows_each_referred_player_s_heaviest_decisions_with_the_move_and_the_seat_s_table(screened):
    games, result = screened
    packet = build(result, games, "Club night")
    [referred] = packet["referred"]
    assert referred["label"] == "Player A" and referred["line"]["panel"] and [x["label"] for x in packet["lines"]] == \
        ["Player A"]
    shown = [d["rank"] for d in referred["decisions"]]
    everyone = sorted((v["rank"] for v in result["weighty"]["Annabel Lee"]), reverse=True)
    assert shown == [round(r, 4) for r in everyone] and shown == sorted(shown, reverse=True) and shown
    first = referred["decisions"][0]
    move = games[first["game_number"] - 1].record.moves[first["move_index"]]
    assert move["seat"] == first["seat"] == 0
    assert first["move"] == json.dumps({k: v for k, v in move.items() if k != "seat"}, sort_keys=True)
    record = games[first["game_number"] - 1].record
    assert json.loads(first["seat_view"]) == seat_view(record, first["seat"], first["move_index"])  # the seat's table


def test_the_seat_s_table_in_the_packet_holds_no_card_of_the_other_seat_s_hidden_formation_the_real_deal_does(
        screened):
    from domain.fairplay import true_states
    from projections.registry import projection_for
    from projections.viewers import REFEREE

    games, result = screened
    packet = build(result, games, "Club night")
    checked = 0
    for d in packet["referred"][0]["decisions"]:
        record = games[d["game_number"] - 1].record
        full = projection_for(record.game).table(true_states(record)[d["move_index"]], REFEREE, True)
        other = next(b for b in full["battlefields"] if b["seat"] != d["seat"])
        hidden = {p["card"] for p in other["positions"] if not p["revealed"] and not p["removed"]}
        assert hidden and not [c for c in hidden if re.search(rf'"card": "{c}"', d["seat_view"])], d["n"]
        assert all(f'"card": "{c}"' in d["full_view"] for c in hidden)  # the reviewers' real deal, apart
        checked += 1
    assert checked


def test_every_packet_says_a_flag_asks_for_a_review_never_a_verdict(screened):
    games, result = screened
    for names in (False, True):
        html = render(build(result, games, "Club night", names=names))
        assert html.count(REVIEW_NOT_VERDICT) == 2 and "never a verdict" in html
        said = " ".join(html.split())
        assert "ask a fair-play panel to review these games" in said  # the reason of the player a panel is asked for
        assert 'id="packet-statistics"' in html and "p-value" in html and "Calibration." in html
        assert "Stage one, the screen" in said and "Stage two, the full test" in said  # both stages' statistics
        assert "1 in 1,000,000" in said and "screen: p-value" in said and "full: p-value" in said
        assert "<script" not in html and "<link" not in html  # one file, nothing fetched


def test_nobody_referred_gives_a_packet_that_says_so(screened):
    games, result = screened
    calm = {**result, "players": [{**p, "referred": False, "full": None, "panel": False} for p in result["players"]],
            "weighty": {}}
    html = render(build(calm, games, "Club night"))
    assert 'id="packet-nobody"' in html and "1 rollouts" not in html and "1 rollout a move" in html


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_game_s_packet_names_a_player_when_blind(game):
    """Every game's table, as a seat saw it, goes into the packet: none of them may carry a player's name."""
    spec = spec_for(game)
    names = [f"Zebedee{k}" for k in range(spec.seats[0].low)]
    doc = random_game(game, spec.example_options[0], [{"name": n} for n in names], "ab" * 32,
                      random.Random(f"packet|{game}"), max_moves=30)
    record = parse(doc)
    verdicts = {n: [] for n in names}
    for seat, name in enumerate(names):
        for x in seat_knowledge(record, seat)[1][:4]:
            verdicts[name].append({**verdict(0.9, "only", x.move_index), "seat": seat})
    screens, _ = referred_by_screen({n: v for n, v in verdicts.items()}, 1.0)  # everyone referred
    lines = player_lines(screens, verdicts, {n: 1 for n in names})
    result = {"games": 1, "settings": {**FEW.__dict__}, "players": lines, "pairs": [], "pair_weighty": [],
              "thresholds": {"refer": 1.0, "refer_z": None, "panel": 1e-6, "panel_z": 4.75},
              "weighty": {n: weighty(v) for n, v in verdicts.items()}}
    packet = build(result, [GameInput("only", record, names)], f"{names[0]} and friends")
    assert sum(len(r["decisions"]) for r in packet["referred"]) > 0, "no decision shown: the test would show nothing"
    html = render(packet)
    assert "zebedee" not in html.lower()
    assert "Zebedee0" in render(build(result, [GameInput("only", record, names)], "t", names=True))


def test_a_name_in_a_title_is_replaced_as_a_word_only():
    from service.fairplay.packet import scrub

    names = {"Eve": "Player A", "Ann Lee": "Player B", "Ann": "Player C"}
    assert scrub("Every Eve, Ann Lee and Ann (Annex cup)", names) == \
        "Every Player A, Player B and Player C (Annex cup)"


def test_the_command_writes_a_blind_packet_of_record_files_and_names_what_it_cannot_do(tmp_path):
    from click.testing import CliRunner

    from api.cli.group import group
    from tests.fairplay_support import play

    record = tmp_path / "annabel-lee-v-bartholomew.json"
    record.write_text(json.dumps(play("unit-packet-cli", ("Annabel Lee", "Bartholomew"))))
    few = ["--samples", "2", "--perfect-samples", "1", "--worlds", "2", "--workers", "1"]
    out = tmp_path / "case.html"
    result = CliRunner().invoke(group, ["fairplay", str(record), *few, "--packet", str(out)])
    assert result.exit_code in (0, 1), result.output
    assert "review packet written to" in result.output and "1 rollouts" not in result.output
    text = out.read_text(encoding="utf-8")
    assert "Player A" in text and "annabel" not in text.lower() and "bartholomew" not in text.lower()
    assert "--tournament" not in text and "arbiter fairplay FILES..." in text
    usage = CliRunner().invoke(group, ["fairplay", str(record), "--names"])
    assert usage.exit_code == 2 and "--packet FILE" in usage.output
    unwritable = CliRunner().invoke(group, ["fairplay", str(record), *few, "--packet", str(tmp_path / "no" / "x.html")])
    assert unwritable.exit_code == 2 and "cannot write it" in unwritable.output
    assert "Traceback" not in unwritable.output

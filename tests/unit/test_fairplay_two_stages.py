"""The fair-play report in two stages (docs/fairplay.md "Two stages"): the screen over everyone, the full test only for
those it refers, a panel asked only at PANEL and said so; the desk job's progress told per stage; the packet about the
referred only, with both stages' statistics and thresholds."""

from __future__ import annotations

import pytest

from domain.screening import PANEL, REFER
from domain.two_stages import full_player_line, player_lines, referred_by_screen, stage_line, staged
from service.fairplay import stages
from service.fairplay.facade import GameInput, Settings
from service.fairplay.jobs import stage_of, staged_steps
from tests.fairplay_support import play

VAR = (81 - 1) / (12 * 81)  # one share on 9 places, no tie


def shares(rank: float, n: int, game: str = "g") -> list[dict]:
    return [{"rank": rank, "rank_variance": VAR, "game": game, "seat": 0, "move_index": i} for i in range(n)]


def verdicts(rank: float, n: int) -> list[dict]:
    return [{**v, "informative": False, "gap": 0.0, "matched_own": False, "matched_perfect": False}
            for v in shares(rank, n)]


def test_the_screen_refers_at_or_below_refer_and_no_one_above():
    lines, referred = referred_by_screen({"high": shares(0.62, 120), "honest": shares(0.5, 120),
                                          "none": []}, REFER)
    assert referred == {"high"} and lines["high"]["p_value"] <= REFER < lines["honest"]["p_value"]
    assert not lines["none"]["passed"] and lines["none"]["z"] is None and lines["none"]["decisions"] == 0
    assert lines["high"]["threshold_z"] == pytest.approx(3.09, abs=0.01)
    at = lines["high"]["p_value"]
    assert referred_by_screen({"high": shares(0.62, 120)}, at)[1] == {"high"}  # at the threshold: referred


def test_a_full_test_for_someone_the_screen_did_not_refer_is_refused():
    screen = stage_line(shares(0.5, 40), REFER)
    with pytest.raises(ValueError, match="only for those the screen refers"):
        staged({"player": "Bob"}, screen, full_player_line("Bob", verdicts(0.9, 40)))


def test_a_player_not_referred_shows_the_screen_s_p_value_and_no_full_test():
    screens, _ = referred_by_screen({"Bob": shares(0.5, 40)}, REFER)
    [line] = player_lines(screens, {}, {"Bob": 3})
    assert line["full"] is None and not line["referred"] and not line["panel"] and line["games"] == 3
    assert line["reason"].startswith(f"not referred by the screen (p = {screens['Bob']['p_value']:.2g}")


def test_a_full_test_at_or_below_panel_asks_a_panel_and_says_it_is_no_verdict():
    screens, _ = referred_by_screen({"Ann": shares(0.7, 200), "Cy": shares(0.7, 200)}, REFER)
    far, near = verdicts(0.7, 200), verdicts(0.5, 150) + verdicts(0.75, 50)
    lines = {x["player"]: x for x in player_lines(screens, {"Ann": far, "Cy": near}, {})}
    ann, cy = lines["Ann"], lines["Cy"]
    assert ann["full"]["p_value"] <= PANEL and ann["panel"] and ann["full"]["threshold_z"] == pytest.approx(4.75)
    assert ann["full"]["z"] > 4.75
    assert "ask a fair-play panel to review these games" in ann["reason"] and "never a verdict" in ann["reason"]
    assert "1 in 1,000,000" in ann["reason"] and "at the 70th percentile" in ann["reason"]
    assert PANEL < cy["full"]["p_value"] < 0.01 and not cy["panel"]  # referred, short of the panel's threshold
    assert "Not enough to ask a panel" in cy["reason"] and "ask a fair-play panel" not in cy["reason"]


@pytest.fixture
def staged_screen(monkeypatch):
    """`stages.screen` over one real game whose screen is faked (Ann's shares run high, Bob's are honest) and whose
    full test records who it is asked for."""
    asked: list[set] = []

    def screen_task(task):
        name, label, seat, index = task[10], task[11], task[2], task[12]
        rank = 0.9 if name == "Ann" else (0.3 if index % 2 else 0.7)
        return name, {"rank": rank, "rank_variance": VAR, "game": label, "seat": seat, "move_index": index}

    def judge_all(games, settings, workers, progress, only, executor):
        asked.append(set(only))
        progress(10, 10)
        return {n: verdicts(0.5, 10) for n in only}

    monkeypatch.setattr(stages, "screen_task", screen_task)
    monkeypatch.setattr(stages, "judge_all", judge_all)
    from domain.records import parse

    game = GameInput("g", parse(play("unit-two-stages", ("Ann", "Bob"))), ["Ann", "Bob"])
    return game, asked


def test_only_the_players_the_screen_refers_get_the_full_test(staged_screen):
    game, asked = staged_screen
    told: list[tuple] = []
    result = stages.screen([game], Settings(), progress=lambda *x: told.append(x))
    assert asked == [{"Ann"}]  # Bob, not referred, never reaches the full test
    ann, bob = result["players"]
    assert ann["referred"] and ann["full"]["decisions"] == 10 and set(result["weighty"]) == {"Ann"}
    assert not bob["referred"] and bob["full"] is None and "not referred by the screen" in bob["reason"]
    said = [t[0] for t in told]
    assert said[0] == "screen" and said[-1] == "full" and said == sorted(said, reverse=True)  # the screen, then full
    assert result["thresholds"]["refer"] == REFER and result["thresholds"]["panel"] == PANEL
    assert not result["pair_test"] and result["pairs"] == []  # two seats: no pair to test


def test_nobody_referred_means_no_full_test_at_all(staged_screen):
    game, asked = staged_screen
    told: list[tuple] = []
    result = stages.screen([game], Settings(refer=1e-300), progress=lambda *x: told.append(x))
    assert asked == [] and all(p["full"] is None for p in result["players"]) and result["weighty"] == {}
    assert {t[0] for t in told} == {"screen"}


def test_the_job_s_one_counter_carries_both_stages_and_is_split_again():
    steps: list[tuple] = []
    told = staged_steps(100, lambda done, total: steps.append((done, total)))
    told("screen", 30, 60)
    assert steps[-1] == (50, 100) and stage_of(50, 100, 100) == {"stage": "screen",
                                                                 "progress": {"done": 50, "total": 100}}
    told("screen", 60, 60)
    told("full", 7, 20)
    assert steps[-1] == (107, 120) and stage_of(107, 120, 100) == {"stage": "full",
                                                                   "progress": {"done": 7, "total": 20}}
    assert stage_of(0, None, 100)["stage"] == "screen"


def test_only_the_pairs_the_screen_refers_get_the_full_pair_test(monkeypatch):
    """Batallion (3 seats): every pair who sat together is screened at the screen's precision; only the referred pair
    is judged again at the full precision, and the packet's pair lines are about it alone."""
    from service.fairplay.packet import build
    from tests.unit.test_fairplay_games import short_game

    precisions: dict[tuple, set] = {}

    def pair_task(task):
        seat, partner, precision, pair, label, index = task[2], task[6], task[9], task[10], task[11], task[12]
        precisions.setdefault(pair, set()).add(precision)
        rank = 0.9 if pair == ("P0", "P1") else (0.3 if index % 2 else 0.7)
        return pair, {"rank": rank, "rank_variance": VAR, "game": label, "seat": seat, "move_index": index,
                      "partner": partner, "informative": False, "matched_perfect": False, "matched_own": False}

    monkeypatch.setattr(stages, "pair_task", pair_task)
    monkeypatch.setattr(stages, "screen_task", lambda task: (task[10], None))  # no player has a decision to judge
    record = short_game("batallion", 40)
    settings = Settings()
    result = stages.screen([GameInput("b", record, ["P0", "P1", "P2"])], settings)
    cheap = (settings.screen_worlds, settings.screen_samples, 1, True)  # the screen: the game's glance where it has one
    full = (settings.worlds, settings.perfect_samples, 2)
    assert precisions == {("P0", "P1"): {cheap, full}, ("P0", "P2"): {cheap}, ("P1", "P2"): {cheap}}
    assert result["pair_test"] and [p["pair"] for p in result["pairs"]] == [["P0", "P1"], ["P0", "P2"], ["P1", "P2"]]
    referred = [p for p in result["pairs"] if p["referred"]]
    assert [p["pair"] for p in referred] == [["P0", "P1"]] and referred[0]["full"]["threshold"] == PANEL
    assert "the full pair test" in referred[0]["reason"] and result["pair_weighty"][0]["pair"] == ["P0", "P1"]
    assert all(p["full"] is None and "not referred by the screen" in p["reason"] for p in result["pairs"][1:])
    packet = build(result, [GameInput("b", record, ["P0", "P1", "P2"])], "Club night")
    assert [x["label"] for x in packet["pair_lines"]] == ["Player A and Player B"] and packet["pairs_referred"]
    assert packet["pairs_referred"][0]["decisions"][0]["partner"] in (0, 1)


@pytest.mark.parametrize("precision, glance", [((4, 1, 1, True), True), ((8, 2, 2), False)])
def test_the_pair_screen_judges_by_the_glance_and_the_full_pair_test_by_rollouts(monkeypatch, precision, glance):
    asked = []

    def pair_decision(*args):
        asked.append(args[-1])
        return None

    monkeypatch.setattr(stages, "pair_decision", pair_decision)
    task = ("batallion", None, 0, [], {}, None, 1, "s", 0, precision, ("A", "B"), "g", 0)
    assert stages.pair_task(task) == (("A", "B"), None) and asked == [glance]

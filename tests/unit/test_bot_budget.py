"""A server-seated bot's budget (issue 28): a game only bots are moving is slowed, then stopped; a person resets it.

Counts are game versions (the loop sees versions, not moves)."""

from __future__ import annotations

from service.play.bot_budget import PLAY, SLOW, STOP, BotBudget, Limits

LIMITS = Limits(slow_after=10, stop_after=30, stall=20, wait=0.5)


def test_a_bot_plays_on_while_bots_alone_have_made_fewer_versions_than_the_slow_limit():
    budget = BotBudget(LIMITS)
    assert [budget.look(v).action for v in range(10)] == [PLAY] * 10


def test_a_bot_slows_down_after_the_slow_limit_of_versions_made_by_bots_alone_and_says_how_much():
    budget = BotBudget(LIMITS)
    budget.look(0)
    decision = budget.look(10)
    assert (decision.action, decision.wait) == (SLOW, 0.5)
    assert "10 versions made by bots alone" in decision.reason


def test_a_bot_stops_after_the_stop_limit_of_versions_made_by_bots_alone_and_says_why():
    budget = BotBudget(LIMITS)
    budget.look(5)
    decision = budget.look(35)
    assert decision.stops and "not moving towards an end" in decision.reason


def test_a_persons_move_restarts_the_budget():
    budget = BotBudget(LIMITS)
    budget.look(0)
    assert budget.look(29).action == SLOW
    assert budget.look(30, person_moved=True).action == PLAY
    assert budget.look(39).action == PLAY
    assert budget.look(40).action == SLOW


def test_a_bot_stops_when_the_progress_mark_stands_still_for_the_stall_limit():
    budget = BotBudget(Limits(slow_after=100, stop_after=300, stall=20))
    for v in range(0, 60, 5):  # the mark moves: a battle ends every five moves
        assert budget.look(v, mark=v // 5).action == PLAY
    assert budget.look(70, mark=11).action == PLAY
    decision = budget.look(80, mark=11)
    assert decision.stops and "without any battle, round or trick ending" in decision.reason


def test_without_a_progress_mark_only_the_version_limits_apply():
    budget = BotBudget(Limits(slow_after=100, stop_after=300, stall=20))
    budget.look(0)
    assert budget.look(99).action == PLAY


def test_a_finished_game_stops_the_bot():
    assert BotBudget(LIMITS).look(3, over=True).action == STOP


def test_a_version_going_back_starts_the_count_afresh_rather_than_fail_the_bot():
    budget = BotBudget(LIMITS)
    budget.look(0)
    assert budget.look(25).action == SLOW
    assert budget.look(12).action == PLAY
    assert budget.look(21).action == PLAY  # 9 moves since the count restarted
    assert budget.look(22).action == SLOW


def test_by_default_a_game_as_long_as_the_longest_self_play_game_is_never_slowed_and_the_issue_28_game_is():
    budget = BotBudget()
    budget.look(0)
    assert budget.look(2800).action == PLAY  # 2,000 moves of El Royale, the longest measured (docs/bots.md)
    assert budget.look(4745).action == SLOW  # the game of issue 28 after 12 minutes
    assert budget.look(9000).stops

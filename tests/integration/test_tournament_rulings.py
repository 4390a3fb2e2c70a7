"""Rounds that respect rulings (issue 35, service/tournaments/rulings.py): a round started over open disputes needs
the director's confirmation, recorded; a ruling that rewinds a finished game reopens it (its result provisional in
the standings, the Swiss rounds paired on it flagged until the director keeps them); the answer to "start round"
shows the round's games whichever host holds the tournament's lease; a conflict's retry attaches the game it made."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.tournament.aggregate import Tournament
from service.errors import BadInput, Conflict
from service.facade import Arbiter
from service.play.asked import Asked
from service.play.commands import GiveRuling
from service.tournaments.commands import CreateTournament
from tests.tournament_support import finish


def host(stores, tmp_path, url: str, name: str = "a") -> Arbiter:
    arbiter = Arbiter(url, str(tmp_path / f"key-{name}"), str(tmp_path / f"checkpoints-{name}.log"))
    stores._apps.append(arbiter.app)
    return arbiter


@pytest.fixture(params=["sqlite", "postgres"])
def arbiter(stores, tmp_path, request):
    return host(stores, tmp_path, stores.url(request.param))


def create(arbiter: Arbiter, fmt: str = "swiss", players: str = "ABCD", **settings) -> tuple[str, str]:
    created = arbiter.tournaments.create(CreateTournament.from_body(
        {"name": "R", "game": "small-battle", "players": list(players), "format": fmt, **settings}))
    return created["id"], created["director_token"]


def games(view: dict, number: int) -> list[dict]:
    return [{**g, "table": tb["table"], "names": [p["name"] for p in tb["players"]]}
            for tb in view["rounds"][number - 1]["tables"] for g in tb["games"]]


def play_round(arbiter: Arbiter, tid: str, number: int) -> dict:
    for g in games(arbiter.tournaments.view(tid), number):
        finish(arbiter.app, g["game_id"])
    return arbiter.tournaments.view(tid)


def dispute_last_move(arbiter: Arbiter, game_id: str) -> int:
    game = arbiter.app.game(UUID(game_id))
    return arbiter.app.file_dispute(game.id, 0, game.move_versions[-1], "that was not legal")["number"]


def rule_rewind(arbiter: Arbiter, tid: str, token: str, game_id: str, number: int) -> None:
    links = arbiter.tournaments.links(tid, token)
    referee = next(g["referee_token"] for g in links["games"] if g["game_id"] == game_id)
    arbiter.play.rule(referee, Asked(GiveRuling, game_id, {"decision": "upheld", "remedy": "rewind",
                                                           "note": "replay from before the last move"},
                                     beside={"number": number}))


def stored_kinds(arbiter: Arbiter, tid: str) -> list[str]:
    return [type(e).__name__ for e in arbiter.app.repository.event_store.get(UUID(tid))]


def test_a_round_over_open_disputes_is_refused_naming_them_until_the_director_confirms_and_that_is_recorded(arbiter):
    tid, token = create(arbiter, "round-robin")
    t = arbiter.tournaments
    view = t.start_round(tid, token)
    view = play_round(arbiter, tid, 1)
    first = games(view, 1)[1]
    number = dispute_last_move(arbiter, first["game_id"])
    assert t.view(tid)["open_disputes"] == [{"round": 1, "table": 1, "game_id": first["game_id"], "numbers": [number]}]

    with pytest.raises(Conflict) as refused:
        t.start_round(tid, token)
    assert refused.value.field == "confirm"
    assert f"round 1 table 2 (dispute {number})" in refused.value.detail and "confirm: true" in refused.value.detail
    assert len(t.view(tid)["rounds"]) == 1 and "OpenDisputesConfirmed" not in stored_kinds(arbiter, tid)
    with pytest.raises(BadInput):
        t.start_round(tid, token, confirm=True, note="x" * 501)

    view = t.start_round(tid, token, confirm=True, note="table 2 will be ruled after the round")
    assert len(view["rounds"]) == 2
    assert view["rounds"][1]["confirmed_open_disputes"] == {
        "disputes": [{"round": 1, "table": 1, "game_id": first["game_id"], "numbers": [number]}],
        "note": "table 2 will be ruled after the round"}
    kinds = stored_kinds(arbiter, tid)
    assert kinds.index("OpenDisputesConfirmed") == kinds.index("RoundStarted", kinds.index("RoundStarted") + 1) - 1


def test_rounds_that_start_by_themselves_wait_for_the_director_while_a_dispute_is_open(arbiter):
    tid, token = create(arbiter, "round-robin", auto_rounds=True)
    t = arbiter.tournaments
    t.start_round(tid, token)
    first, second = games(t.view(tid), 1)
    finish(arbiter.app, first["game_id"])
    dispute_last_move(arbiter, first["game_id"])
    finish(arbiter.app, second["game_id"])
    view = t.view(tid)
    assert len(view["rounds"]) == 1 and view["between_rounds"] and view["can_start_round"]


def test_the_answer_to_start_round_holds_its_games_when_another_host_holds_the_lease(stores, tmp_path):
    """The room's report: "0 of 0 games being played" after "Start round 2" until reloaded (the host holding the
    lease had not created the games yet)."""
    url = stores.url("sqlite")
    a, b = host(stores, tmp_path, url, "a"), host(stores, tmp_path, url, "b")
    tid, token = create(a, "round-robin")
    assert b.tournaments.duty.leases.acquire({UUID(tid)}) == {UUID(tid)}  # host b's duty loop holds it (not running)
    view = a.tournaments.start_round(tid, token)
    assert [len(tb["games"]) for tb in view["rounds"][0]["tables"]] == [1, 1]
    assert all(g["status"] == "in_progress" for g in games(view, 1))


def test_a_retried_round_start_attaches_the_games_its_first_try_made_instead_of_making_more(arbiter, monkeypatch):
    """The known debt: the tournament's save meets a version conflict, the unit of work decides again; the games of
    the first try are the round's, and no game is left attached to nothing."""
    from eventsourcing.persistence import IntegrityError

    tid, token = create(arbiter, "round-robin")
    app, real_save, conflicts = arbiter.app, arbiter.app.save, []

    def save(*aggregates):
        if not conflicts and any(isinstance(x, Tournament) and any(isinstance(e, Tournament.GameStarted)
                                                                   for e in x.pending_events) for x in aggregates):
            conflicts.append(1)
            raise IntegrityError("another writer saved first")
        return real_save(*aggregates)

    monkeypatch.setattr(app, "save", save)
    view = arbiter.tournaments.start_round(tid, token)
    assert conflicts == [1]
    made = [g["game_id"] for g in games(view, 1)]
    assert len(made) == 2
    created = [n for n in app.recorder.select_notifications(start=1, limit=10_000) if n.topic.endswith("Game.Created")]
    assert sorted(str(n.originator_id) for n in created) == sorted(made), "a game was created twice"


def test_a_rewind_reopens_a_finished_game_keeps_its_result_provisional_and_flags_the_swiss_round_paired_on_it(arbiter):
    tid, token = create(arbiter, "swiss", players="ABCDEF", rounds=3)
    t = arbiter.tournaments
    t.start_round(tid, token)
    view = play_round(arbiter, tid, 1)
    t.start_round(tid, token)
    target = games(t.view(tid), 1)[0]
    game = arbiter.app.game(UUID(target["game_id"]))
    winner = game.outcome.winner_json()["seats"][0] if game.outcome.winner_json() else None
    before = {r["name"]: r["points"] for r in t.view(tid)["standings"]["players"]}

    rule_rewind(arbiter, tid, token, target["game_id"], dispute_last_move(arbiter, target["game_id"]))
    view = t.view(tid)
    reopened = games(view, 1)[0]
    assert reopened["status"] == "in_progress" and reopened["reopened"] and reopened["provisional"]
    assert view["rounds"][0]["reopened"] == 1 and view["rounds"][1]["reopened"] == 0
    assert reopened["to_act"], "nobody to move the reopened game"
    standings = view["standings"]
    assert {r["name"]: r["points"] for r in standings["players"]} == before  # the result stands, provisional
    assert standings["provisional"] == [{"round": 1, "table": 0, "game_id": target["game_id"], "players": target["names"]}]
    assert {r["name"] for r in standings["players"] if r["provisional"] == [1]} == set(target["names"])
    flagged = view["pairings_to_review"]
    assert [f["round"] for f in flagged] == [2]
    assert flagged[0]["games"] == [{"round": 1, "table": 0, "game_id": target["game_id"], "players": target["names"],
                                    "status": "reopened"}]
    assert winner is None or before[target["names"][winner]] >= 1

    with pytest.raises(BadInput):
        t.review_pairings(tid, token, 2, "keep")  # say why
    with pytest.raises(Conflict):
        t.review_pairings(tid, token, 1, "keep", note="nothing flagged there")
    view = t.review_pairings(tid, token, 2, "keep", clause="T-5", note="round 2 stands: the rewind changed no score group")
    assert view["pairings_to_review"] == []
    assert view["pairings_reviewed"] == [{"round": 2, "decision": "keep", "games": [target["game_id"]], "clause": "T-5",
                                          "note": "round 2 stands: the rewind changed no score group"}]
    assert "PairingsReviewed" in stored_kinds(arbiter, tid)

    finish(arbiter.app, target["game_id"], rng_seed=7)  # played again to its end: the result is final
    view = t.view(tid)
    again = games(view, 1)[0]
    assert again["status"] == "finished" and not again["reopened"] and not again["provisional"]
    assert view["standings"]["provisional"] == [] and view["rounds"][0]["reopened"] == 0


def test_a_swiss_round_drawn_while_a_result_is_provisional_is_flagged_too(arbiter):
    tid, token = create(arbiter, "swiss", players="ABCDEF", rounds=3)
    t = arbiter.tournaments
    t.start_round(tid, token)
    play_round(arbiter, tid, 1)
    target = games(t.view(tid), 1)[1]
    rule_rewind(arbiter, tid, token, target["game_id"], dispute_last_move(arbiter, target["game_id"]))
    assert t.view(tid)["pairings_to_review"] == []  # no round was paired on it yet
    with pytest.raises(Conflict):
        t.start_round(tid, token)  # round 1 is being played again at that table: not over
    finish(arbiter.app, target["game_id"], rng_seed=3)
    t.start_round(tid, token)
    rule_rewind(arbiter, tid, token, target["game_id"], dispute_last_move(arbiter, target["game_id"]))
    play_round(arbiter, tid, 2)
    t.start_round(tid, token)  # drawn while round 1's result is still provisional
    assert [f["round"] for f in t.view(tid)["pairings_to_review"]] == [2, 3]


def reopened_game(arbiter: Arbiter, **spec) -> tuple[str, dict]:
    """A small-battle game played to its end, then returned to play by an upheld dispute's rewind."""
    from service.play.new_games import CreateGame

    created = arbiter.play.create_game(CreateGame.from_body({"game": "small-battle", "players": [{"name": "A"}, {"name": "B"}], **spec}))
    gid = created["id"]
    return gid, created


def test_a_reopened_game_runs_its_clocks_again_and_is_watched_again(arbiter):
    """Nobody could move the reopened game: its clocks stood (a game whose seed was revealed was never flagged, and
    the clock watcher had dropped it for good)."""
    from service.play.clocks import ClockWatch
    from service.store.server_clock import server_ms

    gid, created = reopened_game(arbiter, time_control={"move_seconds": 5})
    watch = ClockWatch(arbiter.app)
    watch.tick(server_ms())
    finish(arbiter.app, gid)
    watch.tick(server_ms())
    number = dispute_last_move(arbiter, gid)
    arbiter.play.rule(created["referee_token"], Asked(GiveRuling, gid, {"decision": "upheld", "remedy": "rewind"},
                                                      beside={"number": number}))
    game = arbiter.app.game(UUID(gid))
    assert game.seed_revealed and not game.outcome.is_over
    later = server_ms() + 60_000
    watch.tick(later)  # the watcher sees the rewind and flags the seat that let its move time run out
    flags = [d for d in arbiter.app.game(UUID(gid)).disputes if d.get("time_expired")]
    assert len(flags) == 1 and flags[0]["filed_at"] > game.version - 1


def test_bots_the_end_released_play_a_reopened_game_again(arbiter):
    from domain.bot_seats import GAME_OVER

    gid, created = reopened_game(arbiter)
    seats = [s["token"] for s in created["seats"]]
    arbiter.play.bot_seats.hand_over(gid, seats[0], "heuristic")
    finish(arbiter.app, gid)
    arbiter.play.bot_seats.release(gid, 0, GAME_OVER)  # as the bots' duty does at the end
    assert arbiter.play.bot_seats.seats(gid) == {}
    number = dispute_last_move(arbiter, gid)
    arbiter.play.rule(created["referee_token"], Asked(GiveRuling, gid, {"decision": "upheld", "remedy": "rewind"},
                                                      beside={"number": number}))
    assert arbiter.play.bot_seats.seats(gid) == {0: "heuristic"}
    arbiter.play.duty.stop()


def one_move(arbiter: Arbiter, game_id: str) -> None:
    import random

    from tests.tournament_support import _bot_move

    game = arbiter.app.game(UUID(game_id))
    raw = _bot_move(game.game, game.decider, game.state, {}, dict(game.options), game.players, random.Random(1))
    arbiter.app.submit_move(game.id, raw.pop("seat"), raw)


def flagged_round_two(arbiter: Arbiter) -> tuple[str, str, dict, list[str]]:
    """A Swiss round 2 paired on a round-1 result a ruling then reopened: the tournament, the token, the reopened
    game and round 2's games (none begun)."""
    tid, token = create(arbiter, "swiss", players="ABCDEF", rounds=3)
    t = arbiter.tournaments
    t.start_round(tid, token)
    play_round(arbiter, tid, 1)
    t.start_round(tid, token)
    target = games(t.view(tid), 1)[2]
    rule_rewind(arbiter, tid, token, target["game_id"], dispute_last_move(arbiter, target["game_id"]))
    return tid, token, target, [g["game_id"] for g in games(t.view(tid), 2)]


def test_the_director_re_pairs_a_flagged_round_once_the_reopened_game_is_over_voiding_its_unplayed_games(arbiter):
    tid, token, target, first_draw = flagged_round_two(arbiter)
    t = arbiter.tournaments
    with pytest.raises(Conflict) as refused:
        t.review_pairings(tid, token, 2, "repair", note="draw again")
    assert "being played again" in refused.value.detail
    finish(arbiter.app, target["game_id"], rng_seed=11)
    assert t.view(tid)["pairings_to_review"][0]["games"][0]["status"] == "ended again"

    view = t.review_pairings(tid, token, 2, "repair", clause="T-5", note="round 1 table 3 ended otherwise")
    assert view["pairings_to_review"] == [] and view["rounds"][1]["voided"] == first_draw
    assert view["pairings_reviewed"][-1] == {"round": 2, "decision": "repair", "games": [target["game_id"]],
                                             "clause": "T-5", "note": "round 1 table 3 ended otherwise",
                                             "voided": first_draw}
    second_draw = [g["game_id"] for g in games(view, 2)]
    assert len(second_draw) == 3 and not set(second_draw) & set(first_draw)
    assert {g["game_id"] for g in t.links(tid, token)["games"]} & set(first_draw) == set()
    assert all(r["played"] == 1 for r in view["standings"]["players"])  # round 1 alone is over
    met = {frozenset(g["names"]) for g in games(view, 1)}
    assert not met & {frozenset(g["names"]) for g in games(view, 2)}, "a rematch where the Swiss draw avoids one"
    kinds = stored_kinds(arbiter, tid)
    assert kinds[-4:] == ["RoundRepaired", "GameStarted", "GameStarted", "GameStarted"]


def test_a_flagged_round_whose_games_have_begun_cannot_be_re_paired_but_can_be_kept(arbiter):
    tid, token, target, first_draw = flagged_round_two(arbiter)
    t = arbiter.tournaments
    finish(arbiter.app, target["game_id"], rng_seed=11)
    one_move(arbiter, first_draw[0])
    with pytest.raises(Conflict) as refused:
        t.review_pairings(tid, token, 2, "repair", note="draw again")
    assert "have begun" in refused.value.detail
    with pytest.raises(BadInput):
        t.review_pairings(tid, token, 2, "swap", note="?")
    assert t.review_pairings(tid, token, 2, "keep", note="kept")["pairings_to_review"] == []

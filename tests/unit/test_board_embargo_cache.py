"""The duplicate board's hold (service.tournaments.embargo.BoardEmbargo) answers many games from one catch-up of the
standings, keeps each answer while the standings stay at one position, and asks again once they move: a game a
tournament records after a first answer is held from then on, a board every table has finished is free; a game
created without a seed never costs a catch-up."""

from __future__ import annotations

from types import SimpleNamespace
from uuid import UUID, uuid4

from service.tournaments.embargo import BoardEmbargo


class FakeStandings:
    """The standings store as the embargo reads it: its position (`at`), games' tournaments, documents; counted."""

    def __init__(self):
        self.at, self.docs, self.owners = 0, {}, {}
        self.catch_ups = self.reads = 0

    def caught_up(self) -> "FakeStandings":
        self.catch_ups += 1
        return self

    def tournament_of(self, game_id) -> str | None:
        self.reads += 1
        return self.owners.get(str(game_id))

    def get(self, tid: str):
        self.reads += 1
        return self.docs.get(tid)

    def record(self, tid: str, games: list[UUID], over: set[UUID], tables: int) -> None:
        """A tournament's round 1 playing board 1.1 at `tables` tables; `over`: the games that have ended."""
        self.docs[tid] = {"games": [{"game_id": str(g), "round": 1, "board": "1.1"} for g in games],
                          "tables": {"1": list(range(tables))}, "outcomes": {str(g): {} for g in over}, "released": []}
        for g in games:
            self.owners[str(g)] = tid
        self.at += 1  # an applied notification moves the position


def embargo(standings: FakeStandings, unseeded: set[UUID] = frozenset()) -> BoardEmbargo:
    return BoardEmbargo(standings.caught_up, lambda gid: SimpleNamespace(seed_given=gid not in unseeded))


def test_one_catch_up_answers_every_game_of_a_batch():
    standings, games = FakeStandings(), [uuid4() for _ in range(10)]
    standings.record("t", games, set(), tables=10)
    held = embargo(standings).now()
    assert all(held(g) for g in games) and all(held(g) for g in games)
    assert standings.catch_ups == 1


def test_answers_are_kept_while_the_standings_stay_where_they_were():
    standings, games = FakeStandings(), [uuid4() for _ in range(10)]
    standings.record("t", games, set(), tables=10)
    hold = embargo(standings)
    batch = hold.now()
    assert all(batch(g) for g in games)
    reads = standings.reads
    for _ in range(5):  # five more batches, nothing new in the standings
        batch = hold.now()
        assert all(batch(g) for g in games)
    assert standings.reads == reads and standings.catch_ups == 6


def test_a_game_a_tournament_records_after_a_first_answer_is_held_once_the_standings_move():
    standings, game, other = FakeStandings(), uuid4(), uuid4()
    hold = embargo(standings)
    assert hold(game) is False  # created with its seed, not recorded yet (the tournament saves it just after)
    standings.record("t", [game, other], set(), tables=2)
    assert hold(game) is True and hold.now()(game) is True


def test_a_board_every_table_has_finished_is_free_once_the_standings_say_so():
    standings, game, other = FakeStandings(), uuid4(), uuid4()
    standings.record("t", [game, other], {game}, tables=2)
    hold = embargo(standings)
    assert hold(game) is True  # its table is over, the other still plays the board
    standings.record("t", [game, other], {game, other}, tables=2)
    assert hold(game) is False


def test_a_game_created_without_a_seed_is_never_held_and_costs_no_catch_up():
    standings, game = FakeStandings(), uuid4()
    hold = embargo(standings, unseeded={game})
    assert not hold(game) and not hold.now()(game)
    assert standings.catch_ups == 0

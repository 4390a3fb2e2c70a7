"""The duplicate board's embargo: a board's games have no spectators until every table of the board is over.

In duplicate play every table of a round holds the same deal for board j, so watching board j at one table (each
card played there, and the whole deal once it ends) shows a player still playing board j at another table cards it
may not see. `BoardEmbargo` is the hold the access layer asks (service.access.Access.viewer for every spectator's
read, Access.end_shown for a finished game's seats): a game is held while its board has a table that has not
started it or not finished it, read from the tournament's standings document (its games, boards and the end of
each).

What it remembers (`_free`, per process) is only what cannot become held again: a game created without a given seed
(its Created event, read once per process by the access layer: every duplicate board's game is created with the
board's seed, so any other game is never held, and costs one set look-up per read), and a game whose tournament's
document records it with its board over or released, or outside any board (a board all over is public for good:
every table's game of it shows the deal; a rewind that reopens one reopens it as a game in play anyway). A game with
a given seed that no tournament records is asked again once the standings have moved: the tournament records a game
it creates in a save of its own just after the game's, so a first read in between must not free it for good.

What it keeps besides (`_answers`) is each asked game's answer at the standings' position: their documents change only
when a notification of their topics is applied (a tournament's event, a game's end or rewind), which moves that
position, so a read after a catch-up that left it where it was gets the same answer without reading a document. One
catch-up answers a whole batch of games (`now`: the live feed, once per batch of events), and a catch-up reads only
the notifications after the last one it read (service.adapters.view_runner), not the log from the standings' last
event on: asked per game and per event, that scan was where the live tables' time went (docs/benchmarks.md).

An abandoned table keeps its board held; the director, who holds every game's referee token, sees every game of
the board whole all along, and may release the board (`release`: a `BoardReleased` event of the tournament, folded
into its document), which makes its finished games public at once although a table never finished it.
"""

from __future__ import annotations

import threading
from typing import Any, Callable
from uuid import UUID

from service.errors import BadInput

Doc = dict[str, Any]


def board_in_play(doc: Doc, game_id: str) -> bool:
    """Whether `game_id` is a game of a duplicate board that some table of its round has not finished (or started)."""
    mine = next((g for g in doc["games"] if g["game_id"] == game_id), None)
    if mine is None or mine.get("board") is None or mine["board"] in doc.get("released", ()):
        return False
    tables = len(doc.get("tables", {}).get(str(mine["round"]), ()))
    board = [g for g in doc["games"] if g["round"] == mine["round"] and g["board"] == mine["board"]]
    outcomes = doc["outcomes"]
    return len(board) < tables or any(g["game_id"] not in outcomes or (outcomes[g["game_id"]] or {}).get("provisional")
                                      for g in board)  # a game reopened by a ruling is in play again


def release(t: Any, board: Any) -> None:
    """Release duplicate board `board` ("round.game", e.g. "1.2") of tournament `t` (the director's command, checked
    by the facade): a board it does not have is refused (422, field `board`); releasing it twice changes nothing."""
    boards = [b["board"] for r in t.rounds for b in (r["boards"] or ())]
    if board not in boards:
        named = ", ".join(boards[:12]) or "none: the tournament is not duplicate, or no round has started"
        raise BadInput(f"board: this tournament has no board {str(board)[:20]!r} (its boards: {named})", field="board")
    if board not in t.released:
        t.release_board(board)


class BoardEmbargo:
    """The hold of duplicate boards for one store (`holds(game_id)`), over its standings documents."""

    def __init__(self, standings: Callable[[], Any], created: Callable[[UUID], Any]):
        self.standings = standings  # the standings store, caught up (service.adapters.standings_store.Standings)
        self.created = created  # a game's Created event (service.access.Access.created: read once per process)
        self._free: set[UUID] = set()  # games that can never be held again
        # each asked game's answer while the standings stay at position `_at` (their rows change only when it moves:
        # a tournament event or a game's end applied, by any process), so one catch-up answers every game again
        self._at: int | None = None
        self._answers: dict[UUID, bool] = {}
        self._lock = threading.Lock()

    def __call__(self, game_id: UUID) -> bool:
        """Whether this game is held: its duplicate board is being played (here or at another table)."""
        return self.now()(game_id)

    def now(self) -> Callable[[UUID], bool]:
        """Whether each game is held, as the standings read now: caught up once (when a game that may be held is
        first asked), whatever the number of games asked; each game's answer kept until the standings move. The live
        feed asks once per batch of events (service.access.Access.holds_now)."""
        caught_up: list = []

        def held(game_id: UUID) -> bool:
            if game_id in self._free:
                return False
            if not self.created(game_id).seed_given:  # not a board's game: a duplicate board is created with its seed
                self._free.add(game_id)
                return False
            if not caught_up:
                caught_up.append(self._answers_now())
            store, answers = caught_up[0]
            known = answers.get(game_id)
            if known is None:
                known = answers[game_id] = self._held(store, game_id)
            return known

        return held

    def _answers_now(self) -> tuple[Any, dict[UUID, bool]]:
        """The standings caught up, and the answers that hold at their position (a new set once it has moved)."""
        store = self.standings()
        with self._lock:
            if store.at != self._at:
                self._at, self._answers = store.at, {}
            return store, self._answers

    def _held(self, store: Any, game_id: UUID) -> bool:
        owner = store.tournament_of(game_id)
        doc = None if owner is None else store.get(owner)
        if doc is None:
            return False  # not recorded (yet: the tournament saves it just after the game), or no tournament's game
        if board_in_play(doc, str(game_id)):
            return True
        self._free.add(game_id)
        return False

"""The study aggregate (issue 27 parts 3 and 5, docs/studies.md): a "what if" variation played from a position of a
recorded game, in a sandbox that is never part of that game, and the comments attached to its positions.

It records only: where the study starts (the game, its store version, the seat whose knowledge it uses, the seed that
samples the hidden cards and the sandbox's chance, whether the user plays every seat), each move of the variation
(record form, cards as strings) with who made it, and each comment. The service (service/studies) decides.
"""

from __future__ import annotations

from eventsourcing.domain import Aggregate


class Study(Aggregate):
    """A variation from one seat's knowledge of a game at one version, with comments on its positions."""

    class Created(Aggregate.Created):
        game_id: str
        game: str
        game_version: int  # the game's store version the study starts from
        seat: int
        seed: str
        every_seat: bool
        by: str  # who opened it: "seat N", "referee" or "spectator"

    class Played(Aggregate.Event):
        move: dict  # record form (the decider's format_move), seat included
        by: str  # "user" or "bot"

        def apply(self, study: "Study") -> None:
            study.moves.append({"move": dict(self.move), "by": self.by})

    class Commented(Aggregate.Event):
        at: int  # the position: 0 the start, k after the variation's k-th move
        author: str  # "seat N" or "referee"
        text: str

        def apply(self, study: "Study") -> None:
            study.comments.append({"at": self.at, "author": self.author, "text": self.text})

    def __init__(self, game_id: str, game: str, game_version: int, seat: int, seed: str, every_seat: bool, by: str):
        self.game_id = game_id
        self.game = game
        self.game_version = game_version
        self.seat = seat
        self.seed = seed
        self.every_seat = every_seat
        self.by = by
        self.moves: list[dict] = []
        self.comments: list[dict] = []

    def play(self, move: dict, by: str) -> None:
        """One move of the variation (already judged legal by the game's decider)."""
        self.trigger_event(Study.Played, move=dict(move), by=by)

    def comment(self, at: int, author: str, text: str) -> None:
        """A comment on position `at` (already checked: a position of the variation, plain text, short)."""
        self.trigger_event(Study.Commented, at=at, author=author, text=text)

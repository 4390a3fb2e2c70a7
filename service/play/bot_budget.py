"""How long a server-seated bot keeps playing a game that no person is moving (issue 28): play, slow down, or stop.

A pure policy: no clock, no I/O, nothing of any one game. The bot loop tells it, at each look at
the game, the game's version, whether a person (a seat no bot plays) has moved since the last look,
whether the game is over and, when the loop has one, a progress mark (any value that changes when a
unit of the game ends: a battle, a round, a trick; `None` when it has none); the policy answers with a
`Decision`.

- A person moving resets everything: a game with a person at the table is never slowed or stopped.
- What only bots did counts up, in versions (a game's events: what the loop sees, 1.1 to 2.4 of them a move
  in self-play). After `Limits.slow_after` of them the bot waits `Limits.wait` seconds before each move (a
  long bot-only game costs a trickle, not a core); after `Limits.stop_after` it stops and says why.
- When the loop gives a progress mark, `Limits.stall` versions by bots alone without the mark changing stop
  the bot too: the game is going round without any unit of it ending.

The limits come from self-play (docs/bots.md): every one of the games measured between heuristic bots, in
every game and table, ended within 2,000 moves (about 2,800 versions), so a game with no person at the
table is slowed once it has gone longer than any of them and stopped at about three times that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

PLAY, SLOW, STOP = "play", "slow", "stop"


@dataclass(frozen=True)
class Limits:
    """The budget of versions made by bots alone (since a person last moved) and the pace once it runs low."""

    slow_after: int = 3000
    stop_after: int = 8000
    stall: int = 3000  # versions by bots alone with the progress mark unchanged
    wait: float = 1.0  # seconds before each move once slowed


@dataclass(frozen=True)
class Decision:
    """What the bot loop does next: `action` (play, slow: wait `wait` seconds first, stop) and why (for the log)."""

    action: str
    wait: float = 0.0
    reason: str = ""

    @property
    def stops(self) -> bool:
        """Whether the bot stops playing this game."""
        return self.action == STOP


class BotBudget:
    """One bot seat's budget: fold each look at its game into play, slow or stop."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.version: int | None = None
        self.bot_moves = 0  # versions since a person last moved (or since the bot sat down)
        self.mark: Hashable = None
        self.since_mark = 0  # versions by bots alone since the progress mark last changed

    def look(self, version: int, person_moved: bool = False, over: bool = False,
             mark: Hashable = None) -> Decision:
        """The decision after a look at the game: its `version`, whether a person moved since the last look, whether
        it is `over`, and the loop's progress `mark` (None: none). A version before the last one seen (a game read
        from elsewhere) starts the count afresh."""
        if over:
            return Decision(STOP, reason="the game is over")
        moved = 0 if self.version is None else version - self.version
        if moved < 0:
            self.reset(version)
            return Decision(PLAY)
        self.version = version
        if person_moved:
            self.bot_moves, self.since_mark, self.mark = 0, 0, mark
            return Decision(PLAY)
        self.bot_moves += moved
        if mark is not None and mark != self.mark:
            self.mark, self.since_mark = mark, 0
        elif mark is not None:
            self.since_mark += moved
        limits = self.limits
        if self.bot_moves >= limits.stop_after:
            return Decision(STOP, reason=f"{self.bot_moves} versions made by bots alone (the limit is {limits.stop_after}): "
                                         "the game is not moving towards an end; a person's move would restart it")
        if mark is not None and self.since_mark >= limits.stall:
            return Decision(STOP, reason=f"{self.since_mark} versions made by bots alone without any battle, round or trick "
                                         f"ending (the limit is {limits.stall}): the cards are going round")
        if self.bot_moves >= limits.slow_after:
            return Decision(SLOW, limits.wait, f"{self.bot_moves} versions made by bots alone: one move every {limits.wait:g} s")
        return Decision(PLAY)

    def reset(self, version: int) -> None:
        """Start counting afresh from `version` (say, once a person takes a seat back from a bot)."""
        self.version, self.bot_moves, self.since_mark, self.mark = version, 0, 0, None

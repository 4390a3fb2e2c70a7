"""The progress bar of commands that play games (`arbiter simulate`, with or without --server): games done, ETA."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


def games_progress(console: Console) -> Progress:
    """A rich progress bar counting games, on `console`."""
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                    TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console)

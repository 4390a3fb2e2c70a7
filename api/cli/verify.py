"""`arbiter verify --all`: every stored game checked on every core, a progress bar with ETA on a terminal,
one JSON line per game with `--json` (service.verification.bulk does the work)."""

from __future__ import annotations

import json
import sys
import time

import click


def verify_all_reports(arbiter, key_file: str | None, checkpoint_log: str | None, as_json: bool,
                       workers: int | None) -> list[dict]:
    """Verify every game the store or the checkpoint log knows; each report printed as a JSON line as soon as it
    is ready with `as_json`. A progress bar (games, stored events, ETA) goes to stderr when stderr is a terminal."""
    from service.verification.bulk import stored_events, verify_all

    start_early(workers)  # (if the command has not already)
    ids = arbiter.verification.game_ids()
    total = arbiter.verification.count_events()
    reports: list[dict] = []
    started = time.perf_counter()
    with _progress(total, len(ids)) as advance:
        for report in verify_all(arbiter.database_url, ids, key_file, checkpoint_log, workers,
                                 log_report=arbiter.evidence.coverage_report()):  # checked already (gone lines counted), to list the games;
            # with what the latest published checkpoint covers of each game (the maximum merge delay)
            if as_json:
                sys.stdout.write(json.dumps(report) + "\n")
            reports.append(report)
            advance(stored_events(report))
    if as_json:
        sys.stdout.flush()
    elapsed = time.perf_counter() - started
    events = sum(stored_events(r) for r in reports)
    if sys.stderr.isatty():
        click.echo(f"verified {len(reports)} game(s), {events:,} stored events in {elapsed:.1f} s "
                   f"({events / elapsed if elapsed else 0:,.0f} events/s)", err=True)
    return reports


def start_early(workers: int | None) -> None:
    """Start the server the workers of `verify --all` are forked from, when there will be more than one: it imports
    the verifier (a quarter of a second) while this process opens the store and lists the games."""
    from service.verification.bulk import default_workers, start_workers

    if (workers or default_workers()) > 1:
        start_workers()


class _progress:
    """A rich progress bar over stored events, with the games counted beside it; nothing when stderr is no terminal."""

    def __init__(self, events: int, games: int):
        self.events, self.games, self.done_games = events, games, 0
        self.bar = None

    def __enter__(self):
        if not sys.stderr.isatty():
            return lambda n: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TextColumn("events"),
                            TextColumn("{task.fields[games]}"), TimeElapsedColumn(), TextColumn("ETA"),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        self.task = self.bar.add_task("verify", total=max(self.events, 1), games=f"0/{self.games} games")

        def advance(n: int) -> None:
            self.done_games += 1
            self.bar.update(self.task, advance=n, games=f"{self.done_games}/{self.games} games")

        return advance

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

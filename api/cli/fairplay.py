"""`arbiter fairplay FILES... | --tournament ID [--database-url URL]`: the fair-play report for referees (issue 27
part 4, docs/fairplay.md). A rich table (or JSON with --json) with, per player, the decisions judged, the informative
ones, how often the player matched the all-cards best and its own-information best there, the sign test's p-value,
the flag for review and the reason in words. The report itself carries counts and where each player's weighty
decisions were, no move and no card; `--packet FILE` also writes the review packet (docs/fairplay.md "Review packet"),
blind unless --names, which shows those decisions' moves and the table each seat saw."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

EXIT_FLAGGED = 1
EXIT_BAD_INPUT = 2


@click.command("fairplay")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--tournament", "tournament_id", default=None, help="Screen a tournament's finished games instead.")
@click.option("--database-url", envvar="ARBITER_DATABASE_URL", default=None, help="Event store URL (with --tournament).")
@click.option("--samples", type=click.IntRange(1, 2000), default=None,
              help="At most this many sampled deals a move for the own-information analysis  [default: 16]")
@click.option("--perfect-samples", type=click.IntRange(1, 2000), default=None,
              help="Rollouts a move from a full state (the true one, each world of the baseline)  [default: 4]")
@click.option("--worlds", type=click.IntRange(1, 2000), default=None,
              help="Worlds sampled from each seat's knowledge for the honest baseline of a decision  [default: 8]")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.01, show_default=True,
              help="Family-wise level: the chance that any honest player of the report is flagged.")
@click.option("--seed", default="0", show_default=True, help="The analysis' own seed: the same seed, the same report.")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Worker processes (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--packet", "packet_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the review packet (one HTML file, blind: players labelled Player A, B, ...).")
@click.option("--names", is_flag=True, help="The packet shows the players' names (it then says it is not blind).")
@click.option("--base-url", default=None, help="The server's address, for the packet's links (else written as paths).")
def fairplay_command(files, tournament_id, database_url, samples, perfect_samples, worlds, alpha, seed, workers,
                     as_json, packet_file, names, base_url) -> None:
    """Flag for a referee's review the players whose moves follow cards they could not see (never a verdict).

    Exit 0 when nobody is flagged, 1 when someone is, 2 for bad input (a malformed record, an unfinished game, an
    unknown tournament, a packet file that cannot be written)."""
    from service.analysis.facade import default_workers
    from service.errors import ServiceError
    from service.fairplay.facade import OWN_SAMPLES, PERFECT_SAMPLES, WORLDS, Settings, records_from_files, screen

    err = Console(stderr=True)
    if bool(files) == bool(tournament_id):
        raise click.UsageError("give record FILES or --tournament ID (not both)")
    if (names or base_url) and not packet_file:
        raise click.UsageError("--names and --base-url shape the review packet: give --packet FILE too")
    arbiter = None
    try:
        if packet_file:
            _writable(packet_file)  # named before the screening's minutes, not after
        settings = Settings(own_samples=samples or OWN_SAMPLES, perfect_samples=perfect_samples or PERFECT_SAMPLES,
                            worlds=worlds or WORLDS, seed=seed, alpha=alpha)
        tournament = None
        if tournament_id:
            arbiter, tournament, games = _tournament(database_url, tournament_id)
            title = f"tournament {tournament['name']} ({tournament['id']})"
            if not games:
                raise _no_games(tournament)
        else:
            games = records_from_files(files)
            title = f"{len(games)} recorded game{'s' if len(games) != 1 else ''}"
        with Progress(TextColumn("[bold]screening"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                      TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err,
                      transient=True) as bar:
            task = bar.add_task("screen", total=None)
            result = screen(games, settings, workers or default_workers(),
                            progress=lambda done, total: bar.update(task, completed=done, total=total))
        if packet_file:
            _write_packet(packet_file, result, games, title, tournament, names, base_url)
            kind = "with the players' names" if names else "blind"
            err.print(f"review packet written to {packet_file} ({kind})", highlight=False, soft_wrap=True)
    except ServiceError as e:
        err.print(f"[red]error:[/red] {e.detail}", highlight=False, soft_wrap=True)
        sys.exit(EXIT_BAD_INPUT)
    finally:
        if arbiter is not None:
            arbiter.close()
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
    else:
        _table(result, title)
    sys.exit(EXIT_FLAGGED if any(p["flagged"] for p in result["players"]) else 0)


def _writable(path: str) -> None:
    import os

    from service.errors import BadInput

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise BadInput(f"--packet {path}: cannot write it: {folder} is not a folder this user may write in")


def _write_packet(path: str, result: dict, games: list, title: str, tournament: dict | None, names: bool,
                  base_url: str | None) -> None:
    from api.packet_html import render
    from service.errors import BadInput
    from service.fairplay.packet import build

    packet = build(result, games, title, names=names, tournament_id=tournament["id"] if tournament else None)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(render(packet, base_url))
    except OSError as e:
        raise BadInput(f"--packet {path}: cannot write it: {e.strerror or e}") from None


def _no_games(tournament: dict):
    from service.errors import BadInput

    return BadInput(f"tournament {tournament['name']} ({tournament['id']}) has no finished game to screen yet")


def _tournament(database_url, tournament_id):
    from service.adapters.stores import DEFAULT_URL, StoreURLError, store_missing
    from service.errors import BadInput
    from service.facade import Arbiter
    from service.fairplay.facade import tournament_games

    url = database_url or DEFAULT_URL
    try:
        missing = store_missing(url)
    except StoreURLError as e:
        raise BadInput(f"--database-url: {e}") from None
    if missing:
        raise BadInput(f"{missing}; give --database-url (or ARBITER_DATABASE_URL) naming the store")
    arbiter = Arbiter(url)
    try:
        tournament, games = tournament_games(arbiter.tournaments, tournament_id)
    except BaseException:
        arbiter.close()
        raise
    return arbiter, tournament, games


def _table(result: dict, title: str) -> None:
    from domain.wording import count

    out = Console()
    s = result["settings"]
    table = Table(title=f"Fair play: {title}, {count(result['games'], 'game')} (own-information analysis "
                        f"{count(s['own_samples'], 'sample')} a move, all-cards {count(s['perfect_samples'], 'rollout')} "
                        f"a move)")
    for name in ("player", "games", "decisions", "informative", "all-cards best", "own best", "mean rank", "p-value",
                 "flagged"):
        table.add_column(name, justify="left" if name in ("player", "flagged") else "right")
    for p in result["players"]:
        table.add_row(p["player"], str(p["games"]), str(p["decisions"]), str(p["informative"]),
                      str(p["matched_perfect"]), str(p["matched_own"]),
                      "" if p["rank_mean"] is None else f"{p['rank_mean']:.2f}", f"{p['p_value']:.3g}",
                      "[bold red]REVIEW[/bold red]" if p["flagged"] else "no")
    out.print(table)
    for p in result["players"]:
        out.print(f"[bold]{p['player']}[/bold]: {p['reason']}", highlight=False)
    out.print(f"Flagged means worth a referee's review, never a verdict (docs/fairplay.md). Each player is tested at "
              f"alpha {s['alpha']} / {count(len(result['players']), 'player')}.", highlight=False)

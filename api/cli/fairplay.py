"""`arbiter fairplay FILES... | --tournament ID [--database-url URL]`: the fair-play report for referees (issue 27
part 4, issue 37; docs/fairplay.md "Two stages"). Stage one, the screen, tests every player (and every pair who sat
together, in games of three or more seats); stage two, the full test, only those the screen refers. A rich table (or
JSON with --json) with, per player, the screen's decisions, z and p-value, whether it referred the player, and for
the referred the full test's decisions, informative ones, matches of each best, mean rank, z, p-value and whether a
fair-play panel is asked; then the reason in words. The report itself carries counts and where each referred
player's weighty decisions were, no move and no card; `--packet FILE` also writes the review packet (docs/fairplay.md
"Review packet"), blind unless --names, which shows those decisions' moves and the table each seat saw."""

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
@click.option("--screen-samples", type=click.IntRange(1, 2000), default=None,
              help="Stage one, the screen: rollouts a candidate in each deal  [default: 1]")
@click.option("--screen-worlds", type=click.IntRange(1, 2000), default=None,
              help="Stage one, the screen: deals (or partner's hands) sampled a decision  [default: 4]")
@click.option("--refer", type=click.FloatRange(0, 1, min_open=True), default=None,
              help="The screen refers to the full test at or below this p-value  [default: 0.001; 1: everyone]")
@click.option("--seed", default="0", show_default=True, help="The analysis' own seed: the same seed, the same report.")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Worker processes (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--packet", "packet_file", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also write the review packet (one HTML file, blind: players labelled Player A, B, ...).")
@click.option("--names", is_flag=True, help="The packet shows the players' names (it then says it is not blind).")
@click.option("--base-url", default=None, help="The server's address, for the packet's links (else written as paths).")
def fairplay_command(files, tournament_id, database_url, samples, perfect_samples, worlds, screen_samples,
                     screen_worlds, refer, seed, workers, as_json, packet_file, names, base_url) -> None:
    """Screen every player for moves that follow cards they could not see, test in full those the screen refers, and
    say who a fair-play panel should review (a flag asks for a review, never a verdict).

    Exit 0 when the screen refers nobody, 1 when it refers someone (a player or a pair), 2 for bad input (a malformed
    record, an unfinished game, an unknown tournament, a packet file that cannot be written)."""
    from service.analysis.facade import default_workers
    from service.errors import ServiceError
    from service.fairplay.facade import OWN_SAMPLES, PERFECT_SAMPLES, WORLDS, Settings, records_from_files
    from service.fairplay.stages import screen

    err = Console(stderr=True)
    if bool(files) == bool(tournament_id):
        raise click.UsageError("give record FILES or --tournament ID (not both)")
    if (names or base_url) and not packet_file:
        raise click.UsageError("--names and --base-url shape the review packet: give --packet FILE too")
    arbiter = None
    try:
        if packet_file:
            _writable(packet_file)  # named before the screening's minutes, not after
        chosen = {"screen_samples": screen_samples, "screen_worlds": screen_worlds, "refer": refer}
        settings = Settings(own_samples=samples or OWN_SAMPLES, perfect_samples=perfect_samples or PERFECT_SAMPLES,
                            worlds=worlds or WORLDS, seed=seed, **{k: v for k, v in chosen.items() if v is not None})
        tournament = None
        if tournament_id:
            arbiter, tournament, games = _tournament(database_url, tournament_id)
            title = f"tournament {tournament['name']} ({tournament['id']})"
            if not games:
                raise _no_games(tournament)
        else:
            games = records_from_files(files)
            title = "recorded games"  # the table adds how many ("recorded games, 1 game")
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("decisions"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                      console=err, transient=True) as bar:
            stages = {"screen": bar.add_task("stage 1, the screen", total=None)}

            def told(stage: str, done: int, total: int) -> None:
                if stage not in stages:
                    stages[stage] = bar.add_task("stage 2, the full test of the referred", total=None)
                bar.update(stages[stage], completed=done, total=total)

            result = screen(games, settings, workers or default_workers(), progress=told)
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
    sys.exit(EXIT_FLAGGED if any(line["referred"] for line in result["players"] + result["pairs"]) else 0)


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
    from domain.wording import count, one_in

    out = Console()
    s, t = result["settings"], result["thresholds"]

    def number(value, form: str) -> str:
        return "" if value is None else format(value, form)

    for kind, lines in (("player", result["players"]), ("pair", result["pairs"])):
        if kind == "pair" and not result["pair_test"]:
            continue
        table = Table(title=f"Fair play, {kind}s: {title}, {count(result['games'], 'game')} (the screen "
                            f"{result['screen_judge']}, in "
                            f"{count(s['screen_worlds'], 'world')}; the full test "
                            f"{count(s['perfect_samples'], 'rollout')} a move in {count(s['worlds'], 'world')})")
        for name in (kind, "games", "screen: decisions", "z", "p-value", "referred", "full: decisions", "mean rank",
                     "z", "p-value", "panel"):
            table.add_column(name, justify="left" if name in (kind, "referred", "panel") else "right")
        for line in lines:
            sc, full = line["screen"], line["full"] or {}
            table.add_row(line.get("player") or " & ".join(line["pair"]), str(line["games"]), str(sc["decisions"]),
                          number(sc["z"], ".2f"), f"{sc['p_value']:.3g}",
                          "[bold]yes[/bold]" if line["referred"] else "no", number(full.get("decisions"), "d"),
                          number(full.get("rank_mean"), ".2f"), number(full.get("z"), ".2f"),
                          number(full.get("p_value"), ".3g"),
                          "[bold red]ASK A PANEL[/bold red]" if line["panel"] else ("no" if full else ""))
        out.print(table)
        for line in lines:
            out.print(f"[bold]{line.get('player') or ' and '.join(line['pair'])}[/bold]: {line['reason']}",
                      highlight=False)
    refer_z = "" if t["refer_z"] is None else f" (z {t['refer_z']:.2f})"
    out.print(f"Two stages (docs/fairplay.md): the screen refers at p <= {one_in(t['refer'])}{refer_z}; "
              f"the full test asks a fair-play panel at p <= {one_in(t['panel'])} (z {t['panel_z']:.2f}). A flag asks "
              f"for a review, never a verdict.", highlight=False)
    for title, said in result.get("calibrated", {}).items():
        out.print(f"Calibration, {title}: {said}.", highlight=False)

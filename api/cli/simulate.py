"""`arbiter simulate` (self-play between bots, or the load generator against a server) and `arbiter report`."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import click
from rich.console import Console

from domain import json_limits
from domain.games import SPECS

from .progress import games_progress

EXIT_BAD_INPUT = 2


def _options(text: str | None) -> dict:
    if text is None:
        return {}
    try:
        value = json_limits.loads(text)
    except json_limits.LimitError as e:
        raise click.BadParameter(f"{e}: {text[:60]!r}", param_hint="--options") from None
    if not isinstance(value, dict):
        raise click.BadParameter("must be a JSON object, e.g. '{\"edition\": \"classic\"}'", param_hint="--options")
    return value


@click.command("simulate")
@click.option("--game", help=f"Game id: {', '.join(SPECS)}.")
@click.option("--players", type=int, help="Seats at each table.")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True, help="Games to play.")
@click.option("--bots", default="heuristic", show_default=True,
              help="Comma-separated bot kinds (heuristic, random), seated in rotation.")
@click.option("--options", "options_json", default=None, help="The game's options as JSON, e.g. '{\"edition\": \"classic\"}'.")
@click.option("--teams", default=None, help="Each seat's team, comma-separated in seat order, e.g. 'N,E,N,E' (as the game "
                                            "seats teams).")
@click.option("--seed", default="0", show_default=True, help="The run's seed: the same seed gives the same games.")
@click.option("--workers", type=click.IntRange(1, 256), default=None, help="Processes (default: one per core).")
@click.option("--out", type=click.Path(), default=None,
              help="Write every game's record: a directory (one JSON file each) or a .jsonl archive.")
@click.option("--max-moves", type=click.IntRange(1), default=3000, show_default=True,
              help="A game still on after this many moves counts as unfinished.")
@click.option("--html", type=click.Path(dir_okay=False), default=None, help="Also write the balance report as HTML.")
@click.option("--json", "as_json", is_flag=True, help="Print the balance report as JSON instead of tables.")
@click.option("--server", default=None, help="Load generator: play against a running arbiter at this URL.")
@click.option("--clients", type=click.IntRange(1, 1024), default=8, show_default=True,
              help="Load generator: games played at once.")
def simulate_command(game, players, games, bots, options_json, teams, seed, workers, out, max_moves, html, as_json,
                     server, clients) -> None:
    """Let bots play GAMES games of GAME at PLAYERS seats, on every core; print the balance report.

    Reproducible bit for bit for a --seed, whatever --workers. With --server, bots play over HTTP
    against a running arbiter instead (the load generator), --clients games at once.
    """
    from service.offline.simulation import PlanError, make_plan

    if game is None:
        raise click.BadParameter(f"name the game: {', '.join(SPECS)}", param_hint="--game")
    if players is None:
        raise click.BadParameter("give the number of seats", param_hint="--players")
    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    try:
        plan = make_plan(game, players, games, kinds, _options(options_json), seed, max_moves,
                         [t.strip() for t in teams.split(",")] if teams else ())
    except PlanError as e:
        raise click.BadParameter(e.reason, param_hint=e.option) from None
    if server:
        from .loadgen import load_command

        load_command(plan, server, clients, as_json)
        return
    reports = _self_play(plan, workers, out)
    _show(reports, html, as_json, "arbiter " + " ".join(shlex.quote(a) for a in sys.argv[1:]))


def _self_play(plan, workers: int | None, out: str | None) -> list[dict]:
    from service.offline.balance import report_of
    from service.offline.simulation import BotMoveError, RecordSink, default_workers, run as simulate

    workers = workers or default_workers()
    console = Console(stderr=True)
    docs: list[tuple[str, dict]] = []
    try:
        with games_progress(console) as bar:
            task = bar.add_task(f"{plan.game} × {plan.players} ({', '.join(plan.bots)}) on {workers} worker(s)",
                                total=plan.games)
            advance = lambda k: bar.advance(task, k)  # noqa: E731
            if out:
                with RecordSink(out) as sink:
                    for doc in simulate(plan, workers, advance):
                        sink.write(doc)
            else:
                docs = [(f"game {i}", doc) for i, doc in enumerate(simulate(plan, workers, advance))]
    except BotMoveError as e:
        click.echo(f"arbiter simulate: a bot made an illegal move (a bug): {e}", err=True)
        sys.exit(1)
    except OSError as e:
        raise click.BadParameter(f"cannot write {out}: {e.strerror}", param_hint="--out") from None
    if out:
        console.print(f"wrote {plan.games} records to {out} (check them: arbiter replay {_glob(out)} --json)")
        from service.offline.balance import balance_report

        return balance_report([out])
    return report_of(docs)


def _glob(out: str) -> str:
    return shlex.quote(out) if out.endswith(".jsonl") else shlex.quote(str(Path(out))) + "/*.json"


def _show(reports: list[dict], html: str | None, as_json: bool, command: str | None) -> None:
    if as_json:
        for rep in reports:
            slim = {**rep, **{key: rep[key] and {k: v for k, v in rep[key].items() if k != "values"}
                              for key in ("moves", "length")}}
            click.echo(json.dumps(slim))
    else:
        from .balance_tables import print_report

        print_report(reports, Console())
    if html:
        from api.pages.balance import MissingPlots, render

        try:
            page = render(reports, command)
        except MissingPlots as e:
            raise click.ClickException(str(e)) from None
        Path(html).write_text(page, encoding="utf-8")
        click.echo(f"wrote {html}", err=True)


@click.command("report")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--html", type=click.Path(dir_okay=False), default=None, help="Also write the report as one HTML page.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (one line per table).")
@click.option("--command", "command", default=None, help="The command that made the records, for the HTML page.")
def report_command(paths, html, as_json, command) -> None:
    """Balance report of recorded games (directories, .jsonl archives, record files): win rates with Wilson
    intervals by seat, position and bot, endings, lengths; every record is replayed and verified first."""
    from service.offline.balance import ReportError, balance_report

    try:
        reports = balance_report(paths)
    except ReportError as e:
        click.echo(f"arbiter report: {e}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    _show(reports, html, as_json, command)

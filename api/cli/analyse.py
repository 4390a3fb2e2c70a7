"""`arbiter analyse RECORD --seat N` (and `analyze`): computer analysis of one seat's decisions, honest about hidden
cards (docs/analysis.md). JSON Lines with --json (one line per analysed decision); a rich table otherwise."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from domain.marks import MARKS

EXIT_BAD_INPUT = 2


@click.command("analyse")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, required=True, help="The seat whose decisions are analysed (its knowledge only).")
@click.option("--samples", type=click.IntRange(1, 20000), default=1000, show_default=True,
              help="At most this many sampled deals a move (fewer once its 95% interval is narrow enough).")
@click.option("--seed", default="0", show_default=True, help="The analysis' own seed: the same seed gives the same lines.")
@click.option("--workers", type=click.IntRange(1, 64), default=None, help="Worker processes (default: every core).")
@click.option("--json", "as_json", is_flag=True, help="JSON Lines: one line per analysed decision.")
def analyse_command(record: str, seat: int, samples: int, seed: str, workers: int | None, as_json: bool) -> None:
    """Judge every decision of SEAT in RECORD (a finished game's record file) by determinized rollouts."""
    from domain.games import spec_for
    from domain.records import InvalidRecord, load
    from service.analysis.facade import NotAnalysable, analyse, default_workers, plan

    err = Console(stderr=True)
    try:
        loaded = load(record)
        p = plan(loaded, seat)
        lines = []
        with Progress(TextColumn("[bold]analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                      TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=err,
                      transient=as_json) as bar:
            task = bar.add_task("analyse", total=len(p.decisions))
            for line in analyse(p, seed, samples, workers or default_workers(),
                                progress=lambda done, total: bar.update(task, completed=done)):
                if as_json:
                    sys.stdout.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
                    sys.stdout.flush()
                else:
                    lines.append(line)
    except (InvalidRecord, NotAnalysable) as e:
        err.print(f"[red]error:[/red] {e}", highlight=False)
        sys.exit(EXIT_BAD_INPUT)
    if not as_json:
        _table(lines, seat, loaded.game, list(loaded.setup.names), spec_for(loaded.game).analysis.marks)


def _value_text(row: dict) -> str:
    if row["low"] is None or row["high"] is None:  # one sample: no interval
        return f"{row['value']:.1f}"
    return f"{row['value']:.1f} ±{(row['high'] - row['low']) / 2:.1f}"


def _table(lines: list[dict], seat: int, game: str, names: list[str], marks: tuple) -> None:
    from projections.narration import move_text  # a move in words, players by name (no seat number in it)

    def _move_text(move: dict) -> str:
        return move_text(game, move, names)

    out = Console()
    unit = lines[0]["unit"] if lines else "win"
    what = "win chance (points)" if unit == "win" else "expected score"
    table = Table(title=f"{names[seat]} (seat {seat}): {len(lines)} decisions analysed ({what}, 95% interval)")
    numeric = ("#", "move", "value", "best value", "loss", "at least")
    for name in ("#", "move", "played", "value", "best", "best value", "loss", "at least", "mark"):
        table.add_column(name, justify="right" if name in numeric else "left")
    for line in lines:
        mine = next(r for r in line["moves"] if r["move"] == line["played"])
        table.add_row(str(line["decision"]), str(line["move_index"]), _move_text(line["played"]),
                      _value_text(mine), _move_text(line["best"]),
                      f"{line['eval']:.1f}", f"{line['loss']:.1f}",
                      f"{line['loss_low']:.1f}" if "loss_low" in line else "", line["mark"] or "")
    out.print(table)
    counts = {m: sum(1 for x in lines if x["mark"] == m) for m in MARKS}
    out.print(", ".join(f"{v} {k}{'es' if k == 'inaccuracy' and v != 1 else ('s' if v != 1 else '')}"
                        for k, v in counts.items()).replace("inaccuracyes", "inaccuracies"))
    from domain.accuracy import accuracy  # docs/analysis.md "Accuracy"

    out.print("a mark is earned by what the move lost at least (the loss's 95% lower bound), not by the loss alone")
    score = accuracy(lines, marks)
    if score is not None:
        out.print(f"accuracy {score:.1f}% (100: every analysed move the best)")

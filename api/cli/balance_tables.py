"""A balance report (service.offline.balance) as rich tables on the terminal."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from service.offline.balance import table_label


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:5.1f}%  [{100 * r['low']:4.1f}–{100 * r['high']:4.1f}]"


def print_report(reports: list[dict], console: Console | None = None) -> None:
    """Every table of the report: win rates with 95% Wilson intervals, endings, lengths."""
    console = console or Console()
    for rep in reports:
        console.rule(f"[bold]{table_label(rep)}[/]: {rep['games']} games, {rep['finished']} finished")
        if rep["unfinished"]["count"]:
            console.print(f"[bold red]{rep['unfinished']['count']} unfinished[/]: still on after "
                          f"{rep['unfinished']['cap']} moves; counted as no one's win, left out of the lengths")
        wins = Table(title="win rate (95% Wilson interval)", title_justify="left")
        wins.add_column("seat / position", justify="right")
        wins.add_column("by seat", justify="right")
        wins.add_column("by position (0: the first player)", justify="right")
        for k, (seat, pos) in enumerate(zip(rep["win_by_seat"], rep["win_by_position"])):
            wins.add_row(str(k), _pct(seat), _pct(pos))
        console.print(wins)
        bots = Table(title="win rate by bot (per seat played)", title_justify="left")
        bots.add_column("bot")
        bots.add_column("seats played", justify="right")
        bots.add_column("wins", justify="right")
        bots.add_column("rate", justify="right")
        for kind, r in rep["win_by_bot"].items():
            bots.add_row(kind, str(r["of"]), str(r["count"]), _pct(r))
        console.print(bots)
        ends = Table(title="how games ended", title_justify="left")
        ends.add_column("ending")
        ends.add_column("games", justify="right")
        ends.add_column("share", justify="right")
        for kind, r in rep["endings"].items():
            ends.add_row(kind, str(r["count"]), _pct(r))
        console.print(ends)
        length = Table(title="length", title_justify="left")
        for col in ("measure", "mean", "median", "p10", "p90", "min", "max"):
            length.add_column(col, justify="right" if col != "measure" else "left")
        for name, s in ((f"{rep['unit']} (finished games)", rep["length"]), ("moves (finished games)", rep["moves"])):
            if s is None:
                length.add_row(name, "no game finished", "", "", "", "", "")
                continue
            length.add_row(name, f"{s['mean']:.1f}", f"{s['median']:g}", f"{s['p10']:g}", f"{s['p90']:g}",
                           str(s["min"]), str(s["max"]))
        console.print(length)

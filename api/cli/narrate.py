"""A human-readable account of a replayed record (rich): every move, what followed, the verdict."""

from __future__ import annotations

import os
import re

from rich.console import Console
from rich.table import Table
from rich.text import Text


SUIT_STYLE = {"C": "bold", "S": "bold", "D": "red", "H": "red"}
SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(card: str) -> Text:
    """A card with its suit symbol and colour (a joker as it is)."""
    if len(card) != 2 or card[1] not in SYMBOL or card == "JK":
        return Text(card, style="bold magenta")
    return Text(rank_text(card[0]) + SYMBOL[card[1]], style=SUIT_STYLE[card[1]])


def rank_text(rank: str) -> str:
    """A rank as a player reads it: `10` for the record's `T`."""
    return "10" if rank == "T" else rank


def cards_text(cards: list[str]) -> Text:
    """Several cards, space separated."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


_CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS]|JK)\b")


def line_text(text: str) -> Text:
    """A line of an account with every card in it coloured."""
    out, at = Text(), 0
    for m in _CARD.finditer(text):
        out.append(text[at:m.start()])
        out.append_text(card_text(m.group(0)))
        at = m.end()
    out.append(text[at:])
    return out


def _plain(value) -> str:
    """A field of a verdict's object in words: lists space separated, objects as `key value` pairs."""
    if isinstance(value, list):
        return " ".join(map(str, value))
    if isinstance(value, dict):
        return " ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def _seat_value(value) -> str:
    """One seat's entry of a per-seat field of a verdict: `none`, a list, or `key: value` pairs."""
    if value in ({}, [], None):
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return _plain(value)


def options_text(options: dict) -> str:
    """A record's options in words, `key value` pairs joined by ` · `: a list's items comma separated, and an empty
    value (no variants, say) as `none` rather than nothing ("variants none", not "variants  ·")."""
    def shown(value) -> str:
        if value is None or value == "" or value == [] or value == {}:
            return "none"
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

    return " · ".join(f"{k} {shown(v)}" for k, v in options.items())


def narrate(path: str, account: dict | None, verdict: dict, console: Console | None = None) -> None:
    """Print the account of one record (from service.offline.records.verify_file)."""
    console = console or Console(highlight=False)
    console.rule(Text(path, style="bold"))
    if account is None:
        console.print(Text(f"invalid record: {verdict['error']}", style="bold red"), soft_wrap=True)
        return
    names = account["players"]
    console.print(" · ".join(x for x in (account["title"], options_text(account["options"]), f"{len(names)} players",
                                         "stacked deck" if account["stacked"] else "") if x))
    for line in account["lines"]:
        prefix = f"{line['move']:4d} " if line["move"] is not None else "     "
        style = "" if line["move"] is not None else "dim"
        text = line["text"].replace("\n", "\n" + " " * len(prefix))  # a multi-line event (a score explained) stays indented
        console.print(Text(prefix).append_text(line_text(text)), style=style)
    if account["illegal"]:
        il = account["illegal"]
        console.print(Text(f"{il['move_index']:4d} {il['text']}  ✗ ILLEGAL {il['rule']}: {il['reason']}",
                           style="bold white on red"), soft_wrap=True)
    final = dict(verdict["final"])
    hands = final.pop("hands", {})
    eliminated = final.get("eliminated") or []
    table = Table(title="final position (referee's view)")
    for col in ("seat", "player", "hand"):
        table.add_column(col)
    for seat, hand in hands.items():
        out = " (eliminated)" if int(seat) in eliminated else ""
        table.add_row(seat, names[int(seat)] + out, cards_text(hand))
    console.print(table)
    for key, value in final.items():
        if value is None or value == [] or value == {}:
            console.print(Text(f"{key.replace('_', ' ')}: none"))
        elif isinstance(value, list) and all(isinstance(c, str) for c in value):
            console.print(Text(f"{key.replace('_', ' ')}: ").append_text(cards_text(value)))
        elif isinstance(value, dict) and value and all(str(k).isdigit() and int(k) < len(names) for k in value):
            per_seat = "; ".join(f"{names[int(k)]}: {_seat_value(v)}" for k, v in value.items())
            console.print(Text(f"{key.replace('_', ' ')}: ").append_text(line_text(per_seat)))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):  # e.g. melds: one per line
            console.print(Text(f"{key.replace('_', ' ')}:"))
            for i, item in enumerate(value):
                fields = " · ".join(f"{k} {_plain(v)}" for k, v in item.items() if v is not None)
                console.print(Text(f"  {i}: ").append_text(line_text(fields)))
        else:
            console.print(Text(f"{key.replace('_', ' ')}: {value}"))
    console.print(Text(outcome_line(verdict, names), style="bold"))


def outcome_line(verdict: dict, names: list[str]) -> str:
    """The verdict's last line in words: "status: finished · result: win · winner: South and North (team NS)";
    a game still in progress says so instead of printing an empty result."""
    parts = [f"status: {verdict['status'].replace('_', ' ')}"]
    result, winner = verdict["result"], verdict["winner"]
    parts.append(f"result: {result.replace('_', ' ')}" if result else "no result yet")
    if winner:
        who = " and ".join(names[s] if 0 <= s < len(names) else f"seat {s}" for s in winner["seats"])
        parts.append(f"winner: {who}" + (f" (team {winner['team']})" if winner["team"] else ""))
    return " · ".join(parts)


UNBOUNDED = 10_000  # the width of a report written to anything but a terminal: its lines as long as they need


def report_console() -> Console:
    """Where a report (a table of `arbiter verify`) is printed: a terminal at its own width; any other output (a pipe,
    a file) as wide as its lines need, unless $COLUMNS says otherwise, so that rich does not fit the table to 80
    columns by cutting its column titles (`chec…`) and wrapping each cell over several lines."""
    console = Console(highlight=False)
    if console.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return console
    return Console(highlight=False, width=UNBOUNDED)


def verify_table(reports: list[dict], only_problems: bool, console: Console | None = None) -> None:
    """Print verification reports (service.verification.driver): rows and chain, deal, engine, catalogue (when a row differs), and
    provenance beside them; with --all only the games with a problem are listed, and the others counted."""
    console = console or report_console()
    table = Table(title="verification")
    table.add_column("game", no_wrap=True, min_width=36)
    for col in ("chain", "checkpoint", "deal", "engine"):
        table.add_column(col)
    with_catalogue = any((r.get("catalogue") or {}).get("ok") is False for r in reports)
    if with_catalogue:
        table.add_column("catalogue")
    table.add_column("provenance")
    shown = 0
    for r in reports:
        if only_problems and r["ok"]:
            continue
        shown += 1
        cells = [r["id"], _chain_text(r["chain"]), _checkpoint_text(r.get("checkpoint")), _deal_text(r["deal"], r.get("evidence")),
                 _engine_text(r.get("engine"))]
        if with_catalogue:
            cells.append(_catalogue_text(r.get("catalogue")))
        table.add_row(*cells, Text("; ".join(r["provenance"]) or "arbiter's own deal", style="cyan"))
    if shown:
        console.print(table)
    imported = sum(1 for r in reports if r["provenance"])
    console.print(f"{len(reports)} game(s) checked, {sum(1 for r in reports if not r['ok'])} with problems"
                  + (f", {imported} set up by their creator (provenance, not a problem)" if imported else ""), soft_wrap=True)


def _chain_text(chain: dict) -> Text:
    if chain["ok"]:
        return Text(f"ok ({chain['length']} events)", style="green")
    at = f" at {chain['broken_at']}" if chain.get("broken_at") is not None else ""
    more = len(chain.get("problems") or []) - 1
    return Text(f"BROKEN{at}: {chain['problem']}" + (f" (+{more} more)" if more > 0 else ""), style="bold red")


def _checkpoint_text(checkpoint: dict | None) -> Text:
    checkpoint = checkpoint or {"ok": None, "status": "not checked"}
    return Text(checkpoint["status"], style={True: "green", False: "bold red"}.get(checkpoint["ok"], "yellow"))


def _deal_text(deal: dict, evidence: dict | None) -> Text:
    if deal.get("fair") is True:
        text = Text("fair", style="green")
    elif deal.get("consistent") is False or (deal.get("fair") is False and deal.get("consistent") is None):
        text = Text(deal.get("status", "inconsistent"), style="bold red")
    else:
        text = Text(deal.get("status", ""), style="yellow")
    if evidence is not None and evidence.get("ok") is False:
        text.append_text(Text(f"; evidence: {evidence.get('status')}", style="bold red"))
    return text


def _engine_text(engine: dict | None) -> Text:
    if engine is None:
        return Text("not replayed (chain broken)", style="red")
    if engine["same"]:
        return Text(f"same under {engine['current_engine']}", style="green")
    return Text("; ".join(engine.get("differences") or [engine.get("status", "differs")]), style="bold red")


def _catalogue_text(catalogue: dict | None) -> Text:
    if not catalogue or catalogue.get("ok") is None:
        return Text((catalogue or {}).get("problem") or "no row yet", style="dim")
    if catalogue["ok"]:
        return Text("matches", style="green")
    return Text(catalogue.get("problem") or catalogue.get("status") or "differs", style="bold red")

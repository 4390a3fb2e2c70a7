"""A human-readable account of a replayed record (rich): every move, what followed, the verdict."""

from __future__ import annotations

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


def narrate(path: str, account: dict | None, verdict: dict, console: Console | None = None) -> None:
    """Print the account of one record (from service.facade.verify_file)."""
    console = console or Console(highlight=False)
    console.rule(Text(path, style="bold"))
    if account is None:
        console.print(Text(f"invalid record: {verdict['error']}", style="bold red"), soft_wrap=True)
        return
    names = account["players"]
    options = " · ".join(f"{k} {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in account["options"].items())
    console.print(" · ".join(x for x in (account["title"], options, f"{len(names)} players",
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


def verify_table(reports: list[dict], only_problems: bool, console: Console | None = None) -> None:
    """Print verification reports: chain, deal, and (for --all) games whose outcome would differ."""
    console = console or Console(highlight=False)
    table = Table(title="verification")
    for col in ("game", "chain", "checkpoint", "deal", "engine"):
        table.add_column(col)
    shown = 0
    bad = 0
    for r in reports:
        chain, deal, engine = r["chain"], r["deal"], r["engine"]
        chain_text = Text(f"ok ({chain['length']} events)", style="green") if chain["ok"] else \
            Text(f"BROKEN at {chain['broken_at']}: {chain['problem']}", style="bold red")
        if deal["fair"] is True:
            deal_text = Text("fair", style="green")
        elif deal["fair"] is False:
            deal_text = Text(deal["status"], style="bold red")
        else:
            deal_text = Text(deal["status"], style="yellow")
        if engine is None:
            engine_text = Text("not replayed (chain broken)", style="red")
        elif engine["same"]:
            engine_text = Text(f"same under {engine['current_engine']}", style="green")
        else:
            engine_text = Text("; ".join(engine["differences"]), style="bold red")
        checkpoint = r.get("checkpoint") or {"ok": None, "status": "not checked"}
        checkpoint_text = Text(checkpoint["status"], style={True: "green", False: "bold red"}.get(checkpoint["ok"], "yellow"))
        problem = not chain["ok"] or deal["fair"] is False or engine is None or not engine["same"] or checkpoint["ok"] is False
        bad += problem
        if only_problems and not problem:
            continue
        shown += 1
        table.add_row(r["id"], chain_text, checkpoint_text, deal_text, engine_text)
    if shown:
        console.print(table)
    console.print(f"{len(reports)} game(s) checked, {bad} with problems")

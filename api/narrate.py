"""A human-readable account of a replayed record (rich): every move, what followed, the verdict."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from domain.cards import format_card, format_cards

SUIT_STYLE = {"C": "bold", "S": "bold", "D": "red", "H": "red"}
SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(card: str) -> Text:
    """A card with its suit symbol and colour."""
    return Text(card[0] + SYMBOL[card[1]], style=SUIT_STYLE[card[1]])


def cards_text(cards: list[str]) -> Text:
    """Several cards, space separated."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def _describe(e: dict, names: list[str]) -> Text:
    kind = e["type"]
    who = names[e["seat"]] if "seat" in e else ""
    t = Text()
    if "cards" in e:
        t.append(f"{who} {kind.replace('_', ' ')} ")
        t.append_text(cards_text(format_cards(e["cards"])))
    elif kind == "drew":
        t.append(f"{who} draws a card", style="dim")
    elif kind == "reshuffled":
        t.append(f"the discard pile is shuffled into a new deck of {len(e['order'])} (reshuffle {e['k']})", style="dim")
    elif kind == "battle_started":
        sub = f" (for seat {e['substitute_for']})" if e.get("substitute_for") is not None else ""
        t.append(f"battle: {names[e['attacker']]} attacks {names[e['defender']]}{sub}", style="cyan")
    elif kind == "said":
        t.append(f"{who} says: {e['text']}", style="italic")
    elif kind == "won":
        t.append(f"{', '.join(names[s] for s in e['seats'])} win ({e['by']})", style="bold green")
    elif kind == "drawn":
        t.append(f"the game is drawn after {e['battles']} battles (ER-4.4)", style="bold yellow")
    elif kind == "dealt":
        t.append(f"{names[e['dealer']]} deals four cards each", style="dim")
    else:
        t.append(f"{who} {kind.replace('_', ' ')}".strip())
    return t


def narrate(path: str, result, verdict: dict, console: Console | None = None) -> None:
    """Print the account of one record."""
    console = console or Console(highlight=False)
    console.rule(Text(path, style="bold"))
    if result is None:
        console.print(Text(f"invalid record: {verdict['error']}", style="bold red"), soft_wrap=True)
        return
    record = result.record
    names = list(record.setup.names)
    console.print(f"{record.game} · {record.setup.edition} · {len(names)} players"
                  + (" · stacked deck" if record.stacked else ""))
    move_no = -1
    for e in result.events:
        if record.decider.move_of(e) is not None:
            move_no += 1
            console.print(Text(f"{move_no:4d} ").append_text(_describe(e, names)))
        else:
            console.print(Text("     ").append_text(_describe(e, names)))
    if verdict["illegal"]:
        il = verdict["illegal"]
        bad = record.moves[il["move_index"]]
        shown = ", ".join(format_card(c) for c in bad.get("cards", []))
        console.print(Text(f"{il['move_index']:4d} {names[bad['seat']]} {bad['type']} {shown}  ✗ ILLEGAL {il['rule']}: {il['reason']}",
                           style="bold white on red"), soft_wrap=True)
    final = verdict["final"]
    table = Table(title="final position (referee's view)")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("hand")
    for seat, hand in final["hands"].items():
        out = " (eliminated)" if int(seat) in final["eliminated"] else ""
        table.add_row(seat, names[int(seat)] + out, cards_text(hand))
    console.print(table)
    console.print(Text("battle pile: ").append_text(cards_text(final["battle_pile"]))
                  .append(f"   deck {final['deck_count']} · discard {final['discard_count']} · battles {final['battles']}"))
    winner = verdict["winner"]
    console.print(Text(f"status: {verdict['status']} · result: {verdict['result']}"
                       + (f" · winner: seats {winner['seats']}" + (f" team {winner['team']}" if winner["team"] else "") if winner else ""),
                       style="bold"))


def verify_table(reports: list[dict], only_problems: bool, console: Console | None = None) -> None:
    """Print verification reports: chain, deal, and (for --all) games whose outcome would differ."""
    console = console or Console(highlight=False)
    table = Table(title="verification")
    for col in ("game", "chain", "deal", "engine"):
        table.add_column(col)
    shown = 0
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
        problem = not chain["ok"] or deal["fair"] is False or engine is None or not engine["same"]
        if only_problems and not problem:
            continue
        shown += 1
        table.add_row(r["id"], chain_text, deal_text, engine_text)
    if shown:
        console.print(table)
    console.print(f"{len(reports)} game(s) checked, {sum(1 for r in reports if not r['chain']['ok'] or r['deal']['fair'] is False or not (r['engine'] or {}).get('same'))} with problems")

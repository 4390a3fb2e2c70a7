"""El Royale's forced pass (the table option `auto_pass`): which passes the service may make for a seat.

ER-3.3 offers a window to every eligible seat whatever it holds, "so that the referee's offers reveal nothing
about hands": a seat without a card of the asked rank must still answer, and its pass looks like anyone's.
Passing for it at once would tell the table that it holds no such card. So the only pass made automatically is
one the table can already see is forced: the seat to act in a join (ER-3.2) or reinforce (ER-3.6) window holds
no card at all (every hand's size is public, ER-7.3). The pass is recorded under ER-3.3 like any pass.
"""

from __future__ import annotations

from .state import JOIN, REINFORCE, State


def forced_pass(state: State) -> dict | None:
    """The pass of the seat to act when the table chose `auto_pass` and that seat's pass is forced in public view;
    None otherwise."""
    if not state.setup.auto_pass or state.outcome is not None or state.to_act is None:
        return None
    if state.phase in (JOIN, REINFORCE) and state.hands[state.to_act] == 0:
        return {"seat": state.to_act, "type": "pass"}
    return None

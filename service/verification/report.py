"""The parts of a stored game's verification report the driver (service.verification.driver) adds after its checks:
provenance, the catalogue row's verdict (service.verification.catalogue_check), the overall verdict.
"""

from __future__ import annotations

import copy
from typing import Any

from domain.games import SPECS
from projections.catalogue import COLUMNS, evolve


def provenance(created: Any) -> list[str]:
    """How a game was set up, where that was not arbiter's own random draw (from its Created event)."""
    out = []
    stacked = getattr(created, "stacked", False) is True
    if stacked:
        out.append("stacked deck: the creator fixed the deck")
    outcomes = getattr(created, "outcomes", None)
    deck_label = SPECS[created.game].deck_label if created.game in SPECS else "deal"
    fixed = sorted(str(label)[:40] for label in outcomes if not (stacked and label == deck_label)) \
        if isinstance(outcomes, dict) else []
    if fixed:
        out.append("fixed shuffles: the record fixed " + ", ".join(fixed[:8]) + (", ..." if len(fixed) > 8 else ""))
    if getattr(created, "seed_given", False) is True:
        out.append("seed chosen by the creator")
    for who in ("dealer", "starter"):
        if getattr(created, who, None) is not None:
            out.append(f"{who} chosen by the creator")
    return out


def catalogue_report(row: dict | None, events: list) -> dict:
    """check_catalogue's verdict on a row (None: none yet) at the version of the last of `events`, the events whose
    fold gives the row (_catalogue_events)."""
    if row is None:
        return {"ok": None, "problem": None}
    expected = None
    for event in events:
        expected = evolve(expected, event, 0)
    wrong = [column for column in COLUMNS if copy.deepcopy(expected.get(column)) != row.get(column)]
    if wrong:
        return {"ok": False, "problem": f"the catalogue row differs from the game's events at version {row['version']} "
                                        f"(column {', '.join(wrong)})"}
    return {"ok": True, "problem": None}


def report_ok(report: dict) -> bool:
    """Whether a report's integrity checks all pass (provenance is no failure)."""
    deal = report.get("deal") or {}
    evidence = report.get("evidence") or {}
    catalogue = report.get("catalogue") or {}
    engine_ok = "engine" not in report or (report["engine"] or {}).get("same") is True
    return report["chain"].get("ok") is True and deal.get("consistent") is not False and evidence.get("ok") is not False \
        and engine_ok and catalogue.get("ok") is not False

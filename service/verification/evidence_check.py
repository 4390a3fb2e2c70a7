"""The game's own evidence check, where its spec declares one (`honesty(events, seed)`: commitments made at the table
checked against the revealed seed)."""

from __future__ import annotations



from .decoded import DecodedGame
from domain.games import decider_for, spec_for


class EvidenceCheck:
    """`start` says whether the check needs the game's Happened events decoded (service.verification.redecision.cut
    decodes them); `report` gives the report from them: None for games without such a check, `ok` None while the
    seed is unrevealed."""

    def __init__(self, decoded: DecodedGame):
        created = decoded.rows[0].event
        self.game, self.decider = created.game, decider_for(created.game)
        self.declared = spec_for(created.game).honesty is not None
        self.revealed = decoded.revealed_seed if self.declared else None

    def start(self) -> bool:
        """Whether `report` needs the decoded events."""
        return self.declared and self.revealed is not None

    def report(self, decoded: list | None = None, decode_error: Exception | None = None) -> dict | None:
        """The report from the game's Happened events decoded in order (`decode_error`: why they could not be)."""
        if not self.declared:
            return None
        if decode_error is not None and self.revealed is not None:
            raise decode_error
        return evidence_report(self.game, decoded if self.revealed is not None else [], self.revealed)


def evidence_report(game: str, decoded: list, revealed: str | None) -> dict | None:
    """The evidence report from the game's Happened events decoded already (`decoded`, in order) and its revealed seed
    (None while the game goes on)."""
    check = spec_for(game).honesty
    if check is None:
        return None
    if revealed is None:
        return {"ok": None, "status": "pending: checked once the game ends and its seed is revealed"}
    report = check(decoded, revealed)
    report["status"] = "every commitment and every strike checks" if report["ok"] else "; ".join(report["problems"])
    return report

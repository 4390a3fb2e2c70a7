"""Small Battle's rules as named predicates (SB-1 .. SB-4), and its honesty check (SB-1.3, SB-3.2)."""

from __future__ import annotations

import hashlib

ACE = 0  # rank index of an Ace in domain.cards


def strike_value(card: int) -> int | None:
    """SB-2.2: the number of a drawn card (3..10); None for an Ace, which only reveals (SB-2.3)."""
    r = card % 13
    return None if r == ACE else r + 1


def removes(card: int, rank: int) -> bool:
    """SB-2.2: a drawn number higher than the named card removes it (equal or lower does not)."""
    value = strike_value(card)
    return value is not None and value > rank


def formation_problem(formation: list[str]) -> str | None:
    """SB-1.3, SB-4.1: exactly the eight ranks 2..9, as rank strings; what is wrong, or None."""
    for r in formation:
        if r not in ("2", "3", "4", "5", "6", "7", "8", "9"):
            return f"rank {r[:8]!r} is not one of 2..9"
    if len(formation) != 8:
        return f"a formation holds eight cards, one each of 2..9 (got {len(formation)})"
    if len(set(formation)) != 8:
        return "a formation holds one each of 2..9: a rank is repeated"
    return None


def salt_label(seat: int, position: int) -> str:
    """The seed stream label of a formation position's salt (contract §4 streams)."""
    return f"salt:{seat}:{position}"


def commit(salt: str, position: int, rank: int) -> str:
    """SB-1.3: the published commitment of one formation position: sha256(salt | position | rank), hex."""
    return hashlib.sha256(f"{salt}|{position}|{rank}".encode("ascii")).hexdigest()


def commitments(chance, seat: int, formation: tuple[int, ...]) -> list[str]:
    """The eight commitments of a seat's formation, salted from the game's seed."""
    return [commit(chance.salt(salt_label(seat, p)), p, rank) for p, rank in enumerate(formation)]

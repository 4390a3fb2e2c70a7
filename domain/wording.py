"""Numbers in English words for the texts people read (the fair-play report's reasons, its CLI and page): "53rd",
"once", "3 times", "1 game". Pure."""

from __future__ import annotations


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st, 53rd, 111th, 112th, 113th, 121st."""
    n = int(n)
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def times(n: int) -> str:
    """How many times something happened: "0 times", "once", "twice", "3 times"."""
    n = int(n)
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """"1 game", "0 games", "2 games" (`plural` for a noun that does not take an s)."""
    n = int(n)
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def one_in(p: float) -> str:
    """A small probability as odds when it is one over a whole number ("1 in 1,000", "1 in 1,000,000"), else to two
    significant figures ("0.0025")."""
    if 0 < p < 1 and abs(1 / p - round(1 / p)) < 1e-6 * (1 / p):
        return f"1 in {round(1 / p):,}"
    return f"{p:.2g}"

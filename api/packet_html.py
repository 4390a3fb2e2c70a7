"""The fair-play review packet as one HTML file (docs/fairplay.md "Review packet"): the template
templates/fairplay_packet.html filled with service.fairplay.packet.build's content, for the CLI (`arbiter fairplay
--packet FILE`) and the director's page alike. Its links are the site's own addresses: absolute against `base_url`
when one is known (the page: the server that answered; the CLI: --base-url), else written out as paths."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from domain.wording import count

_ENV = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
                   autoescape=select_autoescape(default=True), trim_blocks=False)
_ENV.filters["count"] = count  # "1 rollout", "4 rollouts" (domain.wording)


def seat_view_path(tournament_id: str | None, decision: dict) -> str | None:
    """The director's page of the position as the seat saw it (api.pages.desk.fairplay_seat_view), or None outside
    a tournament."""
    if tournament_id is None or decision.get("game_id") is None or decision.get("position_version") is None:
        return None
    return (f"/tournaments/{tournament_id}/fairplay/seat-view/{decision['game_id']}/{decision['seat']}/"
            f"{decision['position_version']}")


def render(packet: dict, base_url: str | None = None) -> str:
    """The packet's HTML (inline CSS, no script)."""
    base = base_url.rstrip("/") if base_url else None
    return _ENV.get_template("fairplay_packet.html").render(
        p=packet, link=lambda path: None if base is None or path is None else base + path,
        seat_view_path=lambda d: seat_view_path(packet.get("tournament_id"), d))


__all__ = ["render", "seat_view_path"]

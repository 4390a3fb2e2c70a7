"""QR codes of links, drawn on the server as inline SVG (segno): a phone at the table scans its seat's link off
the referee's screen; nothing is fetched from elsewhere."""

from __future__ import annotations

import io

import segno
from markupsafe import Markup


def qr_svg(text: str, title: str) -> Markup:
    """The QR code of `text` as an inline <svg> (scales with its box; `title` is its accessible name)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", xmldecl=False, svgns=True, scale=4, border=2, omitsize=True,
                                      title=title, svgclass="qr", lineclass=None)
    return Markup(out.getvalue().decode("utf-8"))

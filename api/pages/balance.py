"""A balance report (service.offline.balance) as one self-contained HTML page: tables and matplotlib plots as base64 PNGs.

matplotlib is the optional extra `report` (`pip install 'arbiter[report]'`); `MissingPlots` says so
when it is absent.
"""

from __future__ import annotations

import base64
import io
from datetime import datetime, timezone

from jinja2 import Environment, PackageLoader, select_autoescape

from service.offline.balance import table_label


class MissingPlots(RuntimeError):
    """matplotlib is not installed: the HTML report needs the `report` extra."""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise MissingPlots("the HTML report draws its plots with matplotlib: pip install 'arbiter[report]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    fig.clf()
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _rates(ax, labels: list[str], rates: list[dict], title: str, fair: float | None = None) -> None:
    values = [r["rate"] for r in rates]
    errors = [[max(0.0, r["rate"] - r["low"]) for r in rates], [max(0.0, r["high"] - r["rate"]) for r in rates]]
    ax.bar(labels, values, yerr=errors, capsize=4, color="#4c72b0")
    if fair is not None:
        ax.axhline(fair, color="#c44e52", linestyle="--", linewidth=1, label=f"1/{round(1 / fair)}")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.set_ylabel("share of games")


def plots(rep: dict) -> str:
    """One PNG (base64) of a table: win rate by position and by bot, endings, and the length histogram."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 4, figsize=(15, 3.2))
    n = rep["players"]
    _rates(axes[0], [str(k) for k in range(n)], rep["win_by_position"], "win rate by position after the first player",
           1 / n)
    bots = rep["win_by_bot"]
    _rates(axes[1], list(bots), list(bots.values()), "win rate by bot (per seat)")
    ends = rep["endings"]
    _rates(axes[2], list(ends), list(ends.values()), "how games ended")
    values = rep["length"]["values"] if rep["length"] else []
    axes[3].hist(values, bins=min(30, max(5, len(set(values)))), color="#55a868")
    axes[3].set_title(f"length of finished games ({rep['unit']})", fontsize=10)
    axes[3].set_xlabel(rep["unit"])
    out = _png(fig)
    plt.close(fig)
    return out


def render(reports: list[dict], command: str | None = None) -> str:
    """The whole page (str): one section per table, each with its tables and plots."""
    env = Environment(loader=PackageLoader("api", "templates"), autoescape=select_autoescape(["html"]))
    sections = [{"label": table_label(rep), "rep": rep, "png": plots(rep)} for rep in reports]
    made = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return env.get_template("balance_report.html").render(sections=sections, command=command, made=made)

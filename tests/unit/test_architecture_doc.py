"""docs/architecture.md names every package of service/ and api/, so the map of the house cannot silently fall behind
the house (issue 34: the doc once left out service/analysis, studies, fairplay and witness)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PACKAGES = sorted(str(init.parent.relative_to(ROOT)) for top in ("service", "api") for init in (ROOT / top).rglob("__init__.py"))
ROADS = ("## A move's road", "## A tournament round's road", "## An analysis job's road", "## Adding a game (the recipe)")


def test_the_packages_are_found():
    assert {"service", "service/store", "service/play", "api", "api/http"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_of_service_and_api_is_named_in_the_architecture(package):
    assert f"`{package}/`" in DOC, f"docs/architecture.md does not name {package}/"


@pytest.mark.parametrize("road", ROADS)
def test_the_architecture_tells_each_road(road):
    assert road in DOC

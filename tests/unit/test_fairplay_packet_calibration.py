"""The review packet's calibration paragraph (service/fairplay/packet.py): the method, and what was measured over
simulated honest players for each game of the packet (its spec's `calibrated`), or that it was not."""

from __future__ import annotations

from domain.games import spec_for

SPEC = spec_for("small-battle")


def test_the_packet_s_calibration_says_what_was_measured_for_each_of_its_games_and_what_was_not(monkeypatch):
    from dataclasses import replace

    from service.fairplay import packet, stages

    said = packet.calibration(["batallion", "batallion"])
    assert said.startswith(packet.CALIBRATION) and said.count("Batallion: ") == 1
    assert spec_for("batallion").analysis.calibrated in said
    bare = replace(SPEC, analysis=replace(SPEC.analysis, calibrated=""))
    monkeypatch.setattr(stages, "spec_for", lambda game: bare)
    assert "Small Battle: the rate of false referrals over simulated honest players is not measured yet." in \
        packet.calibration(["small-battle"])

"""The tests' one road to sample records (tests/conftest.py): arbiter's own always, ../shared's only where it is beside
the checkout, so a stranger's clone runs the same tests on arbiter's own records."""

from __future__ import annotations

import tests.conftest as conftest


def test_without_shared_beside_the_checkout_the_samples_are_arbiter_s_own(monkeypatch, tmp_path):
    monkeypatch.setattr(conftest, "SHARED", tmp_path / "absent")
    own = conftest.sample_records()
    assert own and all(conftest.RECORDS in p.parents and not p.name.endswith(".expected.json") for p in own)
    assert conftest.sample_records(shared_too=True) == own
    [param] = conftest.shared_records_params("el-royale")
    assert param.values == (None,) and "needs ../shared/records/el-royale" in param.marks[0].kwargs["reason"]


def test_with_shared_beside_the_checkout_its_records_follow_arbiter_s_own(monkeypatch, tmp_path):
    folder = tmp_path / "records" / "el-royale"
    folder.mkdir(parents=True)
    for name in ("b.json", "a.json", "a.expected.json"):
        (folder / name).write_text("{}")
    (tmp_path / "records" / "batallion").mkdir()
    (tmp_path / "records" / "batallion" / "c.json").write_text("{}")
    monkeypatch.setattr(conftest, "SHARED", tmp_path)
    own = conftest.sample_records("el-royale")
    assert conftest.sample_records("el-royale", shared_too=True) == own + [folder / "a.json", folder / "b.json"]
    assert conftest.sample_records(shared_too=True)[-3:] == [tmp_path / "records" / "batallion" / "c.json",
                                                            folder / "a.json", folder / "b.json"]
    assert [p.values[0] for p in conftest.shared_records_params("el-royale")] == [folder / "a.json", folder / "b.json"]

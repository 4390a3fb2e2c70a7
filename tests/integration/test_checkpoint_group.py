"""Checkpoints appended by many threads at once share fsyncs (group commit) and still make one valid, gap-free,
hash-chained log with every caller's own line."""

from __future__ import annotations

import threading
import time
import uuid

from service.evidence import keys, log_storage
from service.evidence.checkpoints import CheckpointLog, FileStorage


def test_concurrent_appends_share_fsyncs_and_keep_the_chain(tmp_path, monkeypatch):
    key = keys.ServerKey.generate()
    log = CheckpointLog(FileStorage(tmp_path / "log.jsonl"), lambda: key, lambda: key)
    syncs = []
    real_fsync = log_storage.os.fsync

    def slow_fsync(fd):  # a disk that takes a while to sync, so that appends arrive during one
        syncs.append(fd)
        time.sleep(0.01)
        real_fsync(fd)

    monkeypatch.setattr(log_storage.os, "fsync", slow_fsync)
    games = [str(uuid.uuid4()) for _ in range(12)]
    answers: dict[str, list] = {g: [] for g in games}

    def writer(game: str) -> None:
        for version in range(1, 11):
            answers[game].append(log.append(game, version, f"{version:064x}", "every"))

    threads = [threading.Thread(target=writer, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    report = log.report()
    assert report.ok and report.lines == 120
    assert len(syncs) < 120, "every append had its own fsync"
    seqs = sorted(a["seq"] for game in games for a in answers[game])
    assert seqs == list(range(1, 121))  # each caller got its own line, none twice
    for game in games:
        assert report.latest[game]["version"] == 10


def test_an_append_that_cannot_be_written_fails_for_its_caller(tmp_path):
    key = keys.ServerKey.generate()
    (tmp_path / "dir").mkdir()
    log = CheckpointLog(FileStorage(tmp_path / "dir"), lambda: key, lambda: key)  # a directory: cannot be opened
    try:
        log.append(str(uuid.uuid4()), 1, "0" * 64, "every")
    except OSError:
        pass
    else:
        raise AssertionError("the append said it was written")

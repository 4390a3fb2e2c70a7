"""The `arbiter` command line (contract §2 "Verifying a record"): `replay` verdicts and exit codes, `export`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli.main import main
from domain.records import parse, replay
from tests.support import record

RECORDS = Path(__file__).resolve().parent.parent / "records" / "el-royale"
SAMPLES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
EXIT = {"finished": 0, "in_progress": 0, "illegal": 1, "invalid": 2}


def path_of(name: str) -> str:
    """The path of a sample record."""
    return str(RECORDS / f"{name}.json")


def expected_status(path: str) -> str:
    """The expected status of a record file: a sample's from its verdict file, any other (an export) finished."""
    verdict = Path(path[: -len(".json")] + ".expected.json")
    return json.loads(verdict.read_text())["status"] if verdict.exists() else "finished"


def expected(name: str) -> dict:
    """The expected verdict of a sample record."""
    return json.loads((RECORDS / f"{name}.expected.json").read_text())


def normal(v: dict) -> dict:
    """A verdict with each hand as a sorted list and the free-text `reason` dropped, for comparison."""
    v = json.loads(json.dumps(v))
    if v.get("final"):
        v["final"]["hands"] = {seat: sorted(hand) for seat, hand in v["final"]["hands"].items()}
    if v.get("illegal"):
        v["illegal"].pop("reason", None)
    return v


def run(*args: str):
    """Invoke `arbiter ARGS` in process; the CLI must never end in an uncaught exception."""
    result = CliRunner().invoke(main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"uncaught {type(result.exception).__name__}: {result.exception}") from result.exception
    return result


def json_lines(text: str) -> list[dict]:
    """The JSON Lines of an output, checked to be one JSON object per line."""
    lines = text.splitlines()
    return [json.loads(line) for line in lines]


def write(tmp_path: Path, name: str, content) -> str:
    """Write a file (a str as is, anything else as JSON) and return its path."""
    p = tmp_path / name
    p.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(p)


# ---------------------------------------------------------------- replay --json, one record


@pytest.mark.parametrize("name", SAMPLES)
def test_replay_json_prints_one_line_equal_to_the_expected_verdict(name):
    """`replay --json` of a sample prints exactly one JSON line equal to its .expected.json verdict."""
    result = run("replay", "--json", path_of(name))
    assert result.stdout.endswith("\n")
    [got] = json_lines(result.stdout)
    assert normal(got) == normal(expected(name))


@pytest.mark.parametrize("name", SAMPLES)
def test_replay_exit_code_is_0_when_legal_and_1_when_a_move_is_illegal(name):
    """The exit code follows the verdict: 0 finished or in progress, 1 illegal."""
    result = run("replay", "--json", path_of(name))
    assert result.exit_code == EXIT[expected(name)["status"]]


def test_samples_cover_every_exit_status():
    """The sample set holds finished, in-progress and illegal records (so the tests above test all codes)."""
    assert {expected(n)["status"] for n in SAMPLES} == {"finished", "in_progress", "illegal"}


# ---------------------------------------------------------------- replay --json, several records


def test_replay_of_several_records_prints_json_lines_in_order_and_exits_with_the_highest_code(tmp_path):
    """One verdict per file, in argument order; an invalid file's line is {status: invalid, error}; exit is the max."""
    bad = write(tmp_path, "bad.json", {"format": "arbiter.record/1", "game": "chess"})
    names = ["example1-00-classic", "example2-04-classic", None, "example8-08-classic"]
    paths = [bad if n is None else path_of(n) for n in names]
    result = run("replay", "--json", *paths)
    lines = json_lines(result.stdout)
    assert len(lines) == 4
    for name, line in zip(names, lines):
        if name is None:
            assert set(line) == {"status", "error"}
            assert line["status"] == "invalid" and "game" in line["error"]
        else:
            assert normal(line) == normal(expected(name))
    assert result.exit_code == 2


@pytest.mark.parametrize("names, code", [
    (["example1-00-classic", "example8-08-classic"], 0),
    (["example1-00-classic", "example2-04-classic", "example8-10-revised"], 1),
    (["example2-05-revised", "example1-01-revised"], 1),
])
def test_replay_of_several_legal_or_illegal_records_exits_with_the_highest_code(names, code):
    """0 when every record is legal; 1 when any has an illegal move (wherever it is in the list)."""
    result = run("replay", "--json", *map(path_of, names))
    assert [line["status"] for line in json_lines(result.stdout)] == [expected(n)["status"] for n in names]
    assert result.exit_code == code


def test_invalid_record_first_does_not_stop_the_later_ones(tmp_path):
    """An invalid file first still lets the following files be verified (one process, in order)."""
    bad = write(tmp_path, "bad.json", "not json")
    result = run("replay", "--json", bad, path_of("example1-00-classic"))
    first, second = json_lines(result.stdout)
    assert first["status"] == "invalid"
    assert second["status"] == "finished"
    assert result.exit_code == 2


def test_same_record_twice_gives_the_same_verdict_twice():
    """Verifying is deterministic within one process: a file given twice yields two equal lines."""
    p = path_of("random-00-2p-classic")
    a, b = json_lines(run("replay", "--json", p, p).stdout)
    assert a == b


# ---------------------------------------------------------------- replay: files that are not valid records


def _invalid_inputs(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Paths of bad inputs, with a word their error must contain."""
    malformed = record([["7C", "8C", "9C", "TC"], ["7D", "8D", "9D", "TD"]], [(0, "attack", ["7C"])])
    malformed["moves"][0]["seat"] = 5
    return {
        "not json": (write(tmp_path, "garbage.json", "{this is not json"), "JSON"),
        "empty file": (write(tmp_path, "empty.json", ""), "JSON"),
        "missing file": (str(tmp_path / "no-such-record.json"), "no-such-record.json"),
        "malformed record": (write(tmp_path, "malformed.json", malformed), "moves[0].seat"),
        "json but not an object": (write(tmp_path, "list.json", [1, 2, 3]), "object"),
    }


@pytest.mark.parametrize("case", ["not json", "empty file", "missing file", "malformed record", "json but not an object"])
def test_invalid_input_with_json_exits_2_with_one_clear_line(tmp_path, case):
    """A file that is not a valid record: exit 2, one line {status: invalid, error}, no traceback."""
    path, word = _invalid_inputs(tmp_path)[case]
    result = run("replay", "--json", path)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    [line] = json_lines(result.stdout)
    assert line["status"] == "invalid"
    assert word in line["error"]
    assert "\n" not in line["error"]


@pytest.mark.parametrize("case", ["not json", "missing file", "malformed record"])
def test_invalid_input_without_json_exits_2_and_says_why(tmp_path, case):
    """Without --json an invalid file is reported in words, exit 2, no traceback."""
    path, word = _invalid_inputs(tmp_path)[case]
    result = run("replay", path)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "invalid record" in result.output
    assert word in result.output


def test_non_utf8_bytes_are_an_invalid_record(tmp_path):
    """A file of bytes that are not text is reported as invalid (exit 2), not a crash."""
    p = tmp_path / "binary.json"
    p.write_bytes(b"\xff\xfe\x00garbage\x81")
    result = run("replay", "--json", str(p))
    assert result.exit_code == 2
    assert json_lines(result.stdout)[0]["status"] == "invalid"


def test_deeply_nested_json_is_an_invalid_record(tmp_path):
    """A document nested too deeply to read is reported as invalid (exit 2), not a crash."""
    path = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    result = run("replay", "--json", path)
    assert result.exit_code == 2


def test_move_type_that_is_a_list_is_an_invalid_record(tmp_path):
    """A move whose type is a JSON array is an invalid record: exit 2 with one line."""
    doc = record([["7C", "8C", "9C", "TC"], ["7D", "8D", "9D", "TD"]], [{"seat": 0, "type": ["attack"]}])
    result = run("replay", "--json", write(tmp_path, "listtype.json", doc))
    assert result.exit_code == 2
    assert json_lines(result.stdout)[0]["status"] == "invalid"


def test_integer_deal_outcome_is_an_invalid_record(tmp_path):
    """outcomes.deal that is an integer (not the shuffled pack) is an invalid record: exit 2."""
    doc = record([["7C", "8C", "9C", "TC"], ["7D", "8D", "9D", "TD"]], [(0, "attack", ["7C"])])
    doc["outcomes"] = {"deal": 3}
    del doc["deck"]
    result = run("replay", "--json", write(tmp_path, "intdeal.json", doc))
    assert result.exit_code == 2


def test_replay_needs_at_least_one_file():
    """`arbiter replay` with no file is a usage error (exit 2)."""
    result = CliRunner().invoke(main, ["replay", "--json"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- replay without --json: the account


def test_account_of_an_illegal_record_names_the_clause_and_says_illegal():
    """Without --json the human-readable account shows the illegal move with its clause id and ILLEGAL; exit 1."""
    result = run("replay", path_of("example2-04-classic"))
    assert result.exit_code == 1
    assert "ILLEGAL" in result.stdout
    assert "ER-3.4" in result.stdout
    assert "status: illegal" in result.stdout
    assert not result.stdout.lstrip().startswith("{")


def test_account_of_a_finished_record_shows_the_winner_and_exits_0():
    """The account of a won game lists the moves, the final position and the result."""
    result = run("replay", path_of("example1-00-classic"))
    assert result.exit_code == 0
    out = result.stdout
    assert "status: finished" in out and "result: win" in out
    assert "ILLEGAL" not in out
    assert "stacked deck" in out
    assert "final position" in out


def test_account_of_a_record_with_table_talk_shows_what_was_said():
    """say moves appear in the account with their text."""
    doc = json.loads(Path(path_of("random-00-2p-classic")).read_text())
    said = next(m["text"] for m in doc["moves"] if m["type"] == "say")
    assert said in run("replay", path_of("random-00-2p-classic")).stdout


def test_account_of_several_records_reports_each_and_exits_with_the_highest_code(tmp_path):
    """Several files without --json: an account for each, exit code the highest."""
    bad = write(tmp_path, "bad.json", [])
    result = run("replay", path_of("example1-00-classic"), path_of("example8-09-classic"), bad)
    assert result.exit_code == 2
    assert "example1-00-classic.json" in result.stdout and "example8-09-classic.json" in result.stdout
    assert "ILLEGAL" in result.stdout and "invalid record" in result.stdout


# ---------------------------------------------------------------- export


def _export(path: str, *extra: str):
    result = run("export", path, *extra)
    assert result.exit_code == EXIT[expected_status(path)], result.output
    assert "Traceback" not in result.output
    return result


def _verdict_of_document(doc: dict) -> dict:
    return replay(parse(doc)).verdict()


EXPORTED = ["example1-00-classic", "example3-07-classic", "example8-10-revised", "example2-04-classic",
            "example2-05-revised", "random-00-2p-classic", "random-02-6p-classic-teams", "random-04-5p-revised",
            "random-07-2p-classic"]


@pytest.mark.parametrize("name", EXPORTED)
def test_export_writes_a_record_that_replays_to_the_same_final_position(name):
    """export's record replays (parse + replay) to the original verdict's `final`, result and winner."""
    original = _verdict_of_document(json.loads(Path(path_of(name)).read_text()))
    exported_doc = json.loads(_export(path_of(name)).stdout)
    again = _verdict_of_document(exported_doc)
    assert normal(again)["final"] == normal(original)["final"]
    assert again["result"] == original["result"]
    assert again["winner"] == original["winner"]
    assert again["illegal"] is None
    if original["status"] == "illegal":
        assert again["status"] == ("finished" if original["result"] else "in_progress")
        assert again["moves_applied"] == original["illegal"]["move_index"]
    else:
        assert again["status"] == original["status"]
        assert again["moves_applied"] == original["moves_applied"]


def test_export_of_a_legal_record_keeps_status_and_every_move():
    """A legal record exports with the same status and the same moves, in canonical notation."""
    src = json.loads(Path(path_of("random-01-3p-classic")).read_text())
    doc = json.loads(_export(path_of("random-01-3p-classic")).stdout)
    assert doc["format"] == "arbiter.record/1" and doc["game"] == "el-royale"
    assert doc["seed"] == src["seed"] and doc["deck"] == src["deck"]
    assert _verdict_of_document(doc)["status"] == expected("random-01-3p-classic")["status"]
    assert [m["type"] for m in doc["moves"]] == [m["type"] for m in src["moves"]]


def test_export_stops_before_the_illegal_move_and_says_so():
    """Exporting a record with an illegal move keeps the moves before it and reports the clause on stderr."""
    src = json.loads(Path(path_of("example2-04-classic")).read_text())
    result = _export(path_of("example2-04-classic"))
    doc = json.loads(result.stdout)
    assert doc["moves"] == src["moves"][:4]
    assert "move 4 is illegal" in result.stderr and "ER-3.4" in result.stderr


def test_export_of_a_seeded_random_record_keeps_seed_and_starter():
    """A record without a deck exports with its seed, so the same deal comes from the seed."""
    src = json.loads(Path(path_of("random-00-2p-classic")).read_text())
    doc = json.loads(_export(path_of("random-00-2p-classic")).stdout)
    assert "deck" not in doc
    assert doc["seed"] == src["seed"] and doc["starter"] == src["starter"]


def test_exported_record_exports_to_itself(tmp_path):
    """Export is idempotent: exporting an exported record gives the same document."""
    first = json.loads(_export(path_of("random-04-5p-revised")).stdout)
    second = json.loads(_export(write(tmp_path, "again.json", first)).stdout)
    assert second == first


def test_export_to_a_file_with_output_option(tmp_path):
    """`export -o FILE` writes the record to FILE instead of stdout."""
    out = tmp_path / "out.json"
    result = _export(path_of("example1-01-revised"), "-o", str(out))
    assert result.stdout == ""
    doc = json.loads(out.read_text())
    assert _verdict_of_document(doc)["status"] == "finished"


def test_export_of_an_invalid_record_fails_with_a_message_and_no_traceback(tmp_path):
    """An invalid record cannot be exported: non-zero exit, a message naming the problem, no traceback."""
    path = write(tmp_path, "bad.json", {"format": "arbiter.record/1", "game": "el-royale", "players": [{"name": "x"}]})
    result = run("export", path)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert "invalid record" in result.output and "players" in result.output


def test_export_of_a_record_with_a_wrong_deal_outcome_fails_cleanly(tmp_path):
    """A record whose outcomes.deal is not the pack is invalid: export fails with a message, no traceback."""
    doc = record([["7C", "8C", "9C", "TC"], ["7D", "8D", "9D", "TD"]], [(0, "attack", ["7C"])])
    doc["outcomes"] = {"deal": doc.pop("deck")[:51]}
    result = run("export", write(tmp_path, "baddeal.json", doc))
    assert result.exit_code != 0
    assert "invalid record" in result.output


def test_export_of_a_record_with_an_illegal_move_exits_1_as_replay_does():
    """export writes the game up to the illegal move and exits 1 (contract §2 codes), like replay of that record."""
    result = run("export", path_of("example2-04-classic"))
    assert result.exit_code == 1 == run("replay", "--json", path_of("example2-04-classic")).exit_code
    assert json.loads(result.stdout)["moves"]
    assert "move 4 is illegal" in result.stderr


# ---------------------------------------------------------------- what a player reads


def test_the_account_shows_a_ten_as_10_with_its_suit_symbol_never_the_record_code_t():
    """Human output reads like cards: 10♣, K♠; the record's `T` and bare letters stay in the JSON only."""
    out = run("replay", path_of("random-02-6p-classic-teams")).stdout
    assert "10♣" in out or "10♦" in out or "10♥" in out or "10♠" in out
    assert not re.search(r"\bT[♣♦♥♠CDHS]", out), re.findall(r".*\bT[♣♦♥♠CDHS].*", out)
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b", out), re.findall(r".*\b[A2-9TJQK][CDHS]\b.*", out)


def test_the_account_of_a_won_game_names_the_winner_and_never_repeats_the_result_code():
    """A win reads "P2 wins" in the account and "winner: P2" at the end, not "P2 win (win)" or "seats [2]"."""
    out = run("replay", path_of("example1-00-classic")).stdout
    assert "P2 wins" in out and "winner: P2" in out
    assert "(win)" not in out and "seats [" not in out


def test_the_account_of_an_unfinished_game_says_there_is_no_result_yet_not_none():
    """A game whose moves ran out says "no result yet"; no Python None reaches the reader."""
    out = run("replay", path_of("random-00-2p-classic")).stdout
    assert "status: in progress · no result yet" in out
    assert "None" not in out


def test_the_account_of_a_batallion_game_without_variants_says_variants_none_not_an_empty_field(tmp_path):
    """A record whose `variants` is an empty list opens with "variants none", never "variants  ·"."""
    from domain.autoplay import game_rng, random_game

    doc = random_game("batallion", {"variants": []}, [{"name": f"P{i}"} for i in range(3)], "0b0b", game_rng(23, 3),
                      max_moves=6)
    assert doc["options"] == {"variants": []}
    result = run("replay", write(tmp_path, "batallion-3p.json", doc))
    assert result.exit_code == 0, result.output
    assert "Batallion · variants none · 3 players" in result.stdout
    assert "variants  " not in result.stdout


def test_the_account_lists_a_records_options_with_lists_comma_separated_and_empty_values_as_none():
    from api.cli.narrate import options_text

    assert options_text({"variants": ["blind", "guts"]}) == "variants blind, guts"
    assert options_text({"variants": [], "edition": "classic", "house": None, "note": ""}) == \
        "variants none · edition classic · house none · note none"
    assert options_text({"battle_limit": 3, "auto_pass": True}) == "battle_limit 3 · auto_pass True"


def test_replay_of_a_directory_glob_skips_the_expected_verdict_files_beside_the_records():
    """`arbiter replay tests/records/el-royale/*.json --json` (the README's command) verifies each record once and
    skips the *.expected.json verdicts, saying so on stderr; its exit code is that of the records (1: some are illegal)."""
    files = sorted(str(p) for p in RECORDS.glob("*.json"))
    result = run("replay", *files, "--json")
    verdicts = json_lines(result.stdout)
    assert len(verdicts) == len(SAMPLES)
    assert all(v["status"] != "invalid" for v in verdicts)
    assert result.exit_code == 1
    assert result.stderr.count("skipped") == len(SAMPLES)


def test_replay_given_only_expected_verdict_files_is_a_usage_error():
    """Nothing but verdict files: exit 2 with a message, no traceback."""
    result = run("replay", str(RECORDS / "example1-00-classic.expected.json"))
    assert result.exit_code == 2 and "no record to replay" in result.output

"""Unit tests of the generation module's parts: input, parsing, validation, rules, checkpoint, card, human check."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError, DataError
from clsd_format.languages import parse_language
from clsd_format.text_measures import jaccard
from clsd_generation.checks.candidates import check_candidates, normalise
from clsd_generation.checks.parsing import parse_answer
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.lock import PID_FILE, run_folder_lock
from clsd_generation.core.settings import ValidationBounds
from clsd_generation.dataset.human_check import CRITERIA, export_sample, import_sample
from clsd_generation.dataset.human_check_settings import FilledSheet, SampleSettings
from clsd_generation.llm.client import retry_after_seconds
from clsd_generation.llm.prompts import PAPER_PROMPT, PromptSettings, load_prompt_settings
from clsd_generation.rules import ALL_RULES, RuleGenerator, rules_for
from clsd_generation.run.backends import RuleBackend
from clsd_generation.run.loop import RunOptions, generate_distractors

DE, FR = parse_language("de"), parse_language("fr")


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --- import discipline ------------------------------------------------------------------------
def test_generation_never_imports_mteb_or_torch() -> None:
    code = (
        "import sys, clsd_cli.generate, clsd_generation.run.backends, clsd_generation.run.loop, clsd_generation.dataset.builder, clsd_generation.dataset.hub_push, "
        "clsd_generation.dataset.human_check, clsd_generation.dataset.pivot, clsd_generation.llm.batch\n"
        "bad = [m for m in ('mteb', 'torch', 'transformers', 'clsd_mteb') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# --- input ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "text", "message", "row", "column"),
    [
        ("empty.csv", "de,fr\nHallo Welt,Bonjour monde\n ,Salut\n", "empty sentence", 2, "de"),
        ("dup.csv", "de,fr\nHallo Welt,Bonjour monde\nHallo Welt,Bonjour monde\n", "duplicate pair", 2, None),
        ("mismatch.csv", "de,fr\nHallo Welt,Bonjour monde\nnur eins\n", "mismatched row", 2, None),
        ("missing.jsonl", '{"de": "Hallo", "fr": "Salut"}\n{"de": "Nur Deutsch"}\n', "missing value", 2, "fr"),
        ("bad.tsv", "de\tfr\nHallo\tSalut\nHallo\t\n", "empty sentence", 2, "fr"),
    ],
)
def test_bad_input_is_refused_with_file_row_and_column(
    tmp_path: Path, name: str, text: str, message: str, row: int, column: str | None
) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(DataError) as caught:
        read_parallel(path, ("de", "fr"))
    assert message in str(caught.value)
    assert caught.value.file == str(path)
    assert str(caught.value.row).startswith(str(row))
    assert caught.value.column == column


@pytest.mark.parametrize(
    ("name", "payload", "message", "row", "column"),
    [
        (
            "bad.tsv",
            "de\tfr\nHallo\tSalut\nHallo\tS\xffut\n".encode("latin-1"),
            "undecodable byte 0xff (not UTF-8) on line 3",
            2,
            "fr",
        ),
        ("twice.csv", b"de,fr,de\nHallo,Salut,Hallo\n", "repeated column name(s) ['de']", 0, None),
        ("quote.csv", b'de,fr\nHallo,Salut\n"Hallo,Salut\n', "does not parse as CSV", 2, None),
        ("empty.csv", b"", "empty file (no header row)", None, None),
    ],
)
def test_unreadable_csv_and_tsv_files_are_located(
    tmp_path: Path, name: str, payload: bytes, message: str, row: int | None, column: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(payload)
    with pytest.raises(DataError) as caught:
        read_parallel(path, ("de", "fr"))
    assert message in str(caught.value)
    assert (caught.value.file, caught.value.row, caught.value.column) == (str(path), row, column)


def test_unknown_column_and_unknown_file_type(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such column") as caught:
        read_parallel(write(tmp_path / "a.csv", "German,French\nA,B\n"), ("de", "fr"))
    assert caught.value.column == "de"
    with pytest.raises(DataError, match="unknown file type"):
        read_parallel(write(tmp_path / "a.txt", "x"), ("de", "fr"))


def test_every_input_format_reads_the_same_pairs(tmp_path: Path) -> None:
    import datasets

    rows = [{"id": f"s{i}", "de": f"Satz Nummer {i} ist hier", "fr": f"Phrase numéro {i} est ici"} for i in range(3)]
    rows.append({"id": "na", "de": "NA", "fr": "None"})  # strings, never missing values
    with (tmp_path / "p.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, ["id", "de", "fr"])
        writer.writeheader()
        writer.writerows(rows)
    write(tmp_path / "p.jsonl", "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    dataset = datasets.Dataset.from_list(rows)
    dataset.to_parquet(str(tmp_path / "p.parquet"))
    dataset.save_to_disk(str(tmp_path / "saved"))
    expected = [(r["id"], (r["de"], r["fr"])) for r in rows]
    for source in ("p.csv", "p.jsonl", "p.parquet", "saved"):
        corpus = read_parallel(tmp_path / source, ("de", "fr"), id_column="id")
        assert [(p.pair_id, p.texts) for p in corpus.pairs] == expected, source
    assert read_parallel(tmp_path / "p.csv", ("de", "fr")).pairs[0].pair_id == "row1"


def test_languages() -> None:
    from clsd_format.languages import GERMAN, code_from_mteb

    assert parse_language("de") is GERMAN  # one table for the generator, the plugin and the analyses
    assert (GERMAN.release_column, GERMAN.distractor_columns()[0], GERMAN.nllb_code) == ("German", "de_adv1", "deu_Latn")
    assert (code_from_mteb("fra-Latn"), code_from_mteb("hun-Latn")) == ("fr", "hu")  # any language a library knows
    assert parse_language("de").mteb_code == "deu-Latn"
    assert parse_language("gsw:Swiss German:gsw-Latn").name == "Swiss German"
    with pytest.raises(CLSDError, match="unknown language 'xx'"):
        parse_language("xx")


# --- prompts and parsing ----------------------------------------------------------------------
def test_paper_prompt_is_rendered_with_language_name_and_sentence() -> None:
    text = PromptSettings().render("de", "German", "Ein {Satz}.")
    assert text.endswith("Answer in German!\nEin {Satz}.")
    assert text.startswith("Can you provide me with four tricky sentences (numbered)")


def test_prompt_file_overrides_per_language(tmp_path: Path) -> None:
    path = write(tmp_path / "p.yaml", "de: |-\n  Vier Sätze bitte:\n  {sentence}\n")
    settings = load_prompt_settings(path, temperature=0.5, top_p=0.9)
    assert settings.render("de", "German", "X") == "Vier Sätze bitte:\nX"
    assert settings.template_for("fr") == PAPER_PROMPT
    with pytest.raises(CLSDError, match="never includes"):
        load_prompt_settings(write(tmp_path / "bad.yaml", "default: no sentence here {language}\n"), temperature=1, top_p=1)


def test_parser_handles_chatter_quotes_bullets_and_translations() -> None:
    answer = (
        "Sure! Here are four tricky sentences:\n\n"
        '1. "Der Hund beißt den Mann." (The dog bites the man.)\n'
        "2) **Die Katze beißt den Mann.**\n"
        "3. „Der Hund sieht den Mann.“ [English: The dog sees the man.]\n"
        "- Der Mann (ein Lehrer) beißt.\n\nI hope this helps!"
    )
    assert parse_answer(answer) == [
        "Der Hund beißt den Mann.",
        "Die Katze beißt den Mann.",
        "Der Hund sieht den Mann.",
        "Der Mann (ein Lehrer) beißt.",
    ]
    assert parse_answer("1. Le chat dort. 2. Le chien dort. 3. Le loup dort.") == [
        "Le chat dort.",
        "Le chien dort.",
        "Le loup dort.",
    ]
    assert parse_answer("1. Am 3. Oktober kam er.\n2. Am 4. Mai ging sie.") == ["Am 3. Oktober kam er.", "Am 4. Mai ging sie."]


# --- validation -------------------------------------------------------------------------------
def test_validation_rejects_each_kind_of_bad_distractor() -> None:
    original = "Der Hund beißt den Mann im Park."
    bounds = ValidationBounds(min_jaccard=0.2, max_length_ratio=1.5)
    verdict = check_candidates(
        original,
        [
            "",
            "der hund beißt den mann im park",
            "Der Hund beißt die Frau im Park.",
            "Der Hund beißt die Frau im Park!",
            "Völlig anderes Thema ohne Bezug.",
            "Der Hund beißt den Mann im Park und dann noch sehr lange weiter bis zum Abend.",
        ],
        bounds,
    )
    assert verdict.kept == ["Der Hund beißt die Frau im Park."]
    reasons = [reason.split(" (")[0] for _, reason in verdict.rejected]
    assert reasons == ["empty", "same as original", "duplicate distractor", "Jaccard out of bounds", "length ratio out of bounds"]
    assert normalise("  Der  Hund!") == "der hund"
    assert jaccard("aa bb cc", "Aa bb dd") == pytest.approx(0.5)  # the paper's words: lower-cased, 2+ characters
    assert jaccard("a b c", "a b d") == 1.0  # one-character words are not words: both texts are word-free
    with pytest.raises(CLSDError):
        ValidationBounds(min_jaccard=0.9, max_jaccard=0.5)


# --- rules ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "sentence", "corpus_extra", "weekday", "negation"),
    [
        (
            "de",
            "Am Montag, dem 3. Mai 2019, hat man in Berlin nicht gesprochen.",
            ["Gestern war Macron in Paris."],
            "Montag",
            "nicht",
        ),
        ("fr", "Le lundi 3 mai 2019, on n'a pas parlé à Paris.", ["Hier, Merkel était à Berlin."], "lundi", "pas"),
        (
            "en",
            "On Monday, 3 May 2019, they did not speak in London.",
            ["Yesterday Biden was in Paris."],
            "Monday",
            "not",
        ),
    ],
)
def test_rules_change_numbers_dates_names_and_negation(
    code: str, sentence: str, corpus_extra: list[str], weekday: str, negation: str
) -> None:
    # Names are typed (a person for a person); German and English take their types from a French side in a
    # real run (make_generators), given directly here.
    types = {name: "PER" for name in ("merkel", "macron", "johnson", "biden")}
    types |= {name: "LOC" for name in ("berlin", "paris", "london", "washington")}
    generator = RuleGenerator(code, [sentence, *corpus_extra], name_types=types, rule_names=ALL_RULES)  # negation too
    candidates = [generator.candidates(sentence, attempt=a) for a in (1, 2, 3)]
    flat = [c for batch in candidates for c in batch]
    assert len(candidates[0]) >= 4 and sentence not in flat
    rules = rules_for(code)
    corpus_names = {w for extra in corpus_extra for w in extra.replace(",", "").replace(".", "").split()[1:] if w[0].isupper()}
    assert any("2019" not in c for c in flat), "a year changed"
    assert any(weekday not in c and any(d in c for d in rules.weekdays) for c in flat), "a weekday swapped"
    assert any(corpus_names & set(c.replace(",", " ").replace(".", " ").split()) for c in flat), "a name from the corpus"
    assert any(negation not in c.replace(",", " ").split() for c in flat), "negation removed"
    assert generator.candidates(sentence, attempt=1) == candidates[0]  # seeded: reproducible
    assert candidates[1] != candidates[0]  # a re-ask draws again


def test_the_rule_generator_keeps_the_corpus_tags_and_only_the_last_sentences_candidates() -> None:
    # What a run holds grows with its input, not with the candidates it has tagged so far.
    corpus = [
        "Merkel sprach am Montag in Berlin.",
        "Am Dienstag kamen 300 Gäste nach Paris.",
        "Die Regierung hat 2019 nicht abgestimmt.",
    ]
    generator = RuleGenerator("de", corpus, name_types={"merkel": "PER", "berlin": "LOC", "paris": "LOC"})
    kept_tags = dict(generator.tags._kept)
    for sentence in corpus:
        candidates = generator.candidates(sentence, attempt=1)
        assert candidates and set(generator.rule_of) == set(candidates)
        assert set(generator.tags._candidates) >= set(candidates)  # the checks tagged them
        assert generator.tags._kept == kept_tags  # no candidate joins the run's tags
    assert generator.candidates(corpus[0], attempt=1) == generator.candidates(corpus[0], attempt=1)  # tagged again: same


def test_rules_run_a_language_without_a_module_with_the_rules_that_need_no_tagger(tmp_path: Path) -> None:
    corpus = read_parallel(
        write(tmp_path / "p.csv", "a,b\nAm 3. Mai kamen 300 Gäste,Il 3 maggio sono venuti 300 ospiti\n"), ("a", "b")
    )
    heard: list[str] = []
    options = RunOptions(progress=False, announce=heard.append)
    generate_distractors(corpus, (DE, parse_language("it")), tmp_path / "run", RuleBackend(), options=options)
    assert heard[1].startswith("rules for Italian (it): numbers, months, weekdays; off: names (no name lexicon)")


# --- checkpoint -------------------------------------------------------------------------------
def test_checkpoint_refuses_other_settings_and_other_input(tmp_path: Path) -> None:
    path = write(tmp_path / "p.csv", "de,fr\nAm Montag kam Merkel nach Berlin,Lundi Merkel est venue à Berlin\n")
    corpus = read_parallel(path, ("de", "fr"))
    generate_distractors(corpus, (DE, FR), tmp_path / "run", RuleBackend(), options=RunOptions(progress=False))
    with pytest.raises(CLSDError, match="seed"):
        generate_distractors(corpus, (DE, FR), tmp_path / "run", RuleBackend(seed=1), options=RunOptions(progress=False))
    other = read_parallel(write(tmp_path / "q.csv", "de,fr\nAm Dienstag kam Merkel,Mardi Merkel est venue\n"), ("de", "fr"))
    with pytest.raises(CLSDError, match="input_sha256"):
        generate_distractors(other, (DE, FR), tmp_path / "run", RuleBackend(), options=RunOptions(progress=False))
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        results, numbers = checkpoint.results(), checkpoint.attempt_numbers()
    assert len(results) == 2
    assert all(
        numbers[(r.pair_id, r.lang)] == list(range(1, r.attempts + 1)) for r in results
    )  # every answer stored, counted once


def test_retry_after_header_forms() -> None:
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "1500"}) == 1.5
    assert retry_after_seconds({}) is None


# --- human check ------------------------------------------------------------------------------
def test_human_check_round_trip(tmp_path: Path) -> None:
    lines = ["de,fr"] + [f"Am Montag kam Merkel {i} nach Berlin,Lundi Merkel {i} est venue à Berlin" for i in range(10, 20)]
    corpus = read_parallel(write(tmp_path / "p.csv", "\n".join(lines) + "\n"), ("de", "fr"))
    generate_distractors(corpus, (DE, FR), tmp_path / "run", RuleBackend(), options=RunOptions(progress=False))
    summary = export_sample(SampleSettings(tmp_path / "run", tmp_path / "sheet.csv", per_language=5, seed=3))
    assert summary.counts == {"de": 5, "fr": 5}
    assert all(summary.passing[code] == 5 for code in ("de", "fr"))  # every kept rule distractor passed the checks
    rows = list(csv.DictReader((tmp_path / "sheet.csv").open(encoding="utf-8")))
    for number, row in enumerate(rows):
        for criterion in CRITERIA:
            row[criterion] = "no" if (number == 0 and criterion == CRITERIA[2]) else "yes"
    with (tmp_path / "filled.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    report = import_sample(FilledSheet(tmp_path / "filled.csv"))
    assert report.judged == {"de": 5, "fr": 5}
    assert report.share() == pytest.approx(0.9)
    rows[1][CRITERIA[0]] = ""
    with (tmp_path / "blank.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(DataError, match="expected yes or no") as caught:
        import_sample(FilledSheet(tmp_path / "blank.csv"))
    assert caught.value.row == 2 and caught.value.column == CRITERIA[0]
    with pytest.raises(DataError, match="refusing to overwrite"):
        export_sample(SampleSettings(tmp_path / "run", tmp_path / "sheet.csv"))


def test_a_sample_of_no_distractors_is_refused_naming_the_option(tmp_path: Path) -> None:
    with pytest.raises(CLSDError, match="--per-language must be at least 1"):
        SampleSettings(tmp_path / "run", tmp_path / "sheet.csv", per_language=0)


# --- run-folder lock --------------------------------------------------------------------------
def test_a_held_run_folder_refuses_a_second_holder_naming_the_pid_and_is_free_once_let_go(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    with run_folder_lock(run_dir):
        assert (run_dir / PID_FILE).read_text(encoding="ascii").strip() == str(os.getpid())
        with pytest.raises(CLSDError, match=rf"run folder {run_dir} is in use by another clsd process \(pid {os.getpid()}\)"):
            with run_folder_lock(run_dir):
                pass
    assert not (run_dir / PID_FILE).exists()
    with run_folder_lock(run_dir, create=False):  # free again
        pass
    with run_folder_lock(tmp_path / "missing", create=False):
        assert not (tmp_path / "missing").exists()  # not created: the command reports the missing checkpoint

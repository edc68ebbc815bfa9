"""Print the table of texts docs/generation.md shows under "How a column's script is measured".

Each row is a short text of the kind a user's column holds (tech news naming products, code-mixed speech, a
language in either of its scripts, numbers and names in another script), the code it is given under, and where
``clsd generate`` lands it: the share of its words in the code's script (:func:`clsd_format.languages.script_share`,
a character counting as a word in scripts written without spaces), the share of its letters for comparison, and
what the check does (:func:`clsd_generation.core.inputs.check_scripts`: refused under half, a warning line under
four fifths). Run from a checkout with the ``generate`` extra::

    python scripts/measure_script_shares.py

``tests/generation/core/test_inputs.py`` checks that the docs show what this prints.
"""

from __future__ import annotations

import unicodedata

# (what the text is, the code it is given under, the text)
TEXTS = [
    ("Chinese tech news", "zh", "苹果公司周二发布了iPhone 15 Pro Max和新款MacBook Air，起售价为9999元。"),
    ("Chinese tech news", "zh-Hans", "华为Mate 60 Pro搭载麒麟9000S芯片，在JD.com的预约人数已超过100万。"),
    ("Chinese tech news", "zh-Hant", "微軟宣布將在Windows 11中整合Copilot，Surface Pro用戶可免費升級。"),
    ("Japanese tech news", "ja", "アップルは12日、iPhone 15 Pro Maxを9月22日に発売すると発表した。"),
    ("Japanese tech news", "ja", "新しいMacBook AirはM3チップを搭載し、価格は16万4800円から。"),
    ("Korean tech news", "ko", "삼성전자는 Galaxy S24 Ultra를 1월 31일 출시한다고 밝혔다."),
    ("Thai tech news", "th", "แอปเปิลเปิดตัว iPhone 15 Pro Max ราคาเริ่มต้น 48,900 บาท"),
    ("Hindi-English code-mixed", "hi", "कल के meeting में boss ने नया project assign किया।"),
    ("Hindi-English code-mixed", "hi", "मेरा laptop फिर से crash हो गया, backup भी नहीं लिया था।"),
    ("Serbian in Latin letters", "sr-Latn", "Vlada je u ponedeljak usvojila novi zakon o zaštiti podataka."),
    ("Serbian in Latin letters", "sr", "Vlada je u ponedeljak usvojila novi zakon o zaštiti podataka."),
    ("Serbian in Cyrillic", "sr", "Влада је у понедељак усвојила нови закон о заштити података."),
    ("Arabic with Latin numbers and names", "ar", "أعلنت شركة Samsung عن هاتف Galaxy S24 بسعر 799 دولارا في 17 يناير."),
    ("English with one Greek word", "en", "The Greek word λόγος can mean word, reason or account."),
    ("English under a Chinese code", "zh", "Apple unveiled the iPhone 15 Pro Max on Tuesday, priced from $1,199."),
]
HEADER = "| text | code | words in the code's script | letters in the code's script | lands |\n| --- | --- | --- | --- | --- |"


def _letter_share(text: str, code: str) -> float | None:
    """The share of the text's letters (of a particular script) in the code's script, one letter at a time."""
    from clsd_format.languages import parse_language, script_share

    language = parse_language(code)
    shares = [script_share([char], language) for char in text if unicodedata.category(char).startswith("L")]
    counted = [share.share for share in shares if share is not None and share.share is not None]
    return sum(counted) / len(counted) if counted else None


def _lands(share: float, other: str | None, code: str) -> str:
    from clsd_format.languages import script_name
    from clsd_generation.core.inputs import SCRIPT_REFUSED_BELOW, SCRIPT_WARNED_BELOW

    if share < SCRIPT_REFUSED_BELOW:
        return f"refused, `{code.split('-')[0]}-{other}` advised"
    if share < SCRIPT_WARNED_BELOW:
        return f"accepted, a warning line (most of the rest {script_name(other or '')})"
    return "accepted"


def table() -> str:
    """The Markdown table: one row per text of :data:`TEXTS`."""
    from clsd_format.languages import parse_language, script_share

    lines = [HEADER]
    for what, code, text in TEXTS:
        measured = script_share([text], parse_language(code))
        assert measured is not None and measured.share is not None, (code, text)
        inside = round(measured.share * measured.units)
        letters = _letter_share(text, code)
        lines.append(
            f"| {what}: {text} | `{code}` | {inside} of {measured.units} ({measured.share:.0%}) | "
            f"{'-' if letters is None else f'{letters:.0%}'} | {_lands(measured.share, measured.other, code)} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table())

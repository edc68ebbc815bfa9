"""clsd_format.languages writes mteb's codes as mteb writes them, checked against mteb's own language list.

clsd_format may not import mteb (the generator runs without it); this test reads mteb's tables, which ship
inside the installed mteb package.
"""

from __future__ import annotations

import json
from pathlib import Path

import mteb.languages
import pytest
from mteb.languages.check_language_code import check_language_code

from clsd_format.errors import CLSDError
from clsd_format.languages import parse_language

TABLES = Path(mteb.languages.__file__).parent
# Where CLDR's likely script is not the one mteb's task data took as the default: mteb accepts both.
SCRIPT_CHOICES = {"crh", "kas", "kur", "nan", "orm", "taq", "tzm"}
# ISO 639-1 codes whose language CLDR gives no likely script (Pali is written in several): the script is asked for.
NO_LIKELY_SCRIPT = {"ie", "oj", "pi"}


def _table(name: str) -> dict[str, str]:
    return json.loads((TABLES / name).read_text(encoding="utf-8"))


def test_every_iso_639_1_code_gives_the_iso_639_3_code_mteb_maps_it_to_and_a_code_mteb_accepts() -> None:
    differ = {}
    for two, three in _table("iso_639_1_to_3.json").items():
        if two in NO_LIKELY_SCRIPT:
            with pytest.raises(CLSDError, match="no script is known"):
                parse_language(two)
            assert parse_language(f"{two}-Latn").mteb_code == f"{three}-Latn"
            continue
        language = parse_language(two)
        check_language_code(language.mteb_code)  # raises on a code mteb does not know
        if language.iso639_3 != three:
            differ[two] = language.iso639_3
    assert differ == {"tl": "fil"}  # CLDR reads Tagalog as Filipino, which mteb knows too


def test_mteb_s_default_scripts_are_the_likely_scripts() -> None:
    differ, refused = {}, []
    table = _table("iso_639_3_to_default_script.json")
    for three, script in table.items():
        try:
            language = parse_language(three)
        except CLSDError as exc:  # CLDR gives its language no likely script, or (Toki Pona) postdates it: one line
            assert len(str(exc).splitlines()) == 1
            assert parse_language(f"{three}:Name:{three}-{script}").mteb_code == f"{three}-{script}"
            refused.append(three)
            continue
        check_language_code(language.mteb_code)
        if language.script != script:
            differ[three] = language.script
    assert set(differ) <= SCRIPT_CHOICES, differ
    assert len(refused) < 0.15 * len(table), refused


@pytest.mark.parametrize(
    ("text", "mteb_code"),
    [("zh", "zho-Hans"), ("zh-Hant", "zho-Hant"), ("ar", "ara-Arab"), ("fa", "fas-Arab"), ("ko", "kor-Hang")],
)
def test_macrolanguages_and_scripts_as_mteb_writes_them(text: str, mteb_code: str) -> None:
    assert parse_language(text).mteb_code == mteb_code
    check_language_code(mteb_code)

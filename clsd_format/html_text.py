"""A text of any language in HTML and Markdown: in an element that names its language and writing direction.

A browser lays out a text by the ``dir`` of the element it is in, and chooses fonts, hyphenation and speech by its
``lang``. A report or card is English prose around texts of the data's languages: without their own element an
Arabic or Hebrew sentence would be laid out left to right (its words' order reversed around a number or a Latin
name), and a screen reader would read it as English. So every text of the data is written as
``<span lang="ar" dir="rtl">...</span>`` (:func:`in_language`), ``lang`` always, ``dir`` from the language's script
(:attr:`clsd_format.languages.Language.direction`): the markup works in Markdown (which passes such inline HTML
through, in a table cell too) and in the static HTML, with no script.

The text inside is escaped (``&``, ``<``, ``>`` as entities), so a text of the data never makes an element itself;
:data:`OWN_SPAN` is the one opening tag this module writes, for a Markdown-to-HTML step that keeps these spans and
escapes every other tag. :class:`LanguageText` carries a text's language through a table: written so in Markdown, the
text alone in CSV and LaTeX.
"""

from __future__ import annotations

import html
import re

from clsd_format.errors import CLSDError
from clsd_format.languages import Language, parse_language, script_direction

DIRECTIONS = ("ltr", "rtl", "auto")
# The opening tag in_language writes, and nothing else: a language tag of letters, digits and hyphens, a direction.
OWN_SPAN = re.compile(r'<span lang="([A-Za-z0-9-]{1,35})" dir="(ltr|rtl|auto)">')
CLOSE_SPAN = "</span>"
_TAG_SHAPE = re.compile(r"(?=.{1,35}$)[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8})*")
UNDETERMINED = "und"  # BCP 47's tag for a language not determined


def html_language(language: Language | str) -> tuple[str, str]:
    """The ``lang`` and ``dir`` of a text in ``language`` (a :class:`Language`, a code or mteb's code: "ara-Arab").

    A code no library can read keeps its own spelling as ``lang`` (mteb's "xyz-Latn" is a well-formed BCP 47 tag) and
    its script's direction, or ``dir="auto"`` (the browser's reading of the text) without a script; a code that is no
    well-formed tag at all (data may hold anything) is ``und``, undetermined, and ``auto``.
    """
    if isinstance(language, Language):
        code, direction = language.code, language.direction
    else:
        try:
            found = parse_language(language)
            code, direction = found.code, found.direction
        except CLSDError:
            last = language.split("-")[-1]
            code, direction = language, script_direction(last) if len(last) == 4 and last.isalpha() else "auto"
    if not _TAG_SHAPE.fullmatch(code):
        return UNDETERMINED, "auto"
    return code, direction


def in_language(text: str, language: Language | str) -> str:
    """``text`` (escaped) in a span naming its language and direction, for Markdown or HTML."""
    lang, direction = html_language(language)
    return f'<span lang="{lang}" dir="{direction}">{html.escape(text, quote=False)}{CLOSE_SPAN}'


class LanguageText(str):
    """A text that knows its language (mteb's code or any code): a table's Markdown writes it :func:`in_language`;
    CSV and LaTeX, which have no such markup, write the text alone."""

    language: str

    def __new__(cls, text: str, language: str) -> LanguageText:
        made = super().__new__(cls, text)
        made.language = language
        return made

    def __reduce__(self) -> tuple[type[LanguageText], tuple[str, str]]:  # copied and pickled with its language
        return LanguageText, (str(self), self.language)

    def markdown(self) -> str:
        return in_language(str(self), self.language)

"""The languages of the rule backend: one module each, found here or in another installed package.

A language is one module that defines ``RULES``, a :class:`clsd_generation.rules.lexicon.LanguageRules`
holding everything the shared rules need to know of it (its tagger, month and weekday locale, names file,
number and person words, negation, opposites, elision), plus its data files. The built-in ones are the
modules of this package; another package adds a language without touching this one by naming a
``LanguageRules`` object under the entry-point group ``clsd_generation.languages``:

.. code-block:: toml

    [project.entry-points."clsd_generation.languages"]
    it = "my_package.italian:RULES"

The order is part of the output: a name that several languages write is looked up in the first
language that writes it.
"""

from __future__ import annotations

import functools
import importlib
from importlib.metadata import entry_points

from clsd_format.errors import CLSDError
from clsd_generation.rules.lexicon import LanguageRules

BUILT_IN = ("de", "fr", "en")
ENTRY_POINT_GROUP = "clsd_generation.languages"


@functools.cache
def registered() -> dict[str, LanguageRules]:
    """Every language with rules, by code: the built-in ones, then those of installed packages."""
    languages = {code: importlib.import_module(f"{__name__}.{code}").RULES for code in BUILT_IN}
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        rules = entry.load()
        if not isinstance(rules, LanguageRules) or rules.code != entry.name:
            raise CLSDError(
                f"the entry point {entry.name!r} = {entry.value!r} of group {ENTRY_POINT_GROUP} must name a LanguageRules "
                f"object whose code is {entry.name!r}."
            )
        languages.setdefault(entry.name, rules)
    return languages

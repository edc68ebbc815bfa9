"""The languages of the rule backend: one module each, every one found through the same entry-point group.

A language is one module that defines ``RULES``, a :class:`clsd_generation.rules.lexicon.LanguageRules`
holding everything the shared rules need to know of it (its tagger, month and weekday locale, names file,
number and person words, negation, opposites, elision), plus its data files. It is registered by naming that
object under the entry-point group ``clsd_generation.languages``: the built-in ones (the modules of this
package) in clsd-mteb's own ``pyproject.toml``, another package's in its own, with the same line:

.. code-block:: toml

    [project.entry-points."clsd_generation.languages"]
    it = "my_package.italian:RULES"

The order is part of the output: a name that several languages write is looked up in the first language that
writes it, and the languages come in the order of their codes (:mod:`clsd_format.plugins`).
"""

from __future__ import annotations

import functools

from clsd_format.plugins import registry
from clsd_generation.rules.lexicon import LanguageRules

ENTRY_POINT_GROUP = "clsd_generation.languages"


@functools.cache
def registered() -> dict[str, LanguageRules]:
    """Every language with rules, by code: the entry points of :data:`ENTRY_POINT_GROUP`, built-in ones included."""
    return registry(ENTRY_POINT_GROUP, LanguageRules, lambda rules: rules.code)

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

The languages are read when the rule backend first asks for them (:func:`registered`), never at import: a language
that cannot be loaded, or takes a built-in's code, stops the commands that tag with the rules' languages in one line
naming its entry point and distribution, and leaves every other command alone. A package's language is handed out
with its code guarded (its tagger, negation, antonym guard, edge repair and fault count): raising while a run uses it
is that line too, never clsd's internal error.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

from clsd_format.plugins import PluginOrigin, guarded, read_group, run_plugin
from clsd_format.tagging import TaggedSentence, Tagger
from clsd_generation.rules.lexicon import LanguageRules

ENTRY_POINT_GROUP = "clsd_generation.languages"


class _PluginTagger:
    """A package's tagger whose tagging names the package when it raises (:func:`clsd_format.plugins.running`)."""

    def __init__(self, tagger: Tagger, origin: PluginOrigin) -> None:
        self.language = tagger.language
        self._tagger, self._origin = tagger, origin

    def tag(self, texts: Sequence[str]) -> list[TaggedSentence]:
        return run_plugin(self._origin, self._tagger.tag, texts)

    def tag_tokens(self, sentences: Sequence[Sequence[str]]) -> list[list[str]]:
        return run_plugin(self._origin, self._tagger.tag_tokens, sentences)


def _guarded(rules: LanguageRules, origin: PluginOrigin) -> LanguageRules:
    """``rules`` whose code names its package when it raises; a built-in language's as it is."""
    if origin.built_in:
        return rules

    make, repair, faults = rules.tagger, rules.repair_edit, rules.edge_faults
    return replace(
        rules,
        tagger=None if make is None else (lambda: _PluginTagger(run_plugin(origin, make), origin)),
        negate=guarded(origin, rules.negate),
        antonym_blocked=guarded(origin, rules.antonym_blocked),
        repair_edit=None if repair is None else guarded(origin, repair),
        edge_faults=None if faults is None else guarded(origin, faults),
    )


@functools.cache
def registered() -> dict[str, LanguageRules]:
    """Every language with rules, by code: the entry points of :data:`ENTRY_POINT_GROUP`, built-in ones included; one
    that cannot be used is one line naming it (:class:`clsd_format.plugins.PluginError`)."""
    read = read_group(ENTRY_POINT_GROUP, LanguageRules, lambda rules: rules.code)
    return {code: _guarded(rules, read.origins[code]) for code, rules in read.strict().items()}

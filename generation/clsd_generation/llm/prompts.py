"""The distractor prompt: the paper's by default, overridable per language from a template file.

Template file (YAML): a ``default`` template and/or one per language code, each holding the
placeholders ``{language}`` (the language's English name) and ``{sentence}`` (the original)::

    default: |-
      Give four sentences that look like this one but mean something else. Answer in {language}!
      {sentence}
    de: |-
      Gib mir vier ähnlich aussehende Sätze mit anderer Bedeutung (nummeriert):
      {sentence}
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from clsd_format.declared_settings import DeclaredSettings, setting
from clsd_format.errors import CLSDError
from clsd_generation.core.settings import LLM_ENDPOINT

# Michail, Clematide and Sennrich (2025), sent to gpt-4-0613 once per original sentence.
PAPER_PROMPT = (
    "Can you provide me with four tricky sentences (numbered) that look structurally and lexically similar "
    "but don't have the same meaning. The sentences should be within similar topics and share commonalities "
    "with the original. Answer in {language}!\n{sentence}"
)
PAPER_TEMPERATURE = 1.0
PAPER_TOP_P = 1.0
PLACEHOLDERS = frozenset({"language", "sentence"})


@dataclass(frozen=True)
class PromptChoice(DeclaredSettings):
    """The prompt and sampling a run asks for: a template file (None: the paper's prompt) and the sampling values."""

    PANEL = LLM_ENDPOINT

    prompt_file: Path | None = setting(
        None,
        help="YAML file of prompt templates: 'default' and/or per language code, with {language} and {sentence}. "
        "Default: the paper's prompt.",
    )
    temperature: float = setting(PAPER_TEMPERATURE, help="Sampling temperature (paper: 1.0).", fingerprint=True)
    top_p: float = setting(PAPER_TOP_P, help="Nucleus sampling (paper: 1.0).", fingerprint=True)

    @property
    def is_paper(self) -> bool:
        """The paper's prompt and sampling, as the paper protocol needs them."""
        return self.prompt_file is None and self.temperature == PAPER_TEMPERATURE and self.top_p == PAPER_TOP_P

    def load(self) -> PromptSettings:
        """The templates (read from the file, checked) with the sampling values."""
        return load_prompt_settings(self.prompt_file, temperature=self.temperature, top_p=self.top_p)


@dataclass(frozen=True)
class PromptSettings(PromptChoice):
    """The choice with its templates read: the sampling declared once (:class:`PromptChoice`, its values part of the
    fingerprint) and the templates, which the backend binds per language."""

    default_template: str = PAPER_PROMPT
    per_language: Mapping[str, str] = field(default_factory=dict)

    def template_for(self, language_code: str) -> str:
        return self.per_language.get(language_code, self.default_template)

    def render(self, language_code: str, language_name: str, sentence: str) -> str:
        # str.replace, not str.format: a sentence may hold braces, and they must reach the LLM unchanged.
        return self.template_for(language_code).replace("{language}", language_name).replace("{sentence}", sentence)


def check_template(template: str, where: str) -> None:
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError as exc:
        raise CLSDError(f"{where}: malformed template ({exc}); write literal braces as {{{{ and }}}}.") from exc
    unknown = fields - PLACEHOLDERS
    if unknown:
        raise CLSDError(f"{where}: unknown placeholder(s) {sorted(unknown)}; a template may use {{language}} and {{sentence}}.")
    if "sentence" not in fields:
        raise CLSDError(f"{where}: the template never includes {{sentence}}, so the LLM would not see the original.")


def load_prompt_settings(template_file: Path | None, *, temperature: float, top_p: float) -> PromptSettings:
    if template_file is None:
        return PromptSettings(temperature=temperature, top_p=top_p)
    import yaml

    path = Path(template_file)
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CLSDError(f"prompt template file {path}: cannot read it ({exc}).") from exc
    if (
        not isinstance(loaded, dict)
        or not loaded
        or not all(isinstance(k, str) and isinstance(v, str) for k, v in loaded.items())
    ):
        raise CLSDError(
            f"prompt template file {path}: expected a YAML mapping of 'default' and/or language codes to template strings."
        )
    for key, template in loaded.items():
        check_template(template, f"prompt template file {path}, key {key!r}")
    default = loaded.pop("default", PAPER_PROMPT)
    return PromptSettings(
        prompt_file=path, default_template=default, per_language=dict(loaded), temperature=temperature, top_p=top_p
    )

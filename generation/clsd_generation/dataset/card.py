"""The dataset card of a generated dataset: ``clsd_format/card_templates/generated.md`` filled with measured facts.

The template is read through :func:`clsd_format.cards.card_template` (package data, so it ships in the
wheel). Placeholders are ``${name}`` (``string.Template``), so braces in prompts or code blocks stay as
they are. In the YAML front matter each value is inserted as JSON (valid YAML), then the header is
parsed and merged with ``configs:`` and the ``clsd:`` manifest from :func:`clsd_format.hub.front_matter`.
"""

from __future__ import annotations

import json
import math
import re
import string
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from clsd_format import hub, schema
from clsd_format.cards import CARDS_DIR, card_template
from clsd_format.declared_settings import option_name
from clsd_format.difficulty import Difficulty
from clsd_format.errors import CLSDError
from clsd_format.evaluation_settings import DataChoice
from clsd_format.html_text import in_language
from clsd_format.hub import DirectionSpec
from clsd_format.languages import Language
from clsd_format.redaction import public_url
from clsd_generation.checks.registry import card_sentences
from clsd_generation.core.checkpoint import ModelAnswers, Result
from clsd_generation.core.inputs import ParallelPair
from clsd_generation.core.reading import model_shown
from clsd_generation.dataset.options import BuildOptions
from clsd_generation.dataset.statistics import SimilarityStats, similarity_stats
from clsd_generation.rules.registry import ALL_RULES, RULE_BY_NAME

TEMPLATE_NAME = "generated.md"
_HEADER_KEYS = ("pretty_name", "hub_license", "hub_languages", "multilinguality", "size_category", "source_datasets")


@dataclass
class CardInput:
    """What the card needs to know beyond the rows themselves."""

    pretty_name: str
    input_origin: str  # as a card may name it: a Hub id, or a local input's name and SHA-256, never its path
    source_datasets: list[str]  # Hub ids only: the Hub reads this field as dataset ids
    id_explanation: str
    languages: tuple[Language, Language]
    generation: Mapping[str, Any]  # the checkpoint's generation fingerprint
    endpoint: str | None
    usage_tokens: tuple[int, int]
    generated_span: tuple[str, str] | None
    built: str
    license: str | None  # Hub licence id (cc-by-4.0, ...) or None
    pivot_model: str | None = None
    pivot_translator: str | None = None  # an LLM translator as the card names it (model, endpoint, prompt); None: M2M-100/NLLB
    pivot_dropped: Counter[str] = field(default_factory=Counter)
    pivot_refused: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # language -> reason -> LLM answers refused
    pivot_checks: str = ""  # a sentence: the translations refused as not translating their source, per language
    pivot_not_built: str | None = None  # why the -pivot-en configs were not built although the run was translated
    difficulty: Difficulty | None = None  # scored by the plugin after the data was written; None: not measured
    rejections: Mapping[str, Counter[str]] = field(default_factory=dict)  # per language: every answer's rejections by kind
    cut_answers: int = 0  # LLM answers stopped by the token limit (asked again)
    batches: tuple[int, int] = (0, 0)  # Batch API: batches sent, and the rounds they made up
    extra_sections: str = ""  # sections written by later steps (the judge's reading), Markdown
    checks_off: Sequence[str] = ()  # the checks off for a language of the run, one line each (recorded by the run)
    answering_models: Sequence[ModelAnswers] = ()  # every model that answered an LLM request, as its answers name it
    examples: Sequence[tuple[DirectionSpec, Mapping[str, Any]]] = ()  # a row of each direct config, as the data holds it


def size_category(rows: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if rows < limit:
            return label
    return "1M<n<10M"


def _fmt(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.3f}"


def render_generated_card(
    info: CardInput,
    specs: Sequence[DirectionSpec],
    rows_per_config: Mapping[str, int],
    pairs: Sequence[ParallelPair],
    results: Sequence[Result],
    clsd_extra: Mapping[str, Any],
) -> str:
    """The whole card: each section's values come from the helpers below, the wording from the template."""
    values = {
        **_front_matter_values(info, sum(rows_per_config.values())),
        "input_origin": info.input_origin,
        "id_explanation": info.id_explanation,
        "distractors_per_row": info.generation["validation"]["needed"],
        "configs_table": _configs_table(specs, rows_per_config),
        **_method_values(info, results),
        **_measured_facts_values(info.languages, pairs, results),
        "examples_section": _examples_section(info),
        "pivot_section": _pivot_section(info),
        "difficulty_section": difficulty_section(info.difficulty),
        "rejections_section": _rejections_section(info),
        "extra_sections": info.extra_sections,
        "license_text": info.license or "not specified by the dataset's author",
    }
    header, body = _fill_template(values)
    header = hub.front_matter(specs, **header)
    header[hub.MANIFEST_KEY].update(clsd_extra)
    return hub.render_card(header, body)


def _front_matter_values(info: CardInput, total_rows: int) -> dict[str, Any]:
    """The Hub fields of the YAML header (the pivot configs add English)."""
    return {
        "pretty_name": info.pretty_name,
        "hub_license": info.license,
        "hub_languages": sorted({language.code for language in info.languages} | ({"en"} if info.pivot_model else set())),
        "multilinguality": "multilingual",
        "size_category": size_category(total_rows),
        "source_datasets": info.source_datasets,
    }


def _configs_table(specs: Sequence[DirectionSpec], rows_per_config: Mapping[str, int]) -> str:
    """The rows of the section "Configs": one per direction (and pivot) config."""
    return "\n".join(
        f"| {s.config} | {s.task_name} | {s.source_lang} | {s.target_lang} | {rows_per_config[s.config]} |" for s in specs
    )


def _method_values(info: CardInput, results: Sequence[Result]) -> dict[str, Any]:
    """The section "How the distractors were made": backend, validation protocol and dates."""
    generation = info.generation
    if generation["backend"] == "llm":
        backend_name, details = _llm_name(info), _llm_details(info) + _models_details(info, results)
    else:
        backend_name, details = "rules (no LLM)", _rules_details(generation)
    return {
        "backend": backend_name,
        "backend_details": details,
        "validation_details": validation_details(generation["validation"], by_llm=generation["backend"] == "llm")
        + _checks_off_details(info.checks_off),
        "generated_from": info.generated_span[0] if info.generated_span else "n/a",
        "generated_to": info.generated_span[1] if info.generated_span else "n/a",
        "built": info.built,
    }


def _llm_details(info: CardInput) -> str:
    """The LLM request as sent: model, endpoint, sampling, each language's prompt, and the tokens used."""
    generation = info.generation
    prompts = generation["prompts"]
    prompt_lines = "\n".join(
        f"  - prompt ({language.code}), the original sentence in place of `{{sentence}}`:\n\n    ```text\n"
        + "\n".join("    " + line for line in prompts[language.code].split("\n"))
        + "\n    ```\n"
        for language in info.languages
    )
    return (
        f"- LLM: `{generation['model']}` through an OpenAI-compatible endpoint ({_endpoint(info.endpoint)}), chat completion, "
        f"temperature {generation['temperature']}, top_p {generation['top_p']}, {_limits(generation)}, other parameters "
        f"default; one user message per original sentence, monolingually.\n{prompt_lines}- Tokens used: {info.usage_tokens[0]} "
        f"prompt + {info.usage_tokens[1]} completion."
        + (f" {info.cut_answers} answer(s) stopped at the token limit and were asked again." if info.cut_answers else "")
        + (f" Sent through the Batch API: {info.batches[0]} batch(es) in {info.batches[1]} round(s)." if info.batches[0] else "")
    )


def _llm_name(info: CardInput) -> str:
    """The model asked for, and every other name the answers read gave their model: the card's first line says who wrote."""
    asked = info.generation["model"]
    others = sorted(
        {m.answered for m in info.answering_models if m.answered not in (None, asked) and m.answers > m.refused}, key=str
    )
    return f"LLM ({asked}" + (f", answered as {', '.join(model_shown(name) for name in others)})" if others else ")")


def _models_details(info: CardInput, results: Sequence[Result]) -> str:
    """Every model whose answers the run holds, as the answers name it, with its answers and the sentences with
    distractors it answered: a provider may answer with another model than the one asked for."""
    if not info.answering_models:
        return ""
    with_distractors = {(r.pair_id, r.lang) for r in results if r.status == "ok"}
    parts = []
    for models in sorted(info.answering_models, key=lambda m: (-m.answers, m.answered or "")):
        asked = "" if models.answered == models.asked or models.asked is None else f" (asked for {_code(models.asked)})"
        fate = [f"read for {len(models.sentences & with_distractors)} sentence(s) with distractors"]
        if models.refused:
            fate = [f"{models.refused} refused as another model's"] + (fate if models.refused < models.answers else [])
        parts.append(f"{_code(models.answered)}{asked}: {models.answers} answer(s), {', '.join(fate)}")
    unnamed = any(models.answered is None for models in info.answering_models)
    return (
        "\n- Models that answered, as each answer names its model: "
        + "; ".join(parts)
        + ". An answer naming another model than the one asked for (the name asked for with a snapshot's date or version "
        "added, or with a vendor's prefix, is the same model) was refused and asked again, unless that model was allowed "
        "by name."
        + (
            " Answers shown as (no model named) named none (no model field, or an empty one), or were recorded before "
            "answering models were kept."
            if unnamed
            else ""
        )
    )


def _code(name: str | None) -> str:
    """A model name as the card prints it: in backticks, escaped as printed (:func:`model_shown`)."""
    shown = model_shown(name)
    return shown if name is None else "`" + shown.replace("`", "'") + "`"


def _limits(generation: Mapping[str, Any]) -> str:
    """The token limit and the answer format (runs made before either was recorded had neither)."""
    limit = f"max_tokens {generation['max_tokens']}" if generation.get("max_tokens") else "no token limit"
    return limit + (", the distractors asked for as JSON (response_format, JSON schema)" if generation.get("structured") else "")


def _rejections_section(info: CardInput) -> str:
    """How many candidates each check refused (or, paper protocol, would have refused), per language."""
    kinds = sorted({kind for counts in info.rejections.values() for kind in counts})
    if not kinds:
        return ""
    codes = [language.code for language in info.languages]
    rows = [
        f"| {_cell(kind)} | " + " | ".join(str(info.rejections.get(code, Counter())[kind]) for code in codes) + " |"
        for kind in sorted(kinds, key=lambda k: -sum(c[k] for c in info.rejections.values()))
    ]
    return (
        "\n### Candidates refused, by reason\n\nEvery candidate of every answer the checks refused, and every answer refused "
        "unread (longer than the token limit allows, not valid text, JSON not of the schema); a reason starting with "
        "'kept unchecked' is an item the paper protocol kept that the named check would have refused:\n\n"
        f"| reason | {' | '.join(codes)} |\n| --- | {' | '.join('---' for _ in codes)} |\n" + "\n".join(rows) + "\n"
    )


def _endpoint(recorded: str | None) -> str:
    """The endpoint as published: never with credentials, even from a checkpoint written before they were left out."""
    if not recorded or recorded == "OpenAI default":
        return "OpenAI default"
    return public_url(recorded)


def _rules_details(generation: Mapping[str, Any]) -> str:
    rules = generation.get("rules") or list(ALL_RULES)  # runs that predate the choice of rules used them all
    done = "; ".join(RULE_BY_NAME[rule].description if rule in RULE_BY_NAME else rule for rule in rules)
    return (
        f"- No LLM: rule-based (clsd-mteb rules version {generation['rules_version']}, seed {generation['seed']}, "
        f"rules {', '.join(rules)}): {done}."
    )


def _measured_facts_values(
    languages: tuple[Language, Language], pairs: Sequence[ParallelPair], results: Sequence[Result]
) -> dict[str, Any]:
    """The sections "Measured facts", "Why sentences failed" and the Levenshtein table: per language, then all."""
    codes = [language.code for language in languages]
    by_lang: dict[str, list[Result]] = {code: [] for code in codes}
    for result in results:
        by_lang.setdefault(result.lang, []).append(result)
    sentences = {language.code: {p.pair_id: p.texts[side] for p in pairs} for side, language in enumerate(languages)}
    per_lang_stats = [_similarity_of(sentences, by_lang, [code]) for code in codes]
    all_stats = _similarity_of(sentences, by_lang, codes)
    counts_ok = [sum(r.status == "ok" for r in by_lang[c]) for c in codes]
    counts_failed = [sum(r.status == "failed" for r in by_lang[c]) for c in codes]
    counts_distractors = [sum(len(r.distractors) for r in by_lang[c] if r.status == "ok") for c in codes]
    both = [*per_lang_stats, all_stats]
    return {
        "language_headers": " | ".join(f"{language.name} ({language.code})" for language in languages),
        "language_rule": " | ".join("---" for _ in languages),
        "sentences_row": _row([len(pairs)] * len(codes) + [len(pairs) * len(codes)]),
        "ok_row": _row([*counts_ok, sum(counts_ok)]),
        "failed_row": _row([*counts_failed, sum(counts_failed)]),
        "distractors_row": _row([*counts_distractors, sum(counts_distractors)]),
        "jaccard_row": _row([f"{_fmt(s.jaccard_mean)} ({_fmt(s.jaccard_sd)})" for s in both]),
        "intra_jaccard_row": _row([f"{_fmt(s.intra_jaccard_mean)} ({_fmt(s.intra_jaccard_sd)})" for s in both]),
        "failures": _failures_table(Counter(r.reason or "unknown" for c in codes for r in by_lang[c] if r.status == "failed")),
        "pair_count": all_stats.pairs,
        "levenshtein_table": "\n".join(f"| {label} | {n} | {share:.1%} |" for label, n, share in all_stats.levenshtein_histogram),
    }


def _similarity_of(
    sentences: Mapping[str, Mapping[str, str]], by_lang: Mapping[str, Sequence[Result]], codes: Sequence[str]
) -> SimilarityStats:
    """Original-vs-distractor measures over the finished sentences of ``codes`` (``sentences``: code -> pair id -> text)."""
    return similarity_stats(
        (sentences[r.lang][r.pair_id], r.distractors) for code in codes for r in by_lang[code] if r.status == "ok"
    )


def _failures_table(reasons: Counter[str]) -> str:
    if not reasons:
        return "No sentence failed."
    rows = (f"| {_cell(reason)} | {n} |" for reason, n in reasons.most_common())
    return "\n".join(["| reason | sentences |", "| --- | --- |", *rows])


_MARKDOWN_MARKS = re.compile(r"[\\`*_\[\]~]")  # what Markdown would read as markup inside a line of text


def _examples_section(info: CardInput) -> str:
    """The section "Examples": a row of each direction as the data holds it. Each text is in a span naming its
    language and direction (:func:`clsd_format.html_text.in_language`), so Arabic or Hebrew reads right to left where
    the card is shown, and escaped, so a text is shown as written, never read as Markdown or HTML."""
    if not info.examples:
        return ""
    by_mteb: dict[str, Language | str] = {language.mteb_code: language for language in info.languages}

    def text(value: str, mteb_code: str) -> str:
        return in_language(_MARKDOWN_MARKS.sub(r"\\\g<0>", " ".join(value.splitlines())), by_mteb.get(mteb_code, mteb_code))

    blocks = []
    for spec, row in info.examples:
        distractors = "\n".join(f"  {n}. {text(d, spec.target_lang)}" for n, d in enumerate(row[schema.DISTRACTORS], start=1))
        row_id = str(row[schema.ID]).replace("`", "'")
        blocks.append(
            f"### {spec.config}, row `{row_id}`\n\n- source: {text(row[schema.SOURCE], spec.source_lang)}\n"
            f"- target: {text(row[schema.TARGET], spec.target_lang)}\n- distractors:\n{distractors}\n"
        )
    return "\n## Examples\n\nThe first row of each direction, as the data holds it:\n\n" + "\n".join(blocks)


def _pivot_section(info: CardInput) -> str:
    """The section on the ``-pivot-en`` configs; empty when the run was not translated."""
    if not info.pivot_model:
        return ""
    dropped = sum(info.pivot_dropped.values())
    translator = (
        f"{info.pivot_translator} (the paper used M2M-100 1.2B)"
        if info.pivot_translator
        else f"`{info.pivot_model}` (as the paper did with M2M-100 1.2B)"
    )
    if info.pivot_not_built:
        return (
            f"\n## English pivot\n\nThe run was translated to English by {translator}, but the `-pivot-en` configs were "
            f"not built: {info.pivot_not_built}.{info.pivot_checks}" + _pivot_refusals(info.pivot_refused) + "\n"
        )
    return (
        f"\n## English pivot\n\nThe `-pivot-en` configs hold the same rows with every text machine-translated to English by "
        f"{translator}; models compare them monolingually. Translation can make a "
        "distractor identical to the translated target: such ties count as misses, as in the paper."
        + (f" {dropped} row(s) were left out because a translation came back empty or was refused." if dropped else "")
        + info.pivot_checks
        + _pivot_refusals(info.pivot_refused)
        + "\n"
    )


def _pivot_refusals(refused: Mapping[str, Mapping[str, int]]) -> str:
    """The LLM translator's answers that were not translations (asked again), by language and reason."""
    parts = [
        f"{code}: " + ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
        for code, reasons in sorted(refused.items())
        if reasons
    ]
    return f" Translator answers refused and asked again, by reason: {'; '.join(parts)}." if parts else ""


def difficulty_section(difficulty: Difficulty | None) -> str:
    """The section "Difficulty": each reference model's P@1 here, beside its P@1 on the release."""
    if difficulty is None:
        data_dir = option_name(DataChoice, "data_dir")
        no_score = option_name(BuildOptions, "no_score")
        return f"## Difficulty\n\nNot measured (built with `{no_score}`): `clsd evaluate {data_dir} <this folder>` scores it.\n"
    rows = []
    for score in difficulty.scores:
        release = [r.precision_at_1 for r in difficulty.reference if r.model == score.model]
        on_release = (
            f"{100 * sum(release) / len(release):.2f} (4 tasks: {100 * min(release):.2f}-{100 * max(release):.2f})"
            if release
            else "n/a"
        )
        rows.append(f"| `{score.model}` | {score.task} | {score.rows} | {100 * score.precision_at_1:.2f} | {on_release} |")
    return (
        "## Difficulty\n\nP@1 (%) of two reference models on this set, and on the direct tasks of the CLSD release "
        f"(GPT-4 distractors of WMT19/WMT21 news, German-French; measured with {difficulty.reference_source}). "
        "Lower is harder. The character n-gram baseline knows no language: where it scores high, the distractors can "
        "be told from the translation by spelling alone (a changed number or name is a string the source shares with "
        "its translation), so the set measures copying of strings more than reading for meaning.\n\n"
        "| model | task | rows | P@1 here | P@1 on the release, mean (range) |\n| --- | --- | --- | --- | --- |\n"
        + "\n".join(rows)
        + "\n"
    )


def _fill_template(values: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The template's YAML header (values as JSON) and Markdown body, with every placeholder filled."""
    where = CARDS_DIR / TEMPLATE_NAME
    try:
        _, header_text, body = card_template(TEMPLATE_NAME).template.split("---", 2)
    except ValueError:
        raise CLSDError(f"{where}: the template needs YAML front matter between --- lines.") from None
    header_values = {k: json.dumps(values[k], ensure_ascii=False) for k in _HEADER_KEYS}
    try:
        header = yaml.safe_load(string.Template(header_text).substitute(header_values)) or {}
        header = {key: value for key, value in header.items() if value not in (None, [])}  # no licence, no source: no key
        body = string.Template(body.lstrip("\n")).substitute({k: str(v) for k, v in values.items()})
    except (KeyError, ValueError) as exc:
        raise CLSDError(f"{where}: unknown or malformed placeholder {exc}.") from exc
    return header, body


def _row(values: Sequence[Any]) -> str:
    return " | ".join(str(v) for v in values)


def validation_details(bounds: Mapping[str, Any], by_llm: bool = False) -> str:
    """The card's account of how answers became distractors, per protocol (older runs have none: validated)."""
    needed = bounds["needed"]
    reading = bounds.get("reading") if by_llm else None
    if bounds.get("protocol", "validated") == "paper":
        return (
            "- Protocol: **paper** (as in Michail et al. 2025): the first "
            f"{needed} items parsed from one answer were kept as they are, with no similarity, length or duplicate check. "
            f"Only an answer with fewer than {needed} parsed items was asked again (each such answer is counted in the failure "
            "reasons below when a sentence never got a parseable one)."
            + (" The answer checks did not refuse anything; what they would have refused is counted below." if reading else "")
        )
    return (
        "- Protocol: **validated**. Every distractor is plain text (no HTML/XML tag or comment, code fence, template "
        "placeholder or control character the original does not hold); is non-empty; differs from the original after normalising case, "
        "whitespace and punctuation; differs from the other distractors; has word-level Jaccard to the original in "
        f"[{bounds['min_jaccard']}, {bounds['max_jaccard']}] and a length ratio (characters) in "
        f"[{bounds['min_length_ratio']}, {bounds['max_length_ratio']}]. A sentence with fewer than {needed} valid "
        "distractors was asked again, up to its attempt limit, and otherwise recorded as failed (below)."
        + (_reading_details(reading) if reading else "")
    )


def _checks_off_details(lines: Sequence[str]) -> str:
    """The checks that did not run for a language of this set, and why (a language no segmenter, lexicon or
    identifier reads): what a reader of the set must know before trusting it."""
    if not lines:
        return ""
    return "\n- Checks off for this set's languages:\n" + "\n".join(f"  - {line}" for line in lines)


def _reading_details(reading: Mapping[str, Any]) -> str:
    """The answer checks an LLM run's candidates went through."""
    checks = card_sentences(reading)  # one sentence per check the run had on (clsd_generation.checks.registry)
    return (
        " Each LLM candidate was also read for what a careful reader refuses: "
        + "; ".join(checks)
        + "; a leading label or list number and a trailing remark in another language were stripped first."
    )


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")

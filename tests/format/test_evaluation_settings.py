"""The settings of an evaluation (clsd_format.evaluation_settings): task names as typed, the model's options, bounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_format.evaluation_settings import DataChoice, EvaluationSettings, ModelOptions, split_names
from clsd_format.model_choice import ServedSettings


def test_task_names_comma_separated_or_repeated_are_one_list() -> None:
    assert DataChoice(tasks=("A, B", "C", " ")).task_names() == ["A", "B", "C"]
    assert DataChoice().task_names() is None and split_names([",", ""]) is None


def test_the_models_options_make_one_choice_an_empty_prefix_given_as_none() -> None:
    served = ServedSettings(timeout_s=5.0, prefix="")
    (chosen,) = ModelOptions(endpoint_url="http://127.0.0.1:1/v1", endpoint_model="m", served=served).choices()
    assert chosen.kind == "endpoint" and chosen.served.given() == {"timeout_s": 5.0}
    several = ModelOptions(model=("clsd-baselines/random", "clsd-baselines/char-ngram-tf")).choices()
    assert [c.spec for c in several] == ["clsd-baselines/random", "clsd-baselines/char-ngram-tf"]
    assert [c.spec for c in ModelOptions().choices()] == [None]  # the default, beside the n-gram baseline


def test_the_output_is_a_path_and_bad_sizes_are_refused() -> None:
    assert EvaluationSettings(output="out").output == Path("out")  # type: ignore[arg-type]
    with pytest.raises(CLSDError, match="at least 1"):
        EvaluationSettings(limit=0)

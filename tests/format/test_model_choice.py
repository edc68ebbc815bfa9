"""The model of a run resolved once (clsd_format.model_choice): its kind, and the served settings its kind takes."""

from __future__ import annotations

import pytest

from clsd_format.errors import CLSDError
from clsd_format.evaluation_settings import ModelOptions
from clsd_format.model_choice import ModelChoice, ServedSettings, kind_of


@pytest.mark.parametrize(
    ("spec", "kind"),
    [
        (None, "local"),
        ("clsd-baselines/random", "local"),
        ("endpoint:m@http://127.0.0.1:1/v1", "endpoint"),
        ("rerank:m@http://h", "rerank"),
    ],
)
def test_the_kind_is_read_from_the_name(spec: str | None, kind: str) -> None:
    assert kind_of(spec) == kind == ModelChoice(spec).kind


def test_an_endpoint_by_url_and_name_is_an_endpoint_and_takes_its_settings() -> None:
    chosen = ModelChoice.parse(
        None, endpoint_url="http://127.0.0.1:1/v1", endpoint_model="m", served=ServedSettings(dimensions=8, prefix="")
    )
    assert chosen.kind == "endpoint" and chosen.served.given() == {"dimensions": 8} and not chosen.with_baseline


def test_a_setting_another_kind_takes_is_refused_with_its_option() -> None:
    with pytest.raises(CLSDError, match="--endpoint-retries applies to served models"):
        ModelChoice(None, served=ServedSettings(max_retries=1))
    with pytest.raises(CLSDError, match="--endpoint-prefix applies to embeddings endpoints only"):
        ModelChoice("rerank:m@http://h", served=ServedSettings(prefix="query: "))
    with pytest.raises(CLSDError, match="--endpoint-concurrency must be at least 1"):
        ServedSettings(concurrency=0)


@pytest.mark.parametrize(
    "given",
    [
        {"endpoint_url": "http://127.0.0.1:1/v1"},
        {"endpoint_model": "m"},
        {"endpoint_url": "http://h", "endpoint_model": "m", "model": ("x",)},
    ],
)
def test_an_endpoint_given_apart_needs_its_url_and_model_and_no_other_model(given: dict[str, object]) -> None:
    with pytest.raises(CLSDError, match="an endpoint needs both --endpoint-url and --endpoint-model, and no --model"):
        ModelOptions(**given)  # type: ignore[arg-type]
    assert ModelOptions(endpoint_url="http://h", endpoint_model="m").choices()[0].kind == "endpoint"

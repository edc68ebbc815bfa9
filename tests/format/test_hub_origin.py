"""Who made a generated set's distractors, as its card records it: read strictly, said first in every answer."""

from __future__ import annotations

import pytest

from clsd_format import hub
from clsd_format.data_source import DataSource
from clsd_format.errors import DataError
from clsd_mteb.data_origin import origin_line, plumbing_only


def _header(origin: object) -> dict[str, object]:
    return {hub.MANIFEST_KEY: {"format_version": 1, "tasks": [], hub.DISTRACTORS_KEY: origin}}


def test_the_card_says_who_made_the_distractors() -> None:
    origin = hub.distractor_origin(_header({"backend": "llm", "model": "my-gpt4o", "answered_by": ["gpt-4o-2024-11-20"]}), "c")
    assert origin == hub.DistractorOrigin("llm", "my-gpt4o", ("gpt-4o-2024-11-20",))
    assert origin.describe() == "the LLM my-gpt4o, answering as gpt-4o-2024-11-20"
    assert hub.distractor_origin(_header({"backend": "rules"}), "c").describe() == "rules (no LLM)"  # type: ignore[union-attr]
    assert hub.distractor_origin({hub.MANIFEST_KEY: {"tasks": []}}, "c") is None  # an older card says nothing


@pytest.mark.parametrize(
    "bad", [{"backend": "gpt"}, {"backend": "llm", "model": 4}, {"backend": "llm", "answered_by": "x"}, ["llm"]]
)
def test_a_card_that_records_it_wrongly_is_refused_naming_the_file(bad: object) -> None:
    with pytest.raises(DataError, match="'distractors' must be") as refused:
        hub.distractor_origin(_header(bad), "ds/README.md")
    assert refused.value.file == "ds/README.md"


def test_a_plumbing_only_generator_is_known_by_its_name_with_or_without_a_vendor() -> None:
    assert plumbing_only("stand-in") and plumbing_only("local/SmolLM2-135M-Instruct")
    assert plumbing_only("gpt-4o") is None and plumbing_only(None) is None


def test_the_judged_share_opens_the_answer_with_its_interval() -> None:
    judged = {"model": "gpt-4o", "languages": {"pl": {"valid": 45, "judged": 50}, "uk": {"valid": 40, "judged": 50}}}
    header = _header({"backend": "llm", "model": "gpt-4o-mini", "answered_by": [], "judged": judged})
    origin = hub.distractor_origin(header, "c")
    assert origin is not None and origin.judged_by == "gpt-4o" and origin.judged == (("pl", 45, 50), ("uk", 40, 50))
    line = origin_line(DataSource("hub-folder", location="ds", card=header))
    assert line == (
        "Data: ds (Hub-format folder): distractors by the LLM gpt-4o-mini; judged valid by gpt-4o: "
        "pl 45 of 50 (90.0% [78.6, 95.7]), uk 40 of 50 (80.0% [67.0, 88.8])."
    )
    unjudged = origin_line(DataSource("hub-folder", location="ds", card=_header({"backend": "rules"})))
    assert unjudged.endswith("distractors by rules (no LLM); their validity was not judged (`clsd judge`, `clsd check-sample`).")
    with pytest.raises(DataError, match="judged"):
        hub.distractor_origin(
            _header({"backend": "llm", "judged": {"model": "j", "languages": {"pl": {"valid": 5, "judged": 2}}}}), "c"
        )

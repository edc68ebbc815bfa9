"""What a local model folder declares about itself, each file read by its schema before a loader meets it.

A folder says what it is in several files, written by different libraries: Hugging Face's ``config.json``
(the architecture, the labels of a classifier, and the activation a sentence-transformers ``CrossEncoder``
of before v5 kept there), sentence-transformers' ``config_sentence_transformers.json`` (``model_type``),
``modules.json`` (a ``Pooling`` module makes vectors of texts) and ``sentence_bert_config.json``
(``transformer_task``). The loaders read these loosely: a string where a list belongs is iterated letter by
letter, so ``"architectures": "BertForSequenceClassification"`` would load a cross-encoder as a bi-encoder. Here every
field is checked for its type and its consistency first, each failure one line naming the folder, the file and
the field, and every statement of the folder's kind is gathered: when two disagree the folder is refused, since
loading it either way scores something its author did not make.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clsd_format.errors import CLSDError
from clsd_format.json_files import read_json

CROSS_ENCODER_KIND = "cross-encoder"
BI_ENCODER_KIND = "bi-encoder"
HF_CONFIG = "config.json"
ST_CONFIG = "config_sentence_transformers.json"
MODULES = "modules.json"
MODULE_CONFIG = "sentence_bert_config.json"
CLASSIFIER_SUFFIX = "ForSequenceClassification"
SEQUENCE_CLASSIFICATION = "sequence-classification"
# sentence-transformers' model types, by the kind each one is scored as; any other type gives no scores CLSD reads
ST_MODEL_TYPES = {"SentenceTransformer": BI_ENCODER_KIND, "CrossEncoder": CROSS_ENCODER_KIND}
# sentence-transformers' transformer tasks that settle the kind (others, such as text generation, leave it open)
TRANSFORMER_TASKS = {SEQUENCE_CLASSIFICATION: CROSS_ENCODER_KIND, "feature-extraction": BI_ENCODER_KIND}


class ModelFolderError(CLSDError):
    """A model folder whose files are malformed, inconsistent or contradict each other."""


@dataclass(frozen=True)
class Declaration:
    """One statement of a folder's kind: what says it (``said``, e.g. "a CrossEncoder in ...") and the kind."""

    said: str
    kind: str


@dataclass(frozen=True)
class FolderConfig:
    """What a model folder declares, every field checked (:func:`read_folder_config`).

    ``labels`` is the number of outputs transformers gives a classifier built from ``config.json`` (the length
    of ``id2label``, else ``num_labels``, else its default of two); ``transformer_task`` is sentence-transformers'
    (None when not said), which decides the class its loader builds; ``transformer_files`` the folder of the
    transformers model inside (the folder itself, or its first module's), None when it has no ``config.json``.
    """

    folder: Path
    architectures: tuple[str, ...]
    labels: int
    transformer_task: str | None
    declarations: tuple[Declaration, ...]
    has_config: bool
    has_modules: bool
    transformer_files: Path | None

    @property
    def classifier(self) -> str | None:
        """The ``...ForSequenceClassification`` architecture ``config.json`` names, if any."""
        return next((a for a in self.architectures if a.endswith(CLASSIFIER_SUFFIX)), None)


def _json_type(value: object) -> str:
    """The JSON name of a value's type, as a user reads the file (not Python's)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    names = {str: "a string", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


def field_error(folder: Path, file: str, field: str, must: str, value: object) -> ModelFolderError:
    """The one line for a field of the wrong type or value: folder, file, field, what it must be and what it is."""
    shown = _json_type(value)
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        shown = repr(value) if len(repr(value)) <= 80 else f"{shown} of {len(str(value))} characters"
    return ModelFolderError(f"model folder {folder}: {file} field {field!r} must be {must}, not {shown}")


def _object(folder: Path, name: str) -> dict[str, Any] | None:
    """The JSON object of ``folder/name``, None when the file is absent; any other JSON value is refused."""
    path = folder / name
    if not path.is_file():
        return None
    data = read_json(path, "model configuration")
    if not isinstance(data, dict):
        raise ModelFolderError(f"model folder {folder}: {name} must hold a JSON object, not {_json_type(data)}")
    return data


def _architectures(folder: Path, config: dict[str, Any]) -> tuple[str, ...]:
    """``architectures``: absent or null, else a list of non-empty strings."""
    value = config.get("architectures")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(a, str) and a for a in value):
        bad = value if not isinstance(value, list) else next(a for a in value if not (isinstance(a, str) and a))
        raise field_error(folder, HF_CONFIG, "architectures", "a list of architecture names (strings)", bad)
    return tuple(value)


def _label_index(folder: Path, field: str, value: object) -> int:
    """A label's index as transformers reads it (``int()``): a whole number, written as one or in a string."""
    try:
        index = int(value) if isinstance(value, str | int) and not isinstance(value, bool) else None
    except ValueError:
        index = None
    if index is None or index < 0:
        raise field_error(folder, HF_CONFIG, field, "a map whose label indexes are whole numbers from 0", value)
    return index


def _labels(folder: Path, config: dict[str, Any]) -> int:
    """The number of outputs transformers gives a classifier, once ``id2label``, ``label2id`` and ``num_labels`` agree.

    transformers counts ``id2label`` (a ``num_labels`` beside it that differs gets a warning at most); ``label2id``
    is only its inverse, and without ``id2label`` it is dropped (``num_labels``, else two, decides). A disagreement among them means the
    folder's author and its loader count different outputs, so it is refused rather than resolved.
    """
    id2label, label2id, num_labels = config.get("id2label"), config.get("label2id"), config.get("num_labels")
    if num_labels is not None and (not isinstance(num_labels, int) or isinstance(num_labels, bool) or num_labels < 1):
        raise field_error(folder, HF_CONFIG, "num_labels", "a whole number of at least 1", num_labels)
    if id2label is None:
        if label2id is not None:
            raise ModelFolderError(
                f"model folder {folder}: {HF_CONFIG} gives 'label2id' without 'id2label', which transformers reads the labels from"
            )
        return num_labels if num_labels is not None else 2
    if not isinstance(id2label, dict) or not id2label or not all(isinstance(v, str) for v in id2label.values()):
        raise field_error(folder, HF_CONFIG, "id2label", "a non-empty map from label index to label name", id2label)
    by_index = {_label_index(folder, "id2label", key): name for key, name in id2label.items()}
    if sorted(by_index) != list(range(len(id2label))):
        raise ModelFolderError(
            f"model folder {folder}: {HF_CONFIG} field 'id2label' must number its {len(id2label)} labels 0 to "
            f"{len(id2label) - 1}, not {', '.join(map(str, sorted(by_index)))}"
        )
    if num_labels is not None and num_labels != len(by_index):
        raise ModelFolderError(
            f"model folder {folder}: {HF_CONFIG} says 'num_labels' {num_labels} but 'id2label' names {len(by_index)} labels"
        )
    if label2id is not None:
        if not isinstance(label2id, dict):
            raise field_error(folder, HF_CONFIG, "label2id", "a map from label name to label index", label2id)
        inverse = {name: _label_index(folder, "label2id", index) for name, index in label2id.items()}
        if inverse != {name: index for index, name in by_index.items()}:
            raise ModelFolderError(f"model folder {folder}: {HF_CONFIG} fields 'id2label' and 'label2id' name different labels")
    return len(by_index)


def _string_field(folder: Path, file: str, data: dict[str, Any] | None, field: str) -> str | None:
    value = None if data is None else data.get(field)
    if value is not None and not isinstance(value, str):
        raise field_error(folder, file, field, "a string", value)
    return value


def _modules(folder: Path) -> list[dict[str, Any]]:
    """The modules of ``modules.json`` (none when it is absent): a list of objects, each with its ``type`` (a dotted
    class path) and, where given, the ``path`` of its files as a string."""
    if not (folder / MODULES).is_file():
        return []
    modules = read_json(folder / MODULES, "model configuration")
    if not isinstance(modules, list) or not all(
        isinstance(m, dict) and isinstance(m.get("type"), str) and isinstance(m.get("path", ""), str) for m in modules
    ):
        raise ModelFolderError(
            f"model folder {folder}: {MODULES} must be a list of modules, each an object with its 'type' (a class path) "
            "and its 'path' (a string)"
        )
    return modules


def _declarations(
    folder: Path, config: dict[str, Any] | None, architectures: tuple[str, ...], task: str | None, modules: list[dict[str, Any]]
) -> list[Declaration]:
    """Every statement of the folder's kind, from each file that makes one."""
    said: list[Declaration] = []
    st_type = _string_field(folder, ST_CONFIG, _object(folder, ST_CONFIG), "model_type")
    if st_type is not None and st_type not in ST_MODEL_TYPES:
        raise ModelFolderError(f"model folder {folder} holds a sentence-transformers {st_type}, which CLSD cannot score")
    if st_type is not None:
        said.append(Declaration(f"a {st_type} in {ST_CONFIG}", ST_MODEL_TYPES[st_type]))
    said += [Declaration(f"a {a} in {HF_CONFIG}", CROSS_ENCODER_KIND) for a in architectures if a.endswith(CLASSIFIER_SUFFIX)]
    old_cross_encoder = None if config is None else config.get("sentence_transformers")
    if old_cross_encoder is not None and not isinstance(old_cross_encoder, dict):
        raise field_error(folder, HF_CONFIG, "sentence_transformers", "an object", old_cross_encoder)
    if old_cross_encoder and "activation_fn" in old_cross_encoder:
        said.append(Declaration(f"a CrossEncoder's activation_fn in {HF_CONFIG}", CROSS_ENCODER_KIND))
    if task is not None and task in TRANSFORMER_TASKS:
        said.append(Declaration(f"transformer_task {task!r} in {MODULE_CONFIG}", TRANSFORMER_TASKS[task]))
    if any(m["type"].rsplit(".", 1)[-1] == "Pooling" for m in modules):
        said.append(Declaration(f"a Pooling module in {MODULES}", BI_ENCODER_KIND))
    return said


def read_folder_config(folder: Path) -> FolderConfig:
    """Every file of ``folder`` that declares what the model is, read by its schema; a ModelFolderError on the first
    malformed or inconsistent field, or on a ``config.json`` naming a classifier beside another model."""
    config = _object(folder, HF_CONFIG)
    task = _string_field(folder, MODULE_CONFIG, _object(folder, MODULE_CONFIG), "transformer_task")
    architectures = _architectures(folder, config) if config is not None else ()
    others = [a for a in architectures if not a.endswith(CLASSIFIER_SUFFIX)]
    if others and len(others) < len(architectures):
        raise ModelFolderError(
            f"model folder {folder}: {HF_CONFIG} declares both a classifier over pairs and another model "
            f"({', '.join(architectures)}); one set of weights is one of them"
        )
    modules = _modules(folder)
    first = folder / modules[0].get("path", "") if modules else folder  # sentence-transformers' first module: the transformer
    return FolderConfig(
        folder=folder,
        architectures=architectures,
        labels=_labels(folder, config) if config is not None else 2,
        transformer_task=task,
        declarations=tuple(_declarations(folder, config, architectures, task, modules)),
        has_config=config is not None,
        has_modules=(folder / MODULES).is_file(),
        transformer_files=folder if config is not None else first if (first / HF_CONFIG).is_file() else None,
    )


def declared_kind(declared: FolderConfig) -> str:
    """``"cross-encoder"`` or ``"bi-encoder"``: the one kind every declaration gives; a ModelFolderError when two differ.

    A cross-encoder must give one score per pair, so a classifier of more than one label is refused too (CLSD
    would meet several scores per pair at the first batch). With no declaration, a ``modules.json`` or a bare
    ``config.json`` is a bi-encoder (sentence-transformers adds mean pooling to a plain transformers encoder).
    """
    folder = declared.folder
    by_kind = {kind: [d.said for d in declared.declarations if d.kind == kind] for kind in (BI_ENCODER_KIND, CROSS_ENCODER_KIND)}
    if by_kind[BI_ENCODER_KIND] and by_kind[CROSS_ENCODER_KIND]:
        raise ModelFolderError(
            f"model folder {folder} declares {' and '.join(by_kind[BI_ENCODER_KIND])} (a bi-encoder) but "
            f"{' and '.join(by_kind[CROSS_ENCODER_KIND])} (a cross-encoder); which one it is cannot be told"
        )
    if by_kind[CROSS_ENCODER_KIND]:
        if declared.classifier and declared.labels != 1:
            raise ModelFolderError(
                f"model folder {folder}: the cross-encoder's {HF_CONFIG} declares {declared.labels} labels "
                "(id2label, num_labels); CLSD ranks by one relevance score per pair, a classifier of one label"
            )
        return CROSS_ENCODER_KIND
    if by_kind[BI_ENCODER_KIND] or declared.has_modules or declared.has_config:
        return BI_ENCODER_KIND
    raise ModelFolderError(
        f"model folder {folder} is neither a sentence-transformers model nor a cross-encoder "
        f"(no {ST_CONFIG}, {MODULES} or {HF_CONFIG})"
    )

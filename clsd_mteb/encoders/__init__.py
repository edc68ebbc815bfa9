"""mteb encoders this project ships: embedded multilingual models and OpenAI-compatible endpoints.

Each module holds one encoder and its ``ModelMeta``; an embedded model's module declares it once as a
``MODEL`` (:class:`~clsd_mteb.encoders.common.ModelSpec`: name, metadata with its loader, the extra it
needs), which an entry point of clsd-mteb's ``pyproject.toml`` names (group ``clsd_mteb.models``, as another
package's model is named), :data:`clsd_mteb.models.MODELS` gathers and ``import clsd_mteb`` registers with mteb. :func:`clsd_mteb.models.load_model` is the one place that finds them by name. ``folder_config`` reads what
a local model folder declares (its kind, its labels), each file by its schema, before a loader meets it.
"""

"""mteb encoders this project ships: embedded multilingual models and OpenAI-compatible endpoints.

Each module holds one encoder and its ``ModelMeta``; :func:`clsd_mteb.models.load_model` is the one
place that finds them by name.
"""

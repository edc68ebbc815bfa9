"""Build new CLSD datasets from any parallel corpus (package ``clsd_generation``; see ``docs/generation.md``).

What the commands ``clsd generate``, ``translate``, ``judge``, ``check-sample``, ``check-import``, ``build`` and
``push-dataset`` (declared in :mod:`clsd_cli`) call: reading parallel corpora; the three ways to write distractors (LLM
live, OpenAI Batch API, rules) with the paper's prompt, answer parsing, validation and the checks of an LLM's
answers; the resumable checkpoint; the English pivot (M2M-100/NLLB or an LLM endpoint); the judge model's
reading; and building, describing (the dataset card) and publishing the dataset. The subpackages are layers,
lowest first: ``core``, ``checks``, ``jobs``, ``llm`` and ``rules``, ``dataset`` and ``run`` (docs/architecture.md).

Standalone on purpose: nothing here imports mteb or torch except the optional English-pivot step
(:mod:`clsd_generation.dataset.pivot`), so generating distractors on a laptop or a CPU-only server stays cheap.
"""

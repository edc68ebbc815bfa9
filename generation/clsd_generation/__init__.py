"""Build new CLSD datasets from any parallel corpus (package ``clsd_generation``; see ``docs/generation.md``).

Holds the commands ``clsd generate``, ``translate``, ``judge``, ``sample`` and ``import-sample`` (``build``
and ``push`` call this package's building and publishing from :mod:`clsd_cli`, which adds what the plugin
makes: the card's difficulty and the Hub's ``eval.yaml``); reading parallel corpora; the three ways to write distractors (LLM live, OpenAI Batch
API, rules) with the paper's prompt, answer parsing, validation and the checks of an LLM's answers; the
resumable checkpoint; the English pivot (M2M-100/NLLB or an LLM endpoint); the judge model's reading; and
building, describing (the dataset card) and publishing the dataset.

Standalone on purpose: nothing here imports mteb or torch except the optional English-pivot step
(:mod:`clsd_generation.dataset.pivot`), so generating distractors on a laptop or a CPU-only server stays cheap.
"""

from clsd_format.moved_modules import register_moves

# Modules that moved into subpackages: their old paths import for one release, with a DeprecationWarning.
register_moves(
    {
        "clsd_generation.backend": "clsd_generation.run.backend",
        "clsd_generation.generate": "clsd_generation.run.generate",
        "clsd_generation.jobs": "clsd_generation.run.jobs",
        "clsd_generation.checkpoint": "clsd_generation.run.checkpoint",
        "clsd_generation.run_lock": "clsd_generation.run.lock",
        "clsd_generation.report": "clsd_generation.run.summary",
        "clsd_generation.settings": "clsd_generation.run.settings",
        "clsd_generation.inputs": "clsd_generation.run.inputs",
        "clsd_generation.languages": "clsd_generation.run.language_args",
        "clsd_generation.llm_backend": "clsd_generation.llm.live",
        "clsd_generation.batch_backend": "clsd_generation.llm.batch",
        "clsd_generation.llm_translate": "clsd_generation.llm.translate",
        "clsd_generation.judge": "clsd_generation.llm.judge",
        "clsd_generation.judge_calibration": "clsd_generation.llm.judge_calibration",
        "clsd_generation.prompts": "clsd_generation.llm.prompts",
        "clsd_generation.parsing": "clsd_generation.llm.parsing",
        "clsd_generation.validation": "clsd_generation.checks.candidates",
        "clsd_generation.answer_checks": "clsd_generation.checks.answers",
        "clsd_generation.build": "clsd_generation.dataset.builder",
        "clsd_generation.card": "clsd_generation.dataset.card",
        "clsd_generation.stats": "clsd_generation.dataset.statistics",
        "clsd_generation.publish": "clsd_generation.dataset.hub_push",
        "clsd_generation.pivot": "clsd_generation.dataset.pivot",
        "clsd_generation.human_check": "clsd_generation.dataset.human_check",
        "clsd_generation.rules_backend": "clsd_generation.rules.backend",
        "clsd_generation.rules.common": "clsd_generation.rules.any_language",
    }
)

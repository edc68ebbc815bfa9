"""Build new CLSD datasets from any parallel corpus (see ``docs/generation.md``).

Standalone on purpose: nothing here imports mteb or torch except the optional English-pivot step
(:mod:`clsd_generation.pivot`), so generating distractors on a laptop or a CPU-only server stays cheap.
"""

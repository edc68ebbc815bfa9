"""The paper's analyses of CLSD results: what ``clsd analyze`` writes (package ``clsd_analysis``).

Reads a results folder of ``clsd evaluate`` (results and per-row predictions) and the tasks' texts, and
computes Table 1, direct-versus-pivot disagreements, successful distractors by edit similarity, examples
of successful distractors, distractor statistics and one-word changes by part of speech; renders them as
tables (Markdown, LaTeX, CSV), figures (PNG, PDF) and one Markdown report (:mod:`clsd_analysis.report`).
Method and options: ``docs/analysis.md``.
"""

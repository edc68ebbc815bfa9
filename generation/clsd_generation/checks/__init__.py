"""Checks of distractor candidates: the automatic validation and the checks of an LLM's answers."""

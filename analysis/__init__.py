"""Analyses of CLSD results (see README)."""

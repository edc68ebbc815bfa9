"""The CLSD data format, shared by the mteb plugin (``clsd_mteb``) and the generator (``clsd_generation``).

Kept free of mteb and torch so that generating a dataset never pays for them.
"""

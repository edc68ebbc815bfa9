"""The bottom layer of the generator: a run's records and settings, which every other layer reads.

The parallel corpus as read (:mod:`.inputs`), the settings (:mod:`.settings`), the checkpoint and its lock
(:mod:`.checkpoint`, :mod:`.lock`), what an answer did to a sentence (:mod:`.outcomes`), the run's summary
(:mod:`.summary`), the run's languages (:mod:`.languages`) and the one strict reading of every LLM answer
(:mod:`.reading`). Nothing here imports another subpackage of :mod:`clsd_generation`.
"""

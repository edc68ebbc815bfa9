"""The top of ``clsd generate``: the run loop (:mod:`.generate`) and the backends by name (:mod:`.backends`)."""

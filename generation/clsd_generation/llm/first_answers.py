"""The first answers of a run, read for the model they name before more requests are paid for.

A provider may answer every request with another model than the one asked for, by habit rather than by accident:
Azure OpenAI names the model behind a deployment (``gpt-4o-2024-11-20`` when asked for the deployment ``my-gpt4o``).
Each such answer is refused (:func:`clsd_generation.core.reading.answered_as_asked`), so such a run would pay for
every request and keep nothing. :class:`FirstAnswers` holds back every request after the first ones of a run (one
round of the concurrency: at most ``concurrency`` requests, at most :data:`FIRST_REQUESTS`, at most one per item to
ask) until those have ended. When every answer among them names another model (one the user did not accept by name),
the run stops there with one line naming the model the server reported and the option that accepts it
(:class:`AnotherModelAnswers`, exit status 2); no further request is sent. One answer of the model asked for, or of
an unnamed one, lets the run go on at once; first requests that got no answer at all decide nothing.
"""

from __future__ import annotations

import asyncio
import functools
import shlex
from collections import Counter
from dataclasses import dataclass, field

from clsd_format.declared_settings import option_name
from clsd_format.errors import CLSDError
from clsd_generation.core.reading import answered_as_asked, model_shown
from clsd_generation.core.settings import LLMSettings

FIRST_REQUESTS = 20  # at most this many requests are paid for before the first answers' models are read


class AnotherModelAnswers(CLSDError):
    """Every first answer of a run named another model than the one asked for: the run stopped before sending more."""


@dataclass(eq=False)
class FirstAnswers:
    """The gate of a run's first ``size`` requests: the ones after them wait until those have ended and decided."""

    asked: str
    accepted: tuple[str, ...]
    size: int
    sent: int = 0
    ended: int = 0
    others: Counter[str] = field(default_factory=Counter)  # the first answers, by the other model each named
    stop: AnotherModelAnswers | None = None
    _decided: asyncio.Event = field(default_factory=asyncio.Event)  # made inside the run's event loop

    @classmethod
    def of_run(cls, asked: str, accepted: tuple[str, ...], concurrency: int, items: int) -> FirstAnswers:
        """The gate of a run of ``items`` items asked ``concurrency`` at a time."""
        return cls(asked, accepted, max(1, min(concurrency, FIRST_REQUESTS, items)))

    async def before_request(self) -> None:
        """Let one request go: at once among the first ones or once they decided to go on; raises
        :class:`AnotherModelAnswers` once they decided to stop."""
        if not self._decided.is_set() and self.sent >= self.size:
            await self._decided.wait()
        if self.stop is not None:
            raise self.stop
        self.sent += 1

    def answered(self, model: str | None) -> None:
        """A request sent has an answer naming ``model`` (None: none named)."""
        if self._decided.is_set():
            return
        if answered_as_asked(self.asked, model, self.accepted):
            self._decided.set()  # the model asked for answers: every waiting request goes
            return
        self.others[str(model)] += 1
        self._end()

    def unanswered(self) -> None:
        """A request sent got no answer (a failure after retries): it says nothing of the model."""
        if not self._decided.is_set():
            self._end()

    def _end(self) -> None:
        self.ended += 1
        if self.ended < self.size:
            return
        if self.others:
            self.stop = AnotherModelAnswers(self.line())
        self._decided.set()

    def line(self) -> str:
        """The one line a stopped run ends with: the model(s) the server named, the requests paid, how to accept them."""
        ordered = [name for name, _ in sorted(self.others.items(), key=lambda kv: (-kv[1], kv[0]))]
        named = ", ".join(f"{model_shown(name)} ({self.others[name]})" for name in ordered)
        option = functools.partial(option_name, LLMSettings)
        accept = " ".join(f"{option('accepted_models')} {shlex.quote(model_shown(name))}" for name in ordered)
        answers = sum(self.others.values())
        return (
            f"the first {answers} answer(s) all named another model than {model_shown(self.asked)} ({option('model')}): "
            f"{named}. "
            f"Stopped after {self.sent} request(s), before sending more. If that is the model you asked for (a deployment "
            f"or an alias answers with the name of the model behind it), run the same command with {accept}; "
            f"else check {option('model')} and {option('base_url')}."
        )

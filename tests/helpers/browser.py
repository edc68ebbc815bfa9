"""Headless Chromium driven through the DevTools protocol over a pipe: standard library only, no port, no download.

Chromium reads protocol messages from file descriptor 3 and writes its answers to 4
(``--remote-debugging-pipe``), each a JSON object ended by a NUL byte; a page is driven through a session
attached to its target. The flags keep a root, offline, sandbox-less headless run quiet: without the
background-networking ones, Chromium's own connections are refused by a closed network and it logs them.

The browser is Debian's ``chromium`` (``make browser`` installs it where apt-get can); ``$CHROMIUM`` names
another build. Also a command, for the documentation's screenshot of the explorer::

    python -m tests.helpers.browser report/report.html explorer.png [SELECT_ID=VALUE ...]
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
)
MISSING = (
    "the HTML report's browser test needs Chromium and none was found: run `make browser` (installs Debian's "
    "chromium with apt-get), install it yourself (apt-get install chromium), or set CHROMIUM to a Chromium binary; "
    "or leave these tests out with -m 'not browser'"
)


class BrowserError(RuntimeError):
    """Chromium is missing, did not answer in time, or answered with an error."""


def find_chromium() -> str:
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "/usr/bin/chromium"):
        found = candidate and shutil.which(candidate)
        if found:
            return found
    raise BrowserError(MISSING)


class Chromium:
    """One headless Chromium with one page; a context manager that closes it."""

    def __init__(self, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="clsd-chromium-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def child_fds() -> None:
            """In the child: the pipe ends at exactly 3 (Chromium's input) and 4 (its output), inherited across exec.

            Both are first copied above 10 (closed at exec), so neither dup2 can overwrite the other's source.
            """
            source, sink = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (commands_read, answers_write))
            os.dup2(source, 3)
            os.dup2(sink, 4)

        # close_fds=False: every other descriptor of this process is close-on-exec already (PEP 446).
        self._process = subprocess.Popen(
            [find_chromium(), *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=child_fds,
        )
        os.close(commands_read)
        os.close(answers_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []  # every event the page's session sent (Network.* once enabled)
        self.session = ""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable")

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                raise BrowserError(f"Chromium gave no answer within {self.timeout:.0f} s")
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe (exit status {self._process.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        decoded = json.loads(message)
        if "method" in decoded:
            self.events.append(decoded)
        return decoded

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command (to the page's session once attached) and return its result."""
        self._next_id += 1
        request: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session:
            request["sessionId"] = self.session
        os.write(self._commands, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._message(deadline)
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for(self, event: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._message(deadline)
            if message.get("method") == event:
                return message.get("params", {})

    def open(self, path: Path, width: int = 1100, height: int = 1500) -> None:
        """Load a local file at a desktop window size and wait for its load event."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=path.resolve().as_uri())
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited); a thrown error is raised."""
        answer = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in answer:
            raise BrowserError(f"the page threw: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def choose(self, select_id: str, value: str) -> None:
        """Pick an option of a <select> as a person would: set it and fire its change event."""
        self.evaluate(
            f"(() => {{ const s = document.getElementById({json.dumps(select_id)}); s.value = {json.dumps(value)};"
            " s.dispatchEvent(new Event('change')); return s.value; })()"
        )

    def screenshot(self, path: Path, selector: str | None = None) -> Path:
        """A PNG of the page (from the element ``selector`` down to the window's bottom edge, when given)."""
        params: dict[str, Any] = {"format": "png"}
        if selector is not None:
            top = self.evaluate(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().top + scrollY")
            size = self.call("Page.getLayoutMetrics")["cssVisualViewport"]
            params["clip"] = {"x": 0, "y": top, "width": size["clientWidth"], "height": size["clientHeight"], "scale": 1}
            params["captureBeyondViewport"] = True
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", **params)["data"]))
        return path

    def close(self) -> None:
        try:
            self.session = ""
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        for fd in (self._commands, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()


def main(argv: list[str]) -> None:
    """Screenshot the explorer of a report.html, after choosing the given SELECT_ID=VALUE options."""
    html, png, *choices = argv
    with Chromium() as browser:
        browser.open(Path(html))
        browser.evaluate("window.clsdExplorerReady.then(() => true)")
        for choice in choices:
            select_id, _, value = choice.partition("=")
            browser.choose(select_id, value)
        browser.screenshot(Path(png), "#explorer")


if __name__ == "__main__":
    main(sys.argv[1:])

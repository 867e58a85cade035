"""One long-lived thread that runs the calls given to it in turn: speaker identification beside
the hearing stage, partial transcripts beside the listener. A call that fails is logged (by its
exception's type only: the words heard stay out of the log) and the worker goes on."""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, what: str) -> None:
        self._what = what
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=what.replace(" ", "-"))

    def submit(self, fn, *args) -> Future:
        """Run fn(*args) after the calls before it; result(future) waits for its value."""
        return self._pool.submit(fn, *args)

    def run(self, fn, *args) -> None:
        """Run fn(*args) after the calls before it; nobody waits for it."""
        self._pool.submit(self._logged, fn, args)

    def result(self, future: Future):
        """The call's value; None if it failed."""
        try:
            return future.result()
        except Exception as exc:
            self._failed(exc)
            return None

    def _logged(self, fn, args) -> None:
        try:
            fn(*args)
        except Exception as exc:
            self._failed(exc)

    def _failed(self, exc: Exception) -> None:
        log.error("%s failed (%s)", self._what, type(exc).__name__)
        log.debug("%s failed", self._what, exc_info=exc)

    def close(self) -> None:
        """No more calls: one queued is dropped, one running finishes on its own."""
        self._pool.shutdown(wait=False, cancel_futures=True)

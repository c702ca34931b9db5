"""Worker processes for the per-skill stages: started on first use, shared by every stage of a build.

Results come back in the order of the inputs, whichever process ran them, so a build with N workers
gives the same bytes as a build with one. Small batches run in this process: starting workers costs
more than it saves.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from types import FrameType
from typing import Any

MIN_PARALLEL = 48  # items; below this, work runs in this process
WINDOW_PER_WORKER = 64  # items in flight per worker: bounds the jobs and results held at once
# The cyclic collector's thresholds while a build runs: (generation 0 allocations, then 1, then 2). Python's
# (700, 10, 10) suits programs that make and drop objects; a build makes millions it keeps (every cached analysis
# unpickled, every card and key), and each collection walks them again. At 10,000 skills, one changed skill:
# 10.8 s with Python's thresholds, 8.7 s with these (medians of 3), peak memory 681 and 666 MB
# (bench/gc_thresholds.py).
BUILD_COLLECTION_THRESHOLDS = (100_000, 50, 100)


class Workers:
    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def started(self) -> bool:
        """Whether worker processes are running (started on first use, until close)."""
        return self._pool is not None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map(
        self,
        function: Callable[..., Any],
        items: Sequence[Any],
        shared: tuple = (),
        progress: Callable[[int, int], None] | None = None,
    ) -> list[Any]:
        """[function(item, *shared) for item in items], in worker processes when it pays."""
        if self.jobs == 1 or len(items) < MIN_PARALLEL:
            results = []
            for index, item in enumerate(items):
                results.append(function(item, *shared))
                if progress:
                    progress(index + 1, len(items))
            return results
        pool = self._start()
        window = self.jobs * WINDOW_PER_WORKER
        results = []
        for start in range(0, len(items), window):
            batch = items[start : start + window]
            chunk = max(1, len(batch) // (self.jobs * 4))
            with _interrupts_held():
                answers = pool.map(function, batch, *([value] * len(batch) for value in shared), chunksize=chunk)
            results.extend(answers)
            if progress:
                progress(min(len(items), start + window), len(items))
        return results

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver, not fork: a build may run beside threads (serve's watcher), and forking a
            # threaded process can deadlock; the server imports the package once for every worker.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["registry.skill_jobs"])
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context, initializer=start_worker)
        return self._pool


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """The collector runs less often while the build keeps what it allocates (BUILD_COLLECTION_THRESHOLDS), and as
    before once it returns: `serve` and library callers keep their own settings."""
    previous = gc.get_threshold()
    gc.set_threshold(*BUILD_COLLECTION_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl+C waits while work is handed to the pool, and arrives as soon as it is handed over.

    The first hand-over starts the pool's processes and its manager thread. An interrupt landing between the
    thread's creation and its start left a pool that could not be shut down ("cannot join thread before it is
    started"), and the workers it had started kept the process from exiting. Blocking the signal with
    pthread_sigmask does not hold it: the mask is per thread, and the kernel hands a process-wide SIGINT to
    any thread that does not block it (serve's HTTP thread, a pool's threads), after which Python still raises
    it in this one. So the Python-level handler is swapped for one that only notes the signal, and the handler
    it replaced is run once the work is handed over, while the results are awaited.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # Python runs signal handlers in the main thread only: nothing to hold here
        return
    noted: list[FrameType | None] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if noted:
            _deliver_interrupt(previous, noted[0])


def _deliver_interrupt(handler: Any, frame: FrameType | None) -> None:
    """What SIGINT would have done under `handler`: run it (raising KeyboardInterrupt by default), or end the
    process when the handler is the system default; an ignored signal stays ignored."""
    if callable(handler):
        handler(signal.SIGINT, frame)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signal.SIGINT)


def start_worker() -> None:
    """A worker collects as the build process does (BUILD_COLLECTION_THRESHOLDS), and ignores Ctrl+C: a terminal
    sends it to the whole process group, and the build process decides.

    Were a worker to take it, one idle in the pool's queue would die with a traceback of its own, and
    the pool would be marked broken under the build; the build process instead stops handing out work
    and waits for the skills already started, each bounded by its time limit.
    """
    gc.set_threshold(*BUILD_COLLECTION_THRESHOLDS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

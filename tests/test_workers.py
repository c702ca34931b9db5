"""The worker pool: results in order, and a Ctrl+C at the worst moment still leaves a pool that shuts down."""

import concurrent.futures.process as futures_process
import gc
import os
import signal
import threading
import time

from registry.workers import BUILD_COLLECTION_THRESHOLDS, MIN_PARALLEL, Workers, fewer_collections


def _square(number: int, offset: int) -> int:
    return number * number + offset


def test_results_come_back_in_the_order_of_the_inputs():
    items = list(range(MIN_PARALLEL * 3))
    with Workers(2) as workers:
        assert workers.map(_square, items, (1,)) == [n * n + 1 for n in items]


def _collection_thresholds(_: int) -> tuple[int, ...]:
    return gc.get_threshold()


def test_the_build_and_its_workers_collect_less_often_and_the_caller_keeps_its_settings():
    """A build keeps most of what it allocates: its process and its workers use the build's collector thresholds,
    and whoever called the build gets its own back."""
    previous = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        with fewer_collections():
            assert gc.get_threshold() == BUILD_COLLECTION_THRESHOLDS
            with Workers(2) as workers:
                seen = workers.map(_collection_thresholds, list(range(MIN_PARALLEL)))
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*previous)
    assert set(seen) == {BUILD_COLLECTION_THRESHOLDS} != {previous}


def _interrupt_while_the_manager_thread_starts(monkeypatch, interrupt) -> list[int] | BaseException:
    """Runs a first hand-over with `interrupt()` called between the manager thread's creation and its start
    (where an interrupt seen under load in `serve` left a pool that could not be shut down), then closes the
    pool and checks that it closed: its thread joined, its processes gone. Returns the map's results or what
    it raised."""
    start = futures_process._ExecutorManagerThread.start

    def interrupted_start(thread):
        interrupt()
        start(thread)

    monkeypatch.setattr(futures_process._ExecutorManagerThread, "start", interrupted_start)
    workers = Workers(2)
    items = list(range(MIN_PARALLEL))
    try:
        outcome = workers.map(_square, items, (0,))
    except KeyboardInterrupt as interrupted:
        outcome = interrupted
    pool = workers._pool
    processes = list((pool._processes or {}).values()) if pool is not None else []
    try:
        workers.close()  # raised "cannot join thread before it is started" when the interrupt landed in start()
    finally:
        for process in processes:  # a pool left half-started must not keep this test process from exiting
            if process.is_alive():
                process.kill()
    assert pool is not None and workers._pool is None
    manager = pool._executor_manager_thread
    assert manager is None or not manager.is_alive()
    assert processes and not any(process.is_alive() for process in processes)
    return outcome


def test_the_sigint_handler_running_during_the_hand_over_raises_only_once_the_work_is_handed_over(monkeypatch):
    """What Python does when SIGINT reaches any thread: it runs the handler in the main thread at the next
    instruction. Run here synchronously, so the moment is exact."""
    outcome = _interrupt_while_the_manager_thread_starts(
        monkeypatch, lambda: signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
    )
    assert isinstance(outcome, KeyboardInterrupt)


def test_a_real_sigint_delivered_to_another_thread_during_the_hand_over_is_held(monkeypatch):
    """The kernel gives a process-wide signal to any thread that does not block it (serve's HTTP thread is one),
    so blocking it in the main thread alone did not hold it: the build's interrupt came in start() anyway."""
    release = threading.Event()
    bystander = threading.Thread(target=release.wait, daemon=True)
    bystander.start()

    def signal_the_bystander():
        signal.pthread_kill(bystander.ident, signal.SIGINT)
        time.sleep(0.05)  # the bystander's C handler trips the flag; the main thread then runs Python's handler

    try:
        outcome = _interrupt_while_the_manager_thread_starts(monkeypatch, signal_the_bystander)
    finally:
        release.set()
        bystander.join()
    assert isinstance(outcome, KeyboardInterrupt)


def test_an_ignored_sigint_stays_ignored_and_the_work_completes(monkeypatch):
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        outcome = _interrupt_while_the_manager_thread_starts(monkeypatch, lambda: os.kill(os.getpid(), signal.SIGINT))
    finally:
        signal.signal(signal.SIGINT, previous)
    assert outcome == [n * n for n in range(MIN_PARALLEL)]


def test_a_handler_of_the_callers_own_runs_after_the_hand_over(monkeypatch):
    """`serve` installs its own SIGINT handler: it must still run, once, with the work handed over."""
    calls = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        outcome = _interrupt_while_the_manager_thread_starts(
            monkeypatch, lambda: signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    assert calls == [signal.SIGINT]
    assert outcome == [n * n for n in range(MIN_PARALLEL)]

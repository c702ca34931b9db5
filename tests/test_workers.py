"""The worker pool: results in order, and a Ctrl+C at the worst moment still leaves a pool that shuts down."""

import concurrent.futures.process as futures_process
import os
import signal

import pytest

from registry.workers import MIN_PARALLEL, Workers


def _square(number: int, offset: int) -> int:
    return number * number + offset


def test_results_come_back_in_the_order_of_the_inputs():
    items = list(range(MIN_PARALLEL * 3))
    with Workers(2) as workers:
        assert workers.map(_square, items, (1,)) == [n * n + 1 for n in items]


def test_ctrl_c_while_the_pool_starts_its_manager_thread_leaves_a_pool_that_shuts_down(monkeypatch):
    """The interrupt lands between the manager thread's creation and its start (seen under load in `serve`):
    it is held until the work is handed over, then raised, and closing the pool joins a started thread."""
    start = futures_process._ExecutorManagerThread.start

    def interrupted_start(thread):
        os.kill(os.getpid(), signal.SIGINT)  # a real signal: Python raises it at the next instruction it runs
        start(thread)

    monkeypatch.setattr(futures_process._ExecutorManagerThread, "start", interrupted_start)
    workers = Workers(2)
    with pytest.raises(KeyboardInterrupt):
        workers.map(_square, list(range(MIN_PARALLEL)), (0,))
    pool = workers._pool
    workers.close()  # raised "cannot join thread before it is started" when the interrupt landed in start()
    assert workers._pool is None and pool is not None
    assert all(not process.is_alive() for process in (pool._processes or {}).values())

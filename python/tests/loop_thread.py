"""A service on a thread of its own — its own GLib main context and loop — so the test thread may block in a call
while the service answers it (a guard provider, a stand-in for the daemon)."""

from __future__ import annotations

import threading

from gi.repository import GLib


class LoopThread:
    """Subclasses build what the loop serves in :meth:`serve` (on the thread, its context the thread's default) and
    release it in :meth:`release`; :meth:`start` returns once the loop runs, raising what ``serve`` raised."""

    def __init__(self, name: str, bound: float) -> None:
        self._bound = bound
        self._context: GLib.MainContext | None = None
        self._loop: GLib.MainLoop | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)

    def serve(self) -> None:
        raise NotImplementedError

    def release(self) -> None:
        pass

    def _main(self) -> None:
        self._context = GLib.MainContext()
        self._context.push_thread_default()
        try:
            self.serve()
            self._loop = GLib.MainLoop(self._context)
            self._ready.set()
            self._loop.run()
        except BaseException as error:  # noqa: BLE001 - reported to the test by start()
            self._failure = error
            self._ready.set()
        finally:
            self.release()
            self._context.pop_thread_default()

    def start(self):
        self._thread.start()
        assert self._ready.wait(self._bound), f"{self._thread.name} did not start"
        if self._failure is not None:
            raise self._failure
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.quit()
        self._thread.join(self._bound)

"""asyncio support: iterating the GLib main context from asyncio.

Debian 12's PyGObject (3.42) has no asyncio integration (``gi.events`` came with 3.50), so while at least one
coroutine awaits a condition (``wait_for_async``, ``async for`` over a change stream), one pump task per asyncio
loop runs ``GLib.MainContext.iteration(True)`` in the loop's default executor: that thread blocks in GLib's own
poll until a D-Bus message or timer is due (no busy polling), dispatches it (the signal handlers only record
what arrived), and the waiting coroutines then look at their conditions on the asyncio thread. When the last one
is done, the pump wakes the context (``wakeup()``) and stops; synchronous waits can run again.

Do not run a ``GLib.MainLoop`` on the same context at the same time (a GTK application uses the callbacks:
``Window.follow``, ``Window.when``).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any, Callable, Optional, Sequence, Tuple

from gi.repository import GLib

from .errors import Timeout

_PUMPS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict]" = weakref.WeakKeyDictionary()


class Pump:
    """Iterates one GLib main context for one asyncio loop while something awaits."""

    def __init__(self, context: GLib.MainContext, loop: asyncio.AbstractEventLoop) -> None:
        self.context = context
        self.loop = loop
        self.users = 0
        self.task: Optional["asyncio.Task[None]"] = None
        self.tick: "asyncio.Future[None]" = loop.create_future()

    async def _run(self) -> None:
        try:
            while self.users:
                await self.loop.run_in_executor(None, self.context.iteration, True)
                tick, self.tick = self.tick, self.loop.create_future()
                tick.set_result(None)
        except BaseException as error:  # pragma: no cover - the executor failed; wake the waiters with it
            if not self.tick.done():
                self.tick.set_exception(error)
            raise

    async def until(self, condition: Callable[[], bool], timeout: Optional[float], what: str) -> None:
        """Returns once ``condition()`` holds, dispatching the context meanwhile; :class:`Timeout` after
        ``timeout`` seconds."""
        if condition():
            return
        self.users += 1
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())
        try:
            await asyncio.wait_for(self._until(condition), timeout)
        except asyncio.TimeoutError:
            raise Timeout(f"timed out after {timeout} s waiting for {what}", {"waiting_for": what}) from None
        finally:
            self.users -= 1
            if not self.users and self.task is not None:
                self.context.wakeup()  # the executor's iteration returns; the pump task ends
                task = self.task
                try:
                    await task
                except BaseException:  # noqa: BLE001 - the pump's own failure was reported to the waiters
                    pass

    async def _until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await asyncio.shield(self.tick)


def pump(context: Optional[GLib.MainContext] = None) -> Pump:
    """The running asyncio loop's pump of ``context`` (default: the default main context)."""
    loop = asyncio.get_running_loop()
    context = context or GLib.MainContext.default()
    pumps = _PUMPS.setdefault(loop, {})
    key = id(context)
    found = pumps.get(key)
    if found is None:
        found = pumps[key] = Pump(context, loop)
    return found


async def call(proxy: Any, method: str, signature: Optional[str], args: Sequence[Any], timeout_ms: int,
               flags: Any, context: Optional[GLib.MainContext] = None) -> Tuple[Any, ...]:
    """One D-Bus call awaited without blocking the asyncio loop: sent at once, its reply dispatched by the pump.
    The call's own D-Bus timeout (``timeout_ms``) bounds the wait: it ends in the reply or in the typed error."""
    from .client import _call_async  # the one sending path; imported here (client imports this module lazily)
    outcome: dict = {}
    _call_async(proxy, method, signature, args, lambda reply: outcome.setdefault("reply", reply),
                lambda error: outcome.setdefault("error", error), timeout_ms, flags)
    await pump(context).until(lambda: bool(outcome), None, f"the reply to {method}")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["reply"]

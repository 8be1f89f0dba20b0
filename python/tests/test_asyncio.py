"""asyncio: async change streams and waits while navsession.aio iterates the GLib context."""

import asyncio

import pytest

from navsession import Change, commands, errors
from navsession.errors import Timeout


def test_async_for_yields_the_changes_of_calls_made_meanwhile(navsession_window):
    async def main():
        seen = []
        stream = navsession_window.changes_async(timeout=10)
        navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
        navsession_window.call_async("StackAppend", "(sa{ss})", ("about", {}))
        async for change in stream:
            seen.append(change)
            if len(seen) == 2:
                break
        return seen

    seen = asyncio.run(main())
    assert all(isinstance(change, Change) for change in seen)
    assert seen[1].previous_version == seen[0].version


def test_wait_for_async_returns_while_other_tasks_run(navsession_window):
    async def main():
        ticks = []

        async def ticker():
            while True:
                ticks.append(1)
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
        await navsession_window.wait_for_async(screen="home")
        task.cancel()
        return ticks

    assert asyncio.run(main())  # the loop kept running other tasks while waiting
    assert navsession_window.active_screen == "home"


def test_wait_for_async_raises_Timeout(navsession_window):
    with pytest.raises(Timeout):
        asyncio.run(navsession_window.wait_for_async(screen="never", timeout=0.2))


def test_sync_waits_work_again_after_an_async_wait(navsession_window):
    asyncio.run(navsession_window.wait_for_async(version=0))
    navsession_window.call_async("SwitchModel", "(sa{ss})", ("main", {}))
    navsession_window.wait_for(screen="home")


def test_apply_async_changes_the_window_while_other_tasks_run(navsession_window):
    async def main():
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(ticker())
        version, started = await navsession_window.apply_async([commands.switch_model("main")])
        await navsession_window.wait_for_async(version=version)
        task.cancel()
        return version, started, ticks

    version, started, ticks = asyncio.run(main())
    assert version == navsession_window.version and started and ticks > 0


def test_an_awaited_call_raises_the_typed_error(navsession_window):
    with pytest.raises(errors.NothingToDismiss):
        asyncio.run(navsession_window.call_awaitable("Dismiss"))


def test_an_awaited_session_call_returns_its_reply(navsession_session):
    (path,) = asyncio.run(navsession_session.call_awaitable("OpenWindow", "(sa{ss})", ("main", {})))
    assert path.startswith("/org/navsession/Session1/window/")

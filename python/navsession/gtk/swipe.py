"""The main window's left-edge back swipe, in the daemon's two phases (Docs/guards.md, "Back gestures").

A drag that starts within ``EDGE_PX`` of the content's left edge and then moves right asks the daemon first
(``Window1.BeginBack``, a dry run of GoBack with every guard); only when it allows does the page follow the finger.
Released past ``COMMIT_FRACTION`` of the width, the back is committed at the version BeginBack answered
(``Window1.CommitBack``); released short of it, the page goes back and nothing is sent (there is no cancel:
BeginBack reserved nothing). A refused BeginBack never moves the page: the rest of the drag is ignored.

No GTK here: the window view feeds :class:`BackSwipe` the Gtk.GestureDrag's begin, update and end, and the test
hook makes the same calls without a pointer.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

log = logging.getLogger("navsession.gtk.swipe")

EDGE_PX = 24.0  # a press this close to the left edge may start a back swipe
START_PX = 8.0  # the movement after which a press at the edge is a swipe (right) or not (left, or vertical)
COMMIT_FRACTION = 1 / 3  # released past this part of the width: back

# States: no drag; a press at the edge that has not moved far enough yet; BeginBack asked (the page stays);
# allowed (the page follows the finger); refused (the page stays, the rest of the drag is ignored).
IDLE, TRACKING, ASKING, FOLLOWING, REFUSED = "idle", "tracking", "asking", "following", "refused"

# A swipe's outcome (``when_done``): not a back swipe; BeginBack refused it; allowed but let go short of the
# threshold, cancelled or the window moved on; CommitBack sent.
IGNORED, REFUSED_OUTCOME, CANCELLED, COMMITTED = "ignored", "refused", "cancelled", "committed"

OnAllowed = Callable[[int, list], None]
OnRefused = Callable[[Any], None]


class BackSwipe:
    """One window's back swipe.

    ``begin_back(on_allowed, on_refused)`` asks BeginBack (``on_allowed(version, finished)`` or
    ``on_refused(error)``); ``commit_back(version)`` sends CommitBack; ``width()`` is the content's width;
    ``shown_version()`` the version on screen when a swipe may begin there (``None`` when not: nothing shown, or
    a modal window on top); ``on_change()`` runs whenever ``offset`` or ``state`` changed."""

    def __init__(self, begin_back: Callable[[OnAllowed, OnRefused], None], commit_back: Callable[[int], None],
                 width: Callable[[], float], shown_version: Callable[[], Optional[int]],
                 on_change: Callable[[], None]) -> None:
        self._begin_back = begin_back
        self._commit_back = commit_back
        self._width = width
        self._shown_version = shown_version
        self._on_change = on_change
        self.state = IDLE
        self.offset = 0.0  # how far the page is shifted right, in pixels (0 unless allowed)
        self.dx = 0.0  # the drag's horizontal movement so far
        self.shown: Optional[int] = None  # the version on screen when the drag began
        self.version: Optional[int] = None  # BeginBack's version (CommitBack's argument)
        self.finished: list[int] = []  # the models BeginBack says the back would finish
        self.released = False  # let go while BeginBack was on its way: its answer decides
        self._generation = 0  # answers to an older drag are ignored
        self._waiters: list[Callable[[str], None]] = []

    @property
    def active(self) -> bool:
        return self.state != IDLE

    def when_done(self, callback: Callable[[str], None]) -> None:
        """Calls ``callback(outcome)`` once the current (or next) swipe is over."""
        self._waiters.append(callback)

    # -- the gesture ----------------------------------------------------------------------------

    def begin(self, x: float, y: float) -> bool:
        """A press at ``x``, ``y`` (the content's coordinates): whether it may become a back swipe."""
        if self.state != IDLE:
            self.cancel()
        version = self._shown_version()
        if x > EDGE_PX or version is None:
            self._end(IGNORED)
            return False
        self.state, self.shown, self.dx, self.released = TRACKING, version, 0.0, False
        self.version, self.finished = None, []
        self._on_change()
        return True

    def update(self, dx: float, dy: float) -> Optional[bool]:
        """The drag moved by ``dx``, ``dy`` since the press. True: it became a back swipe now (the gesture claims
        the pointer; BeginBack asked); False: it is not one (the gesture lets go); None: nothing new."""
        if self.state == IDLE:
            return None
        self.dx = dx
        if self.state == TRACKING:
            if dx >= START_PX and dx > abs(dy):
                self.state = ASKING
                self._generation += 1
                generation = self._generation
                self._on_change()
                self._begin_back(lambda version, finished: self._allowed(generation, version, finished),
                                 lambda error: self._refused(generation, error))
                return True
            if dx <= -START_PX or abs(dy) >= START_PX:
                self._end(IGNORED)
                return False
            return None
        if self.state == FOLLOWING:
            self._set_offset(dx)
        return None

    def end(self, dx: float, dy: float = 0.0) -> None:
        """Let go after moving ``dx``, ``dy``."""
        if self.state == IDLE:
            return
        self.dx = dx
        if self.state == TRACKING:
            self._end(IGNORED)
        elif self.state == ASKING:
            self.released = True  # BeginBack's answer decides
        elif self.state == FOLLOWING:
            self._release()
        else:
            self._end(REFUSED_OUTCOME)

    def cancel(self) -> None:
        """The gesture was cancelled (or the window goes): the page goes back, any answer on its way is ignored."""
        if self.state == IDLE:
            return
        self._generation += 1
        self._end({TRACKING: IGNORED, REFUSED: REFUSED_OUTCOME}.get(self.state, CANCELLED))

    # -- BeginBack's answer ---------------------------------------------------------------------

    def _allowed(self, generation: int, version: int, finished: list) -> None:
        if generation != self._generation or self.state != ASKING:
            return  # the drag this answers is over
        if version != self.shown:
            # The daemon moved on since the page the user drags was drawn: not that back (its render is coming).
            log.info("back swipe: BeginBack answered version %d, the screen shows %s; not going back",
                     version, self.shown)
            self._end(CANCELLED)
            return
        self.version, self.finished = version, [int(m) for m in finished]
        if self.released:
            self._release()
        else:
            self.state = FOLLOWING
            self._set_offset(self.dx)
            self._on_change()

    def _refused(self, generation: int, _error: Any) -> None:
        if generation != self._generation or self.state != ASKING:
            return
        if self.released:
            self._end(REFUSED_OUTCOME)
        else:
            self.state = REFUSED  # the page stays; the rest of the drag is ignored
            self._on_change()

    # -- helpers --------------------------------------------------------------------------------

    def threshold(self) -> float:
        return max(self._width(), 1.0) * COMMIT_FRACTION

    def _release(self) -> None:
        version = self.version
        if self.dx >= self.threshold() and version is not None:
            # The page goes back to its place: the daemon's pop (its Changed) slides the screen away.
            self._end(COMMITTED)
            self._commit_back(version)
        else:
            self._end(CANCELLED)

    def _set_offset(self, dx: float) -> None:
        offset = min(max(dx, 0.0), max(self._width(), 0.0))
        if offset != self.offset:
            self.offset = offset
            self._on_change()

    def _end(self, outcome: str) -> None:
        self.state, self.offset, self.released = IDLE, 0.0, False
        self._on_change()
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            waiter(outcome)

"""``python3 -m navsession.examples.notes``: runs the Notes application (:func:`navsession.examples.notes.app.main`)."""

from .app import main

raise SystemExit(main())

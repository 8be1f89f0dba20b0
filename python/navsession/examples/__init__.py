"""Example applications built on the ``navsession`` package.

- :mod:`navsession.examples.notes` — *Notes*, a GTK 4 / libadwaita application on :mod:`navsession.gtk`:
  notebooks, a notes list and an editor in a split, search, settings, a new-note sheet whose unsaved text the
  daemon protects, deep links and restore after a crash (Docs/notes-app.md). ``python3 -m
  navsession.examples.notes`` runs it against a running ``navsessiond``.

Nothing here is imported by ``import navsession``.
"""

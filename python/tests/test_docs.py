"""Docs/python.md shows the example script as committed."""

from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def test_docs_python_md_shows_follow_and_push_py_verbatim():
    script = (REPOSITORY / "python/examples/follow_and_push.py").read_text()
    assert "```python\n" + script + "```" in (REPOSITORY / "Docs/python.md").read_text()
    assert len(script.splitlines()) <= 20

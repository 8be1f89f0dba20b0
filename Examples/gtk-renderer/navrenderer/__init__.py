"""NavSession's reference GTK 4 renderer (see ../README.md)."""

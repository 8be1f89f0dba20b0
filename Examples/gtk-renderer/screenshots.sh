#!/usr/bin/env bash
# The reference renderer's pictures: gtk-renderer-*.png and their structure sidecars (gtk-renderer-*.json) into
# Docs/images/, or the directory given as $1. scripts/pictures makes them — with every other picture the
# documentation shows — by running the demo flow under Xvfb against this renderer and saving each window as GTK
# draws it (the hook's Screenshot: Gtk.WidgetPaintable → Gsk → PNG); nothing beyond Xvfb, python3-gi and
# gir1.2-gtk-4.0 is needed. Run from anywhere after `swift build` (or set NAVSESSIOND to the daemon binary).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
exec "${NAVSESSION_PYTHON:-/usr/bin/python3}" "$root/scripts/pictures" --only 'gtk-renderer-*' ${1:+--out "$1"}

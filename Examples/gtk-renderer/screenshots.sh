#!/usr/bin/env bash
# Runs the demo flow under Xvfb with the GTK renderer and saves PNGs of its windows into Docs/images/
# (or the directory given as $1). GTK draws them itself (the hook's Screenshot: Gtk.WidgetPaintable → Gsk →
# PNG), so nothing beyond Xvfb, python3-gi and gir1.2-gtk-4.0 is needed. Run from anywhere after
# `swift build` (or set NAVSESSIOND to the daemon binary).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$(mkdir -p "${1:-$root/Docs/images}" && cd "${1:-$root/Docs/images}" && pwd)"
daemon="${NAVSESSIOND:-$root/.build/debug/navsessiond}"
python="${NAVSESSION_PYTHON:-/usr/bin/python3}"
[ -x "$daemon" ] || { echo "screenshots.sh: build the daemon first (swift build)" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Xvfb picks a free display and writes its number to fd 3 (-displayfd).
exec 3> "$work/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 2>/dev/null &
pids+=($!)
until [ -s "$work/display" ]; do sleep 0.05; done
export DISPLAY=":$(head -1 "$work/display")" GTK_A11Y=none NO_AT_BRIDGE=1

"$daemon" --private-bus --state-dir "$work/state" --log-level warning > "$work/env" &
pids+=($!)
until [ -s "$work/env" ]; do sleep 0.05; done
export "$(head -1 "$work/env")"   # DBUS_SESSION_BUS_ADDRESS=…

"$python" "$here/renderer.py" 2> "$work/renderer.log" &
pids+=($!)

D=--dest=org.navsession.Demo; S=/org/navsession/Session1; W=$S/window/1
send() { dbus-send --print-reply=literal "$D" "$@" > /dev/null; }
hook() { gdbus call --session --dest org.navsession.GtkRenderer --object-path /org/navsession/GtkRenderer \
           --method "org.navsession.GtkRenderer1.$1" "${@:2}"; }
# Waits until the renderer shows window $W at the daemon's version with no transition running.
settled() {
  for _ in $(seq 200); do
    version=$(gdbus call --session --dest org.navsession.Demo --object-path "$W" \
      --method org.freedesktop.DBus.Properties.Get org.navsession.Window1 Version 2>/dev/null | sed -E 's/.*uint64 ([0-9]+).*/\1/')
    if hook Describe 2>/dev/null | "$python" -c '
import ast, json, sys
screen = json.loads(ast.literal_eval(sys.stdin.read())[0])
w = [w for w in screen["windows"] if w["id"] == "window/" + sys.argv[2]]
ok = w and str(w[0]["version"]) == sys.argv[1] and not any(s["transition"] for s in w[0]["stacks"])
sys.exit(0 if ok else 1)' "$version" "${W##*/}"; then sleep 0.3; return 0; fi   # 0.3 s: the modal fade-in
    sleep 0.05
  done
  echo "screenshots.sh: the renderer did not settle; its log:" >&2; cat "$work/renderer.log" >&2; exit 1
}
shot() { hook Screenshot "$1" "$out/$2" > /dev/null && echo "$out/$2"; }
top() { hook Describe | "$python" -c 'import ast, json, sys; print(json.loads(ast.literal_eval(sys.stdin.read())[0])["windows"][0]["top"])'; }

until hook Describe > /dev/null 2>&1; do sleep 0.05; done
send $S org.navsession.Session1.OpenWindow string:main dict:string:string:
settled; shot window/1 gtk-renderer-login.png
send $W org.navsession.Window1.SwitchModel string:main dict:string:string:
send $W org.navsession.Window1.StackAppend string:detail dict:string:string:id,42
settled; shot window/1 gtk-renderer-detail.png
# Back and forward: after GoBack the header shows a Forward button (CanGoForward); GoForward
# pushes the detail again (a new id).
send $W org.navsession.Window1.GoBack
settled; shot window/1 gtk-renderer-forward.png
send $W org.navsession.Window1.GoForward
settled
# Appearance (Docs/renderers.md): the demo's editor declares no back button and no tab bar; SetAppearance makes
# its title large in place.
send $W org.navsession.Window1.StackAppend string:editor dict:string:string:id,42
send $W org.navsession.Window1.SetAppearance string: 'string:{"titleDisplayMode":"large"}' boolean:false
settled; shot window/1 gtk-renderer-appearance.png
send $W org.navsession.Window1.StackDropLast uint32:1
send $W org.navsession.Window1.Present string:sheet+stack string:editor dict:string:string:id,42
settled; shot "$(top)" gtk-renderer-sheet.png
send $W org.navsession.Window1.PresentAlert string:Discard\ changes? string:"The editor has unsaved changes." \
  array:string:keep:Keep\ editing:cancel,discard:Discard:destructive
settled; shot "$(top)" gtk-renderer-alert.png
send $W org.navsession.Window1.Dismiss
send $W org.navsession.Window1.Dismiss
send $S org.navsession.Session1.OpenURL string:navsession-demo://settings/profile?edit=1
send $W org.navsession.Window1.PresentConfirmationDialog string:logout string: array:string: string:
settled; shot "$(top)" gtk-renderer-logout.png
# Guards (Docs/guards.md): unsaved text protects the editor; a deep link from elsewhere shows "Discard changes?".
send $W org.navsession.Window1.Dismiss
# A presentation with a transition: the demo's compose is a sheet with "slide" (from settings
# the manifest's rule makes it "fade"; from home, where the deep link left us, the screen's own "slide").
send $W org.navsession.Window1.TabsSelectItem string:home
send $W org.navsession.Window1.Show string:compose dict:string:string:to,ann
settled; shot "$(top)" gtk-renderer-transition.png
send $W org.navsession.Window1.Dismiss
send $W org.navsession.Window1.Present string:sheet string:editor dict:string:string:id,9
settled
hook Click "$(top)/type/Half-written reply" > /dev/null
sleep 0.5
send $S org.navsession.Session1.OpenURL string:navsession-demo://detail/7 2> /dev/null || true
settled; shot "$(top)" gtk-renderer-guard.png
# The split scene (a custom container of kind split: mailboxes, messages, a message), its
# columns side by side in a wide window, the focused column alone in a narrow one.
send $W org.navsession.Window1.Dismiss 2> /dev/null || true
W=$S/window/2
send $S org.navsession.Session1.OpenWindow string:split dict:string:string:
send $W org.navsession.Window1.SelectChild uint64:0 uint32:2
send $W org.navsession.Window1.StackAppend string:message dict:string:string:id,42
hook Click window/2/resize/960/520 > /dev/null
settled; sleep 0.5; shot window/2 gtk-renderer-split-wide.png
hook Click window/2/resize/420/520 > /dev/null
sleep 0.5; settled; sleep 0.5; shot window/2 gtk-renderer-split-collapsed.png

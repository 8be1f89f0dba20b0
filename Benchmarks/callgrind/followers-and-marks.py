#!/usr/bin/python3
"""Instructions per stack-pair call of an installed navsessiond under callgrind, with N followers of the changed
stack, N pushed screens, or those N screens marked (Docs/performance-history.md, "After Fidelity"; Docs/performance.md, "Current figures").

    Benchmarks/callgrind/followers-and-marks.py NAVSESSIOND none 0 1000
    Benchmarks/callgrind/followers-and-marks.py NAVSESSIOND followers 64 1000
    Benchmarks/callgrind/followers-and-marks.py NAVSESSIOND depth 64 1000
    Benchmarks/callgrind/followers-and-marks.py NAVSESSIOND marks 64 1000

A private dbus-daemon; the daemon under valgrind's callgrind with instrumentation off (and the sigsuspend shim of
this directory), one window logged in; the followers (one Gio connection each, reading on a main loop), pushes or
marks made; 400 warm-up calls of bench-client's stack-pair, then CALLS calls counted (callgrind_control -i on/off).
Needs valgrind, cc and libdbus-1-dev (Debian), python3-gi.
"""
import json, os, subprocess, sys, tempfile, threading, time, glob
from gi.repository import Gio, GLib

daemon, mode, n, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
work = tempfile.mkdtemp(prefix="followers-and-marks-")
here = os.path.dirname(os.path.abspath(__file__))
cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "dbus-1"], capture_output=True, text=True, check=True).stdout.split()
subprocess.run(["cc", "-O2", "-o", f"{work}/bench-client", f"{here}/../echo/bench-client.c", *cflags, "-lm"], check=True)
subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", f"{work}/sigsuspend-copy.so", f"{here}/sigsuspend-copy.c"], check=True)
bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address=1", "--nofork"], stdout=subprocess.PIPE, text=True)
address = bus.stdout.readline().strip()
env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, LD_PRELOAD=f"{work}/sigsuspend-copy.so")
out = f"{work}/cg"
proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}.%p", daemon,
                         "--ephemeral"], env=env, stderr=open(f"{work}/log", "w"))
def conn():
    return Gio.DBusConnection.new_for_address_sync(address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
                                                   Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
main = conn()
def call(c, path, iface, member, args, sig):
    return c.call_sync("org.navsession.Demo", path, iface, member, GLib.Variant(sig, args) if sig else None, None,
                       Gio.DBusCallFlags.NONE, 60000, None).unpack()
deadline = time.time() + 120
while True:
    try:
        (window,) = call(main, "/org/navsession/Session1", "org.navsession.Session1", "OpenWindow", ("main", {}), "(sa{ss})")
        break
    except GLib.Error:
        if time.time() > deadline: raise
        time.sleep(0.5)
W = "org.navsession.Window1"
call(main, window, W, "SwitchModel", ("main", {}), "(sa{ss})")
state = json.loads(call(main, window, W, "GetState", None, None)[0])
(active,) = call(main, window, "org.freedesktop.DBus.Properties", "Get", (W, "ActiveModel"), "(ss)")
stack = next(m["id"] for m in state["models"] if m.get("kind") == "stack" and any(e["model"] == active for e in m.get("path", [])))
holders = []
if mode == "followers":
    for _ in range(n):
        c = conn(); holders.append(c)
        call(c, window, W, "FollowModel", (stack,), "(t)")
elif mode == "marks":
    for _ in range(n):
        call(main, window, W, "StackAppend", ("detail", {"id": "1"}), "(sa{ss})")
        call(main, window, W, "Protect", (0, "bench", ""), "(tss)")
elif mode == "depth":
    # Pushed 500 at a time (one Apply each), so 10 000 take seconds, not minutes, under callgrind.
    for start in range(0, n, 500):
        models = ",".join(['{"screen":"detail","params":{"id":"1"}}'] * min(500, n - start))
        call(main, window, W, "Apply", ('[{"command":"stackAppend","models":[' + models + ']}]', {}), "(sa{ss})")
loop = GLib.MainLoop(); threading.Thread(target=loop.run, daemon=True).start()
bc = lambda count: subprocess.run([f"{work}/bench-client", "sequential", "--dest", "org.navsession.Demo", "--call", "stack-pair",
                                   "--path", window, "--count", str(count)], env=dict(env, LD_PRELOAD=""), check=True,
                                  capture_output=True)
bc(400)
subprocess.run(["callgrind_control", "-i", "on", str(proc.pid)], check=True, capture_output=True)
bc(calls)
subprocess.run(["callgrind_control", "-i", "off", str(proc.pid)], check=True, capture_output=True)
subprocess.run(["callgrind_control", "-d", str(proc.pid)], check=True, capture_output=True)
total = 0
for f in glob.glob(f"{out}.{proc.pid}*"):
    for line in open(f):
        if line.startswith("totals:"): total += int(line.split()[-1])
print(f"{mode} {n}: {total / calls:.0f} instructions per call")
proc.terminate(); proc.wait(); bus.terminate()

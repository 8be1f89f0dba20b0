"""The workload that scripts/generate-order-file and scripts/generate-profile run against an installed navsessiond.

Both lay the daemon's code out for the calls users make, so both must profile the same calls: the README tour
and the reads a renderer makes (start-up and everything that is not the per-command path), rounds of mixed
commands (push, present, alert, dismissals, pop, reads), then Window1 commands as StackAppend/StackDropLast pairs, then Session1.OpenURL deep links into the open window (as
session-benchmark's OpenURL → Changed). Not a script of its own: the two generators import it.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "org.navsession.Demo"
SESSION = "/org/navsession/Session1"
# The project's private-bus config: the bus's compiled-in limits, nothing activatable.
BUS_CONFIG = os.path.join(ROOT, "dbus", "test-session.conf")
# Session1.OpenURL calls made after the commands.
URL_ROUNDS = 300
# Rounds of the mixed commands (push, present, alert, dismissals, pop, reads) in the tour: enough that their
# paths count as run, not as cold, in the profile-guided build; the StackAppend/StackDropLast pairs alone would
# leave the rest of the engine looking cold next to them.
MIXED_ROUNDS = 60


def run(args, **kwargs):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kwargs).stdout.strip()


def compile_c(work, source, output, extra):
    flags = run(["pkg-config", "--cflags", "--libs", "dbus-1"]).split()
    run([os.environ.get("CC", "cc"), "-O2", *extra, os.path.join(ROOT, source), "-o", os.path.join(work, output), *flags, "-lm"])
    return os.path.join(work, output)


def install(work, *options):
    """Installs (scripts/install) under work/stage, unstripped (profiles name functions by the symbol table);
    returns (navsessiond, navsessionctl)."""
    stage = os.path.join(work, "stage")
    subprocess.run([os.path.join(ROOT, "scripts", "install"), "--no-strip", *options, "--destdir", stage,
                    "--prefix", "/usr"],
                   check=True, stdout=subprocess.DEVNULL)
    return os.path.join(stage, "usr", "bin", "navsessiond"), os.path.join(stage, "usr", "bin", "navsessionctl")


def start_bus():
    """A private dbus-daemon; returns (process, environment whose session bus it is)."""
    bus = subprocess.Popen(["dbus-daemon", "--nofork", "--print-address=1", f"--config-file={BUS_CONFIG}"],
                           stdout=subprocess.PIPE, text=True)
    address = bus.stdout.readline().strip()
    return bus, dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address)


def wait_for_name(env, deadline, tool):
    while time.time() < deadline:
        reply = subprocess.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus.NameHasOwner", f"string:{NAME}"], env=env, capture_output=True, text=True)
        if "boolean true" in reply.stdout:
            return
        time.sleep(0.2)
    sys.exit(f"{tool}: {NAME} did not appear on the bus")


def drive(env, client, ctl, calls, phase_done, ctl_env=None):
    """Runs the workload against the daemon owning NAME; calls `phase_done()` after the tour, the commands and
    the deep links (after unmeasured warm-up commands)."""

    def bench(*args):
        return run([client, *args, "--dest", NAME], env=env)

    def tour(*words):
        subprocess.run([ctl, *words], env=dict(env, **(ctl_env or {})), capture_output=True, timeout=120)

    window = bench("once", "--call", "open-window", "--path", SESSION, "--arg", "main")
    number = window.rsplit("/", 1)[-1]
    bench("once", "--call", "switch-model", "--path", window, "--arg", "main")
    tour("exec", number, "stack-append", "detail", "id=42")
    tour("exec", number, "present", "sheet+stack", "editor", "id=42")
    tour("exec", number, "present-alert", "Saved", "All done", "ok:OK", "cancel:Cancel")
    tour("tree", number)
    tour("exec", number, "dismiss")
    tour("open-url", "navsession-demo://settings/profile?edit=1")
    tour("routes", number)
    tour("exec", number, "hide")
    tour("state", number)
    tour("list")
    for _ in range(MIXED_ROUNDS):
        tour("exec", number, "stack-append", "detail", "id=42")
        tour("exec", number, "present", "sheet+stack", "editor", "id=42")
        tour("exec", number, "present-alert", "Saved", "All done", "ok:OK", "cancel:Cancel")
        tour("exec", number, "dismiss")
        tour("exec", number, "dismiss")
        tour("exec", number, "stack-drop-last")
        tour("routes", number, "--json")
        tour("state", number)
    bench("sequential", "--call", "stack-pair", "--path", window, "--count", "500")
    phase_done()
    bench("sequential", "--call", "stack-pair", "--path", window, "--count", str(calls))
    phase_done()
    bench("urlsignal", "--count", str(URL_ROUNDS))
    phase_done()

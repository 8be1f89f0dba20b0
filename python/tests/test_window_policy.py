"""Window policies (Session1 ``SetWindowPolicy``, a scene's ``policy``; Docs/window-policy.md) through the Python
package, against the real daemon: a policy naming ``self`` lets this connection change the window and refuses
another process (a ``gdbus call``: two connections of one process are one client to a policy) with AccessDenied,
while its reads still answer and show the policy; a kiosk window refuses even its author's close until a host client
removes the policy; malformed policies are InvalidArgs and an unknown window UnknownObject; the policy survives
SIGKILL and a restart; a scene's policy is its new windows' (reopened ones too) and a tear-off keeps its source's;
and a client in a bubblewrap sandbox with a ``/.flatpak-info`` is matched by ``app:ID`` — and, not being a host
client, may not manage the policy. Every wait is on a condition (a reply, a signal, the process's exit), never a
sleep; the bounds are generous and claim nothing about latency.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import List, Optional, Sequence

import pytest
from gi.repository import GLib

import navsession
from navsession import commands as c
from navsession import errors
from navsession.testing import TestDaemon

#: How long a test waits for something that is only eventually true: generous, never a latency claim.
BOUND = 30.0
SESSION_PATH = "/org/navsession/Session1"
SESSION_IFACE = "org.navsession.Session1"
WINDOW_IFACE = "org.navsession.Window1"
ACCESS_DENIED = "org.freedesktop.DBus.Error.AccessDenied"
REMOTE_APP = "org.example.Remote"

needs_gdbus = pytest.mark.skipif(shutil.which("gdbus") is None, reason="needs gdbus (Debian: libglib2.0-bin)")

#: A manifest with a scene of tab windows (no policy) and a scene whose new windows only the Flatpak application
#: org.example.Remote may change.
MANIFEST = {
    "format": 1, "id": "org.navsession.PolicyTest", "title": "Policy",
    "screens": [{"name": "list", "title": "List"}, {"name": "detail", "title": "Detail", "optional": ["id"]},
                {"name": "inbox", "title": "Inbox"}, {"name": "board", "title": "Board", "optional": ["page"]}],
    "scenes": [
        {"name": "browser", "title": "Browser", "default": True, "instances": "multiple", "root": {
            "kind": "tabs", "selectedTab": "a", "tabs": [
                {"id": "a", "title": "A", "model": {"kind": "stack", "path": [{"screen": "list"}]}},
                {"id": "b", "title": "B", "model": {"kind": "stack", "path": [{"screen": "inbox"}]}}]}},
        {"name": "remote", "title": "Remote", "instances": "multiple", "root": {"screen": "board"},
         "policy": {"change": [f"app:{REMOTE_APP}"]}},
    ],
}


# -- helpers -------------------------------------------------------------------------------------------------

def text(value: str) -> str:
    """``value`` as a GVariant text string, so ``gdbus call`` takes it as it is (JSON included)."""
    return GLib.Variant("s", value).print_(False)


def gdbus(daemon: TestDaemon, path: str, method: str, *args: str,
          sandbox: Sequence[str] = ()) -> subprocess.CompletedProcess:
    """``gdbus call`` of ``method`` on ``path``: a client in a process of its own (``sandbox``: a command prefix,
    bwrap's)."""
    argv = [*sandbox, "gdbus", "call", "--address", daemon.address, "--dest", daemon.name,
            "--object-path", path, "--method", method, *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=BOUND)


def ok(out: subprocess.CompletedProcess) -> str:
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def refused(out: subprocess.CompletedProcess) -> str:
    """The D-Bus error name a ``gdbus call`` failed with."""
    assert out.returncode != 0, f"the call succeeded: {out.stdout}"
    match = re.search(r"GDBus\.Error:([A-Za-z0-9_.]+):", out.stderr)
    assert match, out.stderr
    return match.group(1)


def other_set_params(daemon: TestDaemon, window: navsession.Window, params: str,
                     sandbox: Sequence[str] = ()) -> subprocess.CompletedProcess:
    """Window1.SetParams of the window's active model, by another process."""
    return gdbus(daemon, window.path, f"{WINDOW_IFACE}.SetParams", "0", params, "false", sandbox=sandbox)


def other_state(daemon: TestDaemon, window: navsession.Window, sandbox: Sequence[str] = ()) -> dict:
    """GetState as another process reads it."""
    reply = ok(gdbus(daemon, window.path, f"{WINDOW_IFACE}.GetState", sandbox=sandbox))
    (state_json,) = GLib.Variant.parse(GLib.VariantType("(s)"), reply, None, None).unpack()
    return json.loads(state_json)


def active_params(window: navsession.Window) -> dict:
    state = window.state()
    return next(m for m in state["models"] if m["id"] == window.active_model)["params"]


def unique_name(session: navsession.Session) -> str:
    return session.connection.get_unique_name()


# -- a policy naming this connection ----------------------------------------------------------------------------

@needs_gdbus
def test_self_may_change_the_window_and_another_process_is_refused_but_reads(navsession_daemon, navsession_session):
    session, daemon = navsession_session, navsession_daemon
    window = session.open_window("waiting")
    session.set_window_policy(window, {"change": ["self"]})
    me = unique_name(session)
    assert window.state()["policy"] == {"change": [me], "manage": ["host"]}

    # This connection changes it, by a batch and by a method.
    version, _ = window.apply([c.set_params({"reason": "mine"})])
    assert active_params(window) == {"reason": "mine"}
    version = window.set_title(0, "Mine")

    # Another process may not, whichever way it comes in; nothing changes.
    assert refused(other_set_params(daemon, window, "{'reason': 'theirs'}")) == ACCESS_DENIED
    batch = text(json.dumps([{"command": "setParams", "params": {"reason": "theirs"}}]))
    assert refused(gdbus(daemon, window.path, f"{WINDOW_IFACE}.Apply", batch, "{}")) == ACCESS_DENIED
    assert refused(gdbus(daemon, SESSION_PATH, f"{SESSION_IFACE}.Apply", window.path, batch)) == ACCESS_DENIED
    assert refused(gdbus(daemon, SESSION_PATH, f"{SESSION_IFACE}.DismissWindow", window.path)) == ACCESS_DENIED
    assert refused(gdbus(daemon, SESSION_PATH, f"{SESSION_IFACE}.SetCloseOnExit", window.path,
                         "true")) == ACCESS_DENIED
    assert refused(gdbus(daemon, SESSION_PATH, f"{SESSION_IFACE}.GroupWindows", text("work"),
                         f"['{window.path}']")) == ACCESS_DENIED

    # Its reads answer, and show the policy; the window is where this connection left it.
    state = other_state(daemon, window)
    assert state["policy"] == {"change": [me], "manage": ["host"]}
    assert state["version"] == version == window.version
    assert next(m for m in state["models"] if m["id"] == window.active_model)["params"] == {"reason": "mine"}
    assert [w.path for w in session.windows()] == [window.path] and window.group == ""


@needs_gdbus
def test_a_policy_managed_by_self_refuses_another_host_clients_set_window_policy(navsession_daemon,
                                                                                 navsession_session):
    session, daemon = navsession_session, navsession_daemon
    window = session.open_window("waiting")
    # With the default manage (["host"]) any host client may replace the policy: the same user's processes are not
    # a boundary. Naming this connection alone keeps it this connection's.
    session.set_window_policy(window, json.dumps({"change": ["self"], "manage": ["self"]}))
    for policy in ("", '{"change":["*"]}'):
        out = gdbus(daemon, SESSION_PATH, f"{SESSION_IFACE}.SetWindowPolicy", str(window.number), text(policy))
        assert refused(out) == ACCESS_DENIED
    assert window.state()["policy"]["manage"] == [unique_name(session)]

    session.set_window_policy(window, {"change": ["*"], "manage": ["host"]})
    ok(other_set_params(daemon, window, "{'reason': 'anyone'}"))
    window.wait_for(lambda w: active_params(w) == {"reason": "anyone"}, timeout=BOUND)


# -- a kiosk window -----------------------------------------------------------------------------------------

def test_a_kiosk_window_refuses_even_its_author_until_a_host_client_removes_the_policy(navsession_session):
    session = navsession_session
    window = session.open_window("waiting")
    version = window.version
    session.set_window_policy(window, {"change": []})
    assert window.state()["policy"] == {"change": [], "manage": ["host"]}

    with pytest.raises(errors.AccessDenied) as raised:
        session.dismiss_window(window)
    assert raised.value.detail["method"] == "DismissWindow"
    with pytest.raises(errors.AccessDenied):
        window.set_title(0, "Mine")
    with pytest.raises(errors.AccessDenied):
        window.report_closed()
    with pytest.raises(errors.AccessDenied):
        session.apply(window, [c.set_params({"reason": "x"})])
    assert [w.path for w in session.windows()] == [window.path] and window.version == version

    # This process is a host client: the default manage lets it remove the policy ("" as None).
    session.set_window_policy(window, "")
    assert "policy" not in window.state()
    window.set_title(0, "Mine")
    session.dismiss_window(window)
    assert session.windows() == []


def test_none_removes_a_policy_and_setting_the_same_one_again_changes_nothing(navsession_session):
    session = navsession_session
    window = session.open_window("waiting")
    session.set_window_policy(window.number, {"change": ["host"]})
    session.set_window_policy(window.path, '{"change":["host"],"manage":["host"]}')
    assert window.state()["policy"] == {"change": ["host"], "manage": ["host"]}
    window.set_params(0, {"reason": "host"})  # this process is a host client
    session.set_window_policy(window, None)
    assert "policy" not in window.state()


# -- errors -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy, named", [
    ({"chnage": []}, "chnage"),
    ({"change": ["nope"]}, "nope"),
    ({"change": [], "manage": []}, "manage"),
    ({"manage": ["host"]}, "change"),
    ({"change": ["app:1bad"]}, "app:1bad"),
    ({"change": [":x.y"]}, ":x.y"),
    ("[1, 2]", "policy_json"),
])
def test_a_malformed_policy_is_InvalidArgs_naming_what_is_wrong(navsession_session, policy, named):
    session = navsession_session
    window = session.open_window("waiting")
    with pytest.raises(errors.InvalidArgs) as raised:
        session.set_window_policy(window, policy)
    assert named in raised.value.message
    assert raised.value.detail["method"] == "SetWindowPolicy"
    assert "policy" not in window.state()


def test_an_unknown_window_is_UnknownObject_and_a_bad_argument_is_refused_before_calling(navsession_session):
    session = navsession_session
    with pytest.raises(errors.UnknownObject):
        session.set_window_policy(99, {"change": []})
    with pytest.raises(errors.UnknownObject):
        session.set_window_policy(f"{SESSION_PATH}/window/99", None)
    with pytest.raises(ValueError, match="not a window's object path"):
        session.set_window_policy(SESSION_PATH, None)
    with pytest.raises(TypeError):
        session.set_window_policy(1, ["host"])  # type: ignore[arg-type]


# -- kept across a crash ----------------------------------------------------------------------------------------

def stored_policies(state_dir: Path) -> List[Optional[dict]]:
    """What the state directory says of window policies: each journal ``policy`` line's, then each window's of
    ``state.json``."""
    found: List[Optional[dict]] = []
    journal = state_dir / "journal.jsonl"
    if journal.exists():
        for line in journal.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line) if line.strip() else {}
            if entry.get("op") == "policy":
                found.append(entry.get("policy"))
    snapshot = state_dir / "state.json"
    if snapshot.exists():
        found += [w["policy"] for w in json.loads(snapshot.read_text(encoding="utf-8")).get("windows", [])
                  if "policy" in w]
    return found


def test_a_policy_survives_sigkill_and_a_restart(navsession_bus, tmp_path):
    state_dir = tmp_path / "state"
    policy = {"change": [f"app:{REMOTE_APP}"], "manage": ["host"]}
    daemon = TestDaemon(navsession_bus.address, state_dir=state_dir)
    try:
        daemon.start()
        session = navsession.connect(daemon.address, daemon.name, start=False)
        try:
            window = session.open_window("waiting")
            window.set_params(0, {"reason": "before"})
            session.set_window_policy(window, policy)
            path, version = window.path, window.version
        finally:
            session.close()
        daemon.kill()
        assert policy in stored_policies(state_dir)

        daemon.start()
        session = navsession.connect(daemon.address, daemon.name, start=False)
        try:
            window = session.window(path)
            assert [w.path for w in session.windows()] == [path]
            state = window.state()
            assert state["policy"] == policy and state["version"] == version
            with pytest.raises(errors.AccessDenied):
                window.set_params(0, {"reason": "after"})  # a host client is not org.example.Remote
            assert active_params(window) == {"reason": "before"}
            session.set_window_policy(window, None)
            window.set_params(0, {"reason": "after"})
        finally:
            session.close()
    finally:
        daemon.close()


# -- a scene's policy, reopen and tear-off -------------------------------------------------------------------------

class TestManifestPolicy:
    """A scene's ``policy``: its new windows start with it, a reopened window too; a tear-off keeps its source's."""

    @pytest.fixture
    def navsession_manifest(self, tmp_path):
        path = tmp_path / "policy.json"
        path.write_text(json.dumps(MANIFEST), encoding="utf-8")
        return str(path)

    def test_a_scenes_new_windows_start_with_its_policy_and_a_reopened_one_too(self, navsession_session):
        session = navsession_session
        window = session.open_window("remote")
        scene_policy = {"change": [f"app:{REMOTE_APP}"], "manage": ["host"]}
        assert window.state()["policy"] == scene_policy
        with pytest.raises(errors.AccessDenied):
            window.set_params(0, {"page": "2"})
        assert "policy" not in session.open_window("browser").state()

        session.set_window_policy(window, None)  # this host client manages it
        window.set_params(0, {"page": "2"})
        session.dismiss_window(window)
        again = session.reopen_window()
        assert again.path != window.path and again.state()["policy"] == scene_policy

    def test_a_tear_off_keeps_its_source_windows_policy(self, navsession_session):
        session = navsession_session
        source = session.open_window("browser")
        session.set_window_policy(source, {"change": ["self", "host"]})
        kept = source.state()["policy"]
        tab_b = next(t["model"] for m in source.state()["models"] if m["kind"] == "tabs" for t in m["tabs"]
                     if t["id"] == "b")
        torn, _version = session.move_model(source, tab_b)
        assert torn.path != source.path and torn.state()["policy"] == kept

    def test_a_manifest_policy_may_not_name_a_connection_or_self(self, navsession_session):
        for principal in ("self", ":1.42"):
            manifest = json.loads(json.dumps(MANIFEST))
            manifest["scenes"][1]["policy"] = {"change": [principal]}
            with pytest.raises(errors.InvalidManifest):
                navsession_session.check_manifest(manifest)


# -- a client in a sandbox --------------------------------------------------------------------------------------

def bwrap_prefix(info: Path, address: str) -> List[str]:
    """A bubblewrap sandbox whose root has ``info`` as ``/.flatpak-info`` (what the daemon reads, as
    xdg-desktop-portal does), sharing the host's /usr, /etc and /tmp (and the bus socket's folder)."""
    argv = ["bwrap", "--bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--bind", "/tmp", "/tmp",
            "--proc", "/proc", "--dev", "/dev"]
    for part in address.split(";"):
        match = re.search(r"(?:^|[:,])path=([^,]+)", part)
        if match:
            folder = os.path.dirname(GLib.uri_unescape_string(match.group(1), None) or match.group(1))
            if folder and not (folder == "/tmp" or folder.startswith("/tmp/")):
                argv += ["--bind", folder, folder]
    return argv + ["--ro-bind", str(info), "/.flatpak-info"]


@pytest.fixture
def sandbox(navsession_daemon, tmp_path) -> List[str]:
    if shutil.which("bwrap") is None:
        pytest.skip("needs bwrap (bubblewrap) to run a client in a sandbox")
    if shutil.which("gdbus") is None:
        pytest.skip("needs gdbus (Debian: libglib2.0-bin)")
    info = tmp_path / "flatpak-info"
    info.write_text(f"[Application]\nname={REMOTE_APP}\n", encoding="utf-8")
    prefix = bwrap_prefix(info, navsession_daemon.address)
    probe = subprocess.run([*prefix, "cat", "/.flatpak-info"], capture_output=True, text=True, timeout=BOUND)
    if probe.returncode != 0 or REMOTE_APP not in probe.stdout:
        pytest.skip(f"bwrap cannot make a sandbox here: {probe.stderr.strip() or probe.stdout.strip()}")
    return prefix


def test_a_sandboxed_app_named_by_app_id_may_change_the_window_and_a_host_client_may_not(
        navsession_daemon, navsession_session, sandbox):
    session, daemon = navsession_session, navsession_daemon
    window = session.open_window("waiting")
    session.set_window_policy(window, {"change": [f"app:{REMOTE_APP}"]})

    # The sandboxed client changes it; this process's cached properties follow the daemon's signals.
    ok(other_set_params(daemon, window, "{'reason': 'remote'}", sandbox=sandbox))
    window.wait_for(lambda w: active_params(w) == {"reason": "remote"} and w.version >= 1, timeout=BOUND)
    assert other_state(daemon, window, sandbox=sandbox)["policy"] == {"change": [f"app:{REMOTE_APP}"],
                                                                     "manage": ["host"]}

    # Host clients may not change it: another process, and this one.
    assert refused(other_set_params(daemon, window, "{'reason': 'host'}")) == ACCESS_DENIED
    with pytest.raises(errors.AccessDenied):
        window.set_params(0, {"reason": "host"})
    with pytest.raises(errors.AccessDenied):
        session.dismiss_window(window)

    # The sandboxed client may not manage the policy (manage defaults to host clients).
    out = gdbus(daemon, SESSION_PATH, f"{SESSION_IFACE}.SetWindowPolicy", str(window.number), text(""),
                sandbox=sandbox)
    assert refused(out) == ACCESS_DENIED
    assert window.state()["policy"]["change"] == [f"app:{REMOTE_APP}"]
    assert active_params(window) == {"reason": "remote"}


def test_a_sandboxed_client_is_not_host(navsession_daemon, navsession_session, sandbox):
    session, daemon = navsession_session, navsession_daemon
    window = session.open_window("waiting")
    session.set_window_policy(window, {"change": ["host"]})
    assert refused(other_set_params(daemon, window, "{'reason': 'remote'}", sandbox=sandbox)) == ACCESS_DENIED
    ok(other_set_params(daemon, window, "{'reason': 'host'}"))
    window.wait_for(lambda w: active_params(w) == {"reason": "host"}, timeout=BOUND)

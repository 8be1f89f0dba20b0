"""The pytest plugin's fixtures: a private bus, the daemon with a manifest, a session, a window."""

import json
import os

import pytest

import navsession


def test_the_bus_fixture_points_the_session_bus_address_at_the_private_bus(navsession_bus):
    assert os.environ["DBUS_SESSION_BUS_ADDRESS"] == navsession_bus.address


def test_the_daemon_fixture_serves_the_demo_by_default(navsession_daemon, navsession_session):
    assert navsession_daemon.name == "org.navsession.Demo"
    assert navsession_session.name_owner is not None


@pytest.mark.navsession(manifest="notes.json")
def test_the_marker_gives_the_manifest_and_the_window_opens_its_first_scene(navsession_daemon, navsession_window):
    assert navsession_daemon.name == "org.example.Notes"
    assert navsession_window.scene == "notes" and navsession_window.active_screen == "list"


@pytest.mark.navsession(manifest="notes.json", scene="notes")
def test_connect_with_no_bus_reaches_the_private_bus(navsession_daemon):
    with navsession.connect(name=navsession_daemon.name, start=False) as session:
        assert session.application_id == "org.example.Notes"


@pytest.mark.parametrize("navsession_manifest", [os.path.join(os.path.dirname(__file__), "notes.json")])
def test_parametrizing_the_manifest_fixture_chooses_the_manifest(navsession_session, navsession_manifest):
    assert navsession_session.scenes == ["notes"]
    assert navsession_session.screens == [screen["name"] for screen in json.load(open(navsession_manifest))["screens"]]


def test_a_daemon_that_cannot_start_raises_with_its_output(navsession_bus, tmp_path):
    from navsession.testing import TestDaemon, TestSetupError
    manifest = tmp_path / "broken.json"
    manifest.write_text('{"format": 1, "id": "org.example.Broken", "scenes": []}')
    daemon = TestDaemon(navsession_bus.address, str(manifest))
    with pytest.raises(TestSetupError) as raised:
        daemon.start()
    daemon.close()
    assert "exited" in raised.value.message and "manifest" in raised.value.message


def test_without_a_configuration_file_the_bus_is_dbus_daemons_session_bus():
    from navsession.testing import TestBus, TestDaemon
    with TestBus(config="") as bus, TestDaemon(bus.address) as daemon:
        with navsession.connect(bus.address, daemon.name, start=False) as session:
            assert session.open_window("main").active_screen == "login"


@pytest.mark.navsession(name="org.example.Renamed")
def test_the_markers_name_is_the_bus_name_the_daemon_owns(navsession_daemon, navsession_session):
    assert navsession_daemon.name == "org.example.Renamed"
    assert navsession_session.name_owner is not None and "main" in navsession_session.scenes

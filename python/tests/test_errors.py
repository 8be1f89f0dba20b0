"""Exceptions: one class per documented D-Bus error name, raised for the daemon's refusals."""

import re
from pathlib import Path

import pytest

from navsession import errors
from navsession.errors import DBusError, NavSessionError

REPOSITORY = Path(__file__).resolve().parents[2]


def documented_names(prefix):
    text = "".join(path.read_text() for path in sorted((REPOSITORY / "dbus").glob("*.xml")))
    return set(re.findall(re.escape(prefix) + r"([A-Za-z]+)", text))


def test_every_navsession_error_name_in_the_xml_has_a_class_and_no_other():
    assert set(errors.NAVSESSION_ERROR_NAMES) == documented_names("org.navsession.Error.")


def test_every_freedesktop_error_name_in_the_xml_has_a_class_and_no_other():
    assert set(errors.FREEDESKTOP_ERROR_NAMES) == documented_names("org.freedesktop.DBus.Error.")


def test_each_class_is_named_after_its_error_and_derives_from_its_family():
    assert errors.VersionMismatch.error_name == "org.navsession.Error.VersionMismatch"
    assert issubclass(errors.VersionMismatch, NavSessionError) and not issubclass(errors.VersionMismatch, DBusError)
    assert errors.InvalidArgs.error_name == "org.freedesktop.DBus.Error.InvalidArgs"
    assert issubclass(errors.InvalidArgs, DBusError)


def test_a_stale_expected_version_raises_VersionMismatch_with_name_message_and_detail(navsession_window):
    version = navsession_window.version
    with pytest.raises(errors.VersionMismatch) as raised:
        navsession_window.apply([{"command": "stackDropToRoot"}], expected_version=version + 5)
    assert raised.value.name == "org.navsession.Error.VersionMismatch"
    assert "nothing was applied" in raised.value.message
    assert not raised.value.message.startswith("GDBus.Error")
    assert raised.value.detail == {"method": "Apply", "path": navsession_window.path,
                                   "interface": "org.navsession.Window1"}


def test_an_undeclared_screen_raises_UnknownScreen(navsession_window):
    with pytest.raises(errors.UnknownScreen):
        navsession_window.push("no-such-screen")


def test_bad_arguments_raise_the_freedesktop_InvalidArgs(navsession_session):
    with pytest.raises(errors.InvalidArgs):
        navsession_session.open_window("main", {"undeclared": "x"})


def test_an_error_name_no_table_lists_raises_the_base_class_with_its_name():
    cls = errors.error_class("org.navsession.Error.SomethingNew")
    assert cls is NavSessionError
    assert errors.error_class("org.freedesktop.DBus.Error.ServiceUnknown") is DBusError

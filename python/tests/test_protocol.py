"""navsession.protocol: the package's copy of the schemas, the D-Bus signature tables, the structural checks."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from navsession import errors, protocol

REPOSITORY = Path(__file__).resolve().parents[2]
PACKAGE = REPOSITORY / "python"
COPY_COMMAND = "rm -r python/navsession/schemas && cp -r schemas python/navsession/schemas"


def interfaces():
    """Interface name → its XML element, for dbus/org.navsession.{Session1,Window1}.xml."""
    found = {}
    for name in ("org.navsession.Session1", "org.navsession.Window1"):
        for interface in ET.parse(REPOSITORY / "dbus" / f"{name}.xml").getroot().iter("interface"):
            found[interface.get("name")] = interface
    return found


def out_signature(method):
    return "(" + "".join(a.get("type") for a in method.findall("arg") if a.get("direction") == "out") + ")"


def test_the_packages_schemas_are_a_byte_for_byte_copy_of_the_repositorys():
    canonical = {p.name: p.read_bytes() for p in (REPOSITORY / "schemas").glob("*.json")}
    copy = {p.name: p.read_bytes() for p in protocol.SCHEMA_DIR.glob("*.json")}
    assert sorted(copy) == sorted(canonical), f"python/navsession/schemas is stale: {COPY_COMMAND}"
    stale = sorted(name for name in canonical if copy[name] != canonical[name])
    assert not stale, f"python/navsession/schemas/{stale} differ from schemas/: {COPY_COMMAND}"


def test_each_reply_signature_is_the_xmls_and_every_method_has_one():
    for name, interface in interfaces().items():
        documented = {m.get("name"): out_signature(m) for m in interface.findall("method")}
        assert protocol.REPLY_SIGNATURES[name] == documented, name


def test_each_property_type_is_the_xmls_and_every_property_has_one():
    for name, interface in interfaces().items():
        documented = {p.get("name"): p.get("type") for p in interface.findall("property")}
        assert protocol.PROPERTY_TYPES[name] == documented, name


def test_the_decoded_signals_signatures_are_the_xmls():
    decoded = protocol.SIGNAL_SIGNATURES["org.navsession.Window1"]
    assert set(decoded) == {"Changed", "Announcement", "Steps"}
    for name, signature in decoded.items():
        signal = next(s for s in interfaces()["org.navsession.Window1"].findall("signal") if s.get("name") == name)
        assert signature == "(" + "".join(a.get("type") for a in signal.findall("arg")) + ")", name


def test_every_document_kind_the_package_decodes_has_a_schema_in_kinds_json():
    for kind in protocol.SHAPES:
        target = protocol.schema_for(kind)
        assert target is not None, kind
        assert (protocol.SCHEMA_DIR / target.partition("#")[0]).is_file(), target


@pytest.mark.skipif(protocol.jsonschema_module() is None, reason="needs python3-jsonschema")
def test_each_schema_compiles_once_and_is_cached():
    for target in set(protocol.kinds().values()):
        assert protocol.validator(target) is protocol.validator(target)


@pytest.mark.skipif(protocol.jsonschema_module() is None, reason="needs python3-jsonschema")
def test_a_document_whose_schema_is_part_of_a_file_validates_against_that_part():
    where = protocol.detail("PendingNavigation", "/w", "org.navsession.Window1")
    assert protocol.decode("PendingNavigation", '{"screen":"account","state":"main"}', where) == \
        {"screen": "account", "state": "main"}
    with pytest.raises(errors.ProtocolError) as raised:
        protocol.decode("PendingNavigation", '{"nope":1}', where)
    assert raised.value.detail["schema"] == "cause.json#/$defs/pending"


def test_the_structural_check_names_where_a_document_is_wrong():
    shape = protocol.SHAPES["ListClosedWindows.closed_json"]
    assert protocol.shape_problem({"id": "1"}, shape) == "at /: an object, expected an array"
    assert protocol.shape_problem([{"id": 1}], shape) == "at /0/id: an integer, expected a string"
    assert protocol.shape_problem([{"id": "1"}], shape) == "at /0: 'window' is missing"


def test_the_structural_check_does_not_take_a_boolean_for_an_integer():
    assert protocol.shape_problem({"model": True, "reason": "", "owner": ""}, protocol.SHAPES["Protected"][0]) == \
        "at /model: a boolean, expected an integer"


def test_a_wrong_reply_signature_raises_ProtocolError_naming_the_method():
    from gi.repository import GLib
    with pytest.raises(errors.ProtocolError) as raised:
        protocol.check_reply(GLib.Variant("(i)", (1,)), "GetState", "/w", "org.navsession.Window1")
    assert str(raised.value) == \
        "navsession.ProtocolError: GetState: the reply's D-Bus signature is (i), expected (s)"
    assert raised.value.detail["method"] == "GetState" and raised.value.detail["path"] == "/w"


def test_a_wheel_built_offline_ships_every_schema(tmp_path):
    pytest.importorskip("pip")
    source = tmp_path / "python"
    subprocess.run(["cp", "-r", str(PACKAGE), str(source)], check=True)
    subprocess.run(["rm", "-rf", str(source / "build")] + [str(p) for p in source.glob("*.egg-info")], check=True)
    environment = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-index", "--no-deps",
                            "-q", "-w", str(tmp_path / "out"), str(source)],
                           env=environment, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "out").glob("navsession-*.whl")
    shipped = {Path(n).name for n in zipfile.ZipFile(wheel).namelist() if n.startswith("navsession/schemas/")}
    assert shipped == {p.name for p in (REPOSITORY / "schemas").glob("*.json")}

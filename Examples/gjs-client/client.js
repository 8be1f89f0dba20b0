// navsession-gjs-client: opens a window of the demo, logs in, pushes a screen and follows Window1.Changed,
// through proxies that Gio.DBusProxy.makeProxyWrapper makes from the interface XML, read at run time.
//
//   gjs -m client.js [BUS_NAME]     (default org.navsession.Demo; the session bus: DBUS_SESSION_BUS_ADDRESS)
//
// The XML is read from $NAVSESSION_INTERFACES_DIR, else this checkout's dbus/, else the installed
// share/dbus-1/interfaces (/usr/local, then /usr). Prints one line per step and per Changed signal; exits 0
// once the push's Changed has arrived, 1 on an error (the D-Bus error name is printed) or after 10 s without it.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const busName = ARGV[0] ?? 'org.navsession.Demo';

function interfaceXML(name) {
    const here = GLib.path_get_dirname(GLib.filename_from_uri(import.meta.url)[0]);
    const directories = [
        GLib.getenv('NAVSESSION_INTERFACES_DIR'),
        GLib.build_filenamev([here, '..', '..', 'dbus']),
        '/usr/local/share/dbus-1/interfaces',
        '/usr/share/dbus-1/interfaces',
    ].filter(directory => directory);
    for (const directory of directories) {
        const path = GLib.build_filenamev([directory, `${name}.xml`]);
        if (GLib.file_test(path, GLib.FileTest.EXISTS))
            return new TextDecoder().decode(GLib.file_get_contents(path)[1]);
    }
    throw new Error(`${name}.xml not found in ${directories.join(', ')}`);
}

function fail(what, error) {
    let remote = null;
    if (error instanceof GLib.Error) {
        remote = Gio.DBusError.get_remote_error(error);
        Gio.DBusError.strip_remote_error(error);
    }
    printerr(`navsession-gjs-client: ${what}: ${remote ? `${remote}: ` : ''}${error.message}`);
    System.exit(1);
}

const Session1 = Gio.DBusProxy.makeProxyWrapper(interfaceXML('org.navsession.Session1'));
const Window1 = Gio.DBusProxy.makeProxyWrapper(interfaceXML('org.navsession.Window1'));

const loop = new GLib.MainLoop(null, false);
let awaited = 0;
let lastSeen = 0;

function step(what, call) {
    try {
        return call();
    } catch (error) {
        return fail(what, error);
    }
}

const session = step('Session1 proxy', () => Session1(Gio.DBus.session, busName, '/org/navsession/Session1'));
const [path] = step('OpenWindow', () => session.OpenWindowSync('main', {}));
print(`opened ${path}`);

// The proxy subscribes to the window's signals when it is made: before anything is changed.
const window = step('Window1 proxy', () => Window1(Gio.DBus.session, busName, path));
window.connectSignal('Changed', (_proxy, _sender, [version, previous, _cause, _animated, started, _finished, steps]) => {
    print(`changed: v${version} (from v${previous}), ${started.length} model(s) started, steps ${steps}`);
    lastSeen = version;
    if (awaited !== 0 && version >= awaited)
        loop.quit();
});

const [loggedIn] = step('SwitchModel', () => window.SwitchModelSync('main', {}));
print(`logged in: v${loggedIn}`);
const [pushed] = step('StackAppend', () => window.StackAppendSync('detail', {id: '42'}));
print(`pushed detail: v${pushed}`);

awaited = pushed;
let timedOut = false;
if (lastSeen < pushed) {
    const timeout = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 10, () => {
        timedOut = true;
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    loop.run();
    if (!timedOut)
        GLib.source_remove(timeout);
}
if (timedOut) {
    printerr(`navsession-gjs-client: no Changed for v${pushed} within 10 s`);
    System.exit(1);
}

// Asked, not cached: PropertiesChanged follows Changed, so the proxy's cache may not have it yet.
const reply = step('ActiveScreen', () => Gio.DBus.session.call_sync(
    busName, path, 'org.freedesktop.DBus.Properties', 'Get',
    new GLib.Variant('(ss)', ['org.navsession.Window1', 'ActiveScreen']), new GLib.VariantType('(v)'),
    Gio.DBusCallFlags.NONE, 10000, null));
print(`active screen: ${reply.deepUnpack()[0].deepUnpack()}`);

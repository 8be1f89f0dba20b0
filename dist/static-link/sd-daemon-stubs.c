/*
 * The two libsystemd functions that Debian's static libdbus (libdbus-1.a) refers to, for navsessionctl only
 * (scripts/install links it against the archive; the daemon and the development build use libdbus-1.so).
 *
 * libdbus calls them from _dbus_listen_systemd_sockets, which only a D-Bus *server* listening on a
 * "systemd:" address reaches. navsessionctl is a client, so they are never called; the answers below are
 * the ones libsystemd itself gives a process that systemd did not start by socket activation (no sockets
 * passed; not a socket). Linking libsystemd instead would bring back the seven shared libraries
 * (libsystemd, libgcrypt, liblzma, libzstd, liblz4, libcap, libgpg-error) that this avoids loading.
 */
int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    return 0;
}

int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd;
    (void)family;
    (void)type;
    (void)listening;
    return 0;
}

#ifndef CDBUSSHIMS_H
#define CDBUSSHIMS_H
#include <dbus/dbus.h>
#endif

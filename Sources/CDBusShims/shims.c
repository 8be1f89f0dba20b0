#include "CDBusShims.h"

#ifndef TRIGSIM_CGEOS_SHIM_H
#define TRIGSIM_CGEOS_SHIM_H
// The re-entrant (_r) GEOS C API, from Debian's libgeos-dev.
#include <geos_c.h>
#endif

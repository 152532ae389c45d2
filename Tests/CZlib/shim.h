#ifndef TRIGSIM_CZLIB_SHIM_H
#define TRIGSIM_CZLIB_SHIM_H
// zlib (Debian's zlib1g-dev), to inflate the PNG screenshots the browser tests take.
#include <zlib.h>
#endif

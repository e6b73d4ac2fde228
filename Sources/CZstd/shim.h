#ifndef HERALD_CZSTD_SHIM_H
#define HERALD_CZSTD_SHIM_H
// Zstandard (Debian's libzstd-dev): article bodies are compressed with it.
#include <zstd.h>

#endif

#ifndef HERALD_CZLIB_SHIM_H
#define HERALD_CZLIB_SHIM_H
#include <zlib.h>

// deflateInit2/inflateInit2 are macros passing ZLIB_VERSION and the stream's size: Swift
// cannot import them.
static inline int cz_deflate_init(z_streamp stream, int level, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, memLevel, Z_DEFAULT_STRATEGY);
}
static inline int cz_inflate_init(z_streamp stream) { return inflateInit2(stream, -15); }
/// An inflate stream with any window-bits value (15 + 32: a zlib or gzip header, told apart).
static inline int cz_inflate_init_bits(z_streamp stream, int bits) { return inflateInit2(stream, bits); }

#endif

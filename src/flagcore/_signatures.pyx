# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled hashPixelData and tile signatures (twin: flagcore.reference.signatures).

A buffer or a tile interior is walked as a 2-D region: ``nrows`` rows of ``rowbytes`` bytes,
``pitch`` bytes apart; a flat buffer is one row. The spec's loop reads the bytes at flat
positions k, k+1, k+2 for k = 0, stride, 2*stride, ... < nrows*rowbytes; positions past the end
read as 0 and a sample near a row's end takes its next bytes from the next row.

One FNV-1a chain is latency-bound (xor + multiply per byte, three per sample). All tiles of an
image share one geometry, so the region walk is computed once and four tiles' chains advance
side by side: independent multiplies overlap and the loop runs near the multiplier's
throughput instead of its latency.
"""
from libc.stdint cimport uint8_t, uint32_t

from flagcore._args.signatures import (as_image, as_pixel_bytes, check_grid, check_stride, tile_rects,
                              QUANTIZE as _QUANTIZE_BYTES)

cdef uint32_t FNV_OFFSET = 2166136261u
cdef uint32_t FNV_PRIME = 16777619u
cdef uint8_t QUANT[256]
cdef int _i
for _i in range(256):
    QUANT[_i] = _QUANTIZE_BYTES[_i]

cdef enum:
    LANES = 4


cdef inline uint32_t _mix3(uint32_t h, uint8_t a, uint8_t b, uint8_t c) noexcept nogil:
    h = (h ^ QUANT[a]) * FNV_PRIME
    h = (h ^ QUANT[b]) * FNV_PRIME
    return (h ^ QUANT[c]) * FNV_PRIME


cdef inline uint8_t _byte_after(const uint8_t *base, Py_ssize_t row, Py_ssize_t off,
                                Py_ssize_t nrows, Py_ssize_t rowbytes,
                                Py_ssize_t pitch) noexcept nogil:
    # The byte at flat position row*rowbytes + off when off may run past the row's end;
    # 0 past the region's end (the JavaScript's `?? 0`).
    while off >= rowbytes:
        off -= rowbytes
        row += 1
    if row >= nrows:
        return 0
    return base[row * pitch + off]


cdef uint32_t _hash_region(const uint8_t *base, Py_ssize_t nrows, Py_ssize_t rowbytes,
                           Py_ssize_t pitch, Py_ssize_t stride) noexcept nogil:
    cdef uint32_t h = FNV_OFFSET
    cdef Py_ssize_t row = 0, off = 0
    cdef const uint8_t *p
    if nrows <= 0 or rowbytes <= 0:
        return h
    while row < nrows:
        p = base + row * pitch
        # Samples whose three bytes lie inside this row: the hot loop.
        while off + 2 < rowbytes:
            h = _mix3(h, p[off], p[off + 1], p[off + 2])
            off += stride
        # Samples that start in this row and spill into the next one (or past the end).
        while off < rowbytes:
            h = _mix3(h, p[off], _byte_after(base, row, off + 1, nrows, rowbytes, pitch),
                      _byte_after(base, row, off + 2, nrows, rowbytes, pitch))
            off += stride
        row += off // rowbytes
        off = off % rowbytes
    return h


cdef void _hash_regions4(const uint8_t **bases, Py_ssize_t nrows, Py_ssize_t rowbytes,
                         Py_ssize_t pitch, Py_ssize_t stride, uint32_t *out) noexcept nogil:
    # _hash_region for LANES regions of one geometry at once (see the module docstring).
    cdef uint32_t h0 = FNV_OFFSET, h1 = FNV_OFFSET, h2 = FNV_OFFSET, h3 = FNV_OFFSET
    cdef const uint8_t *b0 = bases[0]
    cdef const uint8_t *b1 = bases[1]
    cdef const uint8_t *b2 = bases[2]
    cdef const uint8_t *b3 = bases[3]
    cdef Py_ssize_t row = 0, off = 0, start, o
    while row < nrows:
        start = row * pitch
        while off + 2 < rowbytes:
            o = start + off
            h0 = _mix3(h0, b0[o], b0[o + 1], b0[o + 2])
            h1 = _mix3(h1, b1[o], b1[o + 1], b1[o + 2])
            h2 = _mix3(h2, b2[o], b2[o + 1], b2[o + 2])
            h3 = _mix3(h3, b3[o], b3[o + 1], b3[o + 2])
            off += stride
        while off < rowbytes:
            o = start + off
            h0 = _mix3(h0, b0[o], _byte_after(b0, row, off + 1, nrows, rowbytes, pitch),
                       _byte_after(b0, row, off + 2, nrows, rowbytes, pitch))
            h1 = _mix3(h1, b1[o], _byte_after(b1, row, off + 1, nrows, rowbytes, pitch),
                       _byte_after(b1, row, off + 2, nrows, rowbytes, pitch))
            h2 = _mix3(h2, b2[o], _byte_after(b2, row, off + 1, nrows, rowbytes, pitch),
                       _byte_after(b2, row, off + 2, nrows, rowbytes, pitch))
            h3 = _mix3(h3, b3[o], _byte_after(b3, row, off + 1, nrows, rowbytes, pitch),
                       _byte_after(b3, row, off + 2, nrows, rowbytes, pitch))
            off += stride
        row += off // rowbytes
        off = off % rowbytes
    out[0] = h0
    out[1] = h1
    out[2] = h2
    out[3] = h3


def hash_pixel_data(rgba, stride=8):
    """The spec's hashPixelData as an int (the JavaScript returns its decimal string)."""
    cdef Py_ssize_t step = check_stride(stride)
    cdef const uint8_t[::1] buf = as_pixel_bytes(rgba)
    cdef Py_ssize_t n = buf.shape[0]
    cdef uint32_t h = FNV_OFFSET
    if n == 0:
        return h
    with nogil:
        h = _hash_region(&buf[0], 1, n, n, step)
    return h


def tile_signatures(image, columns, rows, inset=4):
    """hashPixelData (stride 8) of each tile's interior, slots in row-major order."""
    columns, rows, inset = check_grid(columns, rows, inset)
    cdef const uint8_t[:, :, ::1] img = as_image(image)
    xs, ys, inner_w, inner_h = tile_rects(img.shape[0], img.shape[1], columns, rows, inset)
    cdef Py_ssize_t ncols = columns, ntiles = columns * rows
    cdef Py_ssize_t pitch = img.shape[1] * 4
    cdef Py_ssize_t rowbytes = <Py_ssize_t>inner_w * 4, nrows = inner_h
    cdef Py_ssize_t[::1] offsets = _tile_offsets(xs, ys, pitch)
    cdef uint32_t[::1] out = _new_uint32(ntiles)
    cdef const uint8_t *base = &img[0, 0, 0]
    cdef const uint8_t *lanes[LANES]
    cdef uint32_t hashes[LANES]
    cdef Py_ssize_t t, k, n
    with nogil:
        t = 0
        while t < ntiles:
            n = ntiles - t if ntiles - t < LANES else LANES
            for k in range(LANES):
                # A short last group repeats its first tile in the spare lanes.
                lanes[k] = base + offsets[t + (k if k < n else 0)]
            _hash_regions4(lanes, nrows, rowbytes, pitch, 8, hashes)
            for k in range(n):
                out[t + k] = hashes[k]
            t += n
    return [int(out[k]) for k in range(ntiles)]


cdef Py_ssize_t[::1] _tile_offsets(list xs, list ys, Py_ssize_t pitch):
    # Byte offset of each tile interior's first pixel, slots in row-major order.
    import numpy as np
    cdef Py_ssize_t[::1] offsets = np.empty(len(xs) * len(ys), dtype=np.intp)
    cdef Py_ssize_t i = 0
    for y in ys:
        for x in xs:
            offsets[i] = <Py_ssize_t>y * pitch + <Py_ssize_t>x * 4
            i += 1
    return offsets


cdef uint32_t[::1] _new_uint32(Py_ssize_t n):
    import numpy as np
    return np.empty(n, dtype=np.uint32)


# ---------------------------------------------------------------- the visual signature
# Tiles as a player sees them (see flagcore._args.signatures for the rule): compare every pixel of
# two tiles composited over white, with a looser tolerance in the seam band, and join linked
# tiles with union-find.

from flagcore._args.signatures import (check_tile_grid, SHOWN_TOLERANCE as _SHOWN_TOL,
                              SEAM_TOLERANCE as _SEAM_TOL, SEAM_BAND as _SEAM_BAND)


cdef void _over_white(const uint8_t[:, :, ::1] img, uint8_t[:, :, ::1] out) noexcept nogil:
    # Un-premultiplied RGBA over a white page, rounded to nearest: (c*a + 255*(255-a) + 127) // 255.
    cdef Py_ssize_t y, x, c
    cdef unsigned int a
    for y in range(img.shape[0]):
        for x in range(img.shape[1]):
            a = img[y, x, 3]
            for c in range(3):
                out[y, x, c] = img[y, x, c] if a == 255u else \
                    <uint8_t>((img[y, x, c] * a + 255u * (255u - a) + 127u) // 255u)


cdef inline bint _row_within(const uint8_t *a, const uint8_t *b, Py_ssize_t nbytes,
                             int limit) noexcept nogil:
    # No early exit inside the row: the branch-free loop vectorizes (max - min is |a - b|).
    cdef Py_ssize_t k
    cdef uint8_t over = 0, hi, lo, lim = <uint8_t>limit
    for k in range(nbytes):
        hi = a[k] if a[k] > b[k] else b[k]
        lo = b[k] if a[k] > b[k] else a[k]
        over |= <uint8_t>(hi - lo) > lim
    return over == 0


cdef bint _alike(const uint8_t *shown, Py_ssize_t pitch, Py_ssize_t offset_a,
                 Py_ssize_t offset_b, Py_ssize_t tw, Py_ssize_t th, int tol, int seam_tol,
                 Py_ssize_t band) noexcept nogil:
    # Tiles at byte offsets offset_a, offset_b of the (H, W, 3) shown image, row by row: rows in
    # the seam band at seam_tol; other rows at tol in the middle, seam_tol in the band columns.
    cdef Py_ssize_t y, inner = tw - 2 * band
    cdef const uint8_t *a
    cdef const uint8_t *b
    for y in range(th):
        a = shown + offset_a + y * pitch
        b = shown + offset_b + y * pitch
        if y < band or y >= th - band or inner <= 0:
            if not _row_within(a, b, tw * 3, seam_tol):
                return False
        elif not (_row_within(a, b, band * 3, seam_tol)
                  and _row_within(a + band * 3, b + band * 3, inner * 3, tol)
                  and _row_within(a + (tw - band) * 3, b + (tw - band) * 3, band * 3, seam_tol)):
            return False
    return True


cdef inline Py_ssize_t _tile_offset(Py_ssize_t tile, Py_ssize_t ncols, Py_ssize_t tw,
                                    Py_ssize_t th, Py_ssize_t pitch) noexcept nogil:
    return (tile // ncols) * th * pitch + (tile % ncols) * tw * 3


cdef Py_ssize_t _root(Py_ssize_t[::1] parent, Py_ssize_t i) noexcept nogil:
    while parent[i] != i:
        i = parent[i]
    return i


def visual_signatures(image, columns, rows):
    """The lowest piece index that looks like each tile, slots in row-major order."""
    import numpy as np
    columns, rows, _ = check_grid(columns, rows, 0)
    cdef const uint8_t[:, :, ::1] img = as_image(image)
    tw_, th_ = check_tile_grid(img.shape[0], img.shape[1], columns, rows)
    cdef Py_ssize_t tw = tw_, th = th_, ncols = columns, n = columns * rows
    cdef uint8_t[:, :, ::1] shown = np.empty((img.shape[0], img.shape[1], 3), dtype=np.uint8)
    cdef Py_ssize_t[::1] parent = np.arange(n, dtype=np.intp)
    cdef int tol = _SHOWN_TOL, seam_tol = _SEAM_TOL
    cdef Py_ssize_t band = _SEAM_BAND, i, j, ri, rj
    cdef Py_ssize_t pitch = img.shape[1] * 3
    cdef const uint8_t *base = &shown[0, 0, 0]
    with nogil:
        _over_white(img, shown)
        for i in range(n):
            for j in range(i + 1, n):
                ri = _root(parent, i)
                rj = _root(parent, j)
                # Already joined: testing the pair cannot change the components.
                if ri != rj and _alike(base, pitch, _tile_offset(i, ncols, tw, th, pitch),
                                       _tile_offset(j, ncols, tw, th, pitch), tw, th,
                                       tol, seam_tol, band):
                    # The lower index becomes the root, so a class is named by its lowest piece.
                    if ri < rj:
                        parent[rj] = ri
                    else:
                        parent[ri] = rj
    return [int(_root(parent, i)) for i in range(n)]

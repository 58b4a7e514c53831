# The boundary of the compiled Puzzle engine: included by _puzzle.pyx.
#
# Public arguments arrive here as the user passed them. The shapes a server sends (a list or
# tuple of plain ints, a 1-D C-contiguous int32 array, int64 signatures) are read in C, checked in
# the same pass (range and duplicates), and never copied when they already have the kernel's
# layout. Anything else, and anything that fails a check, goes to flagcore._args, where every
# rule and message is stated once: it raises the error the reference twin raises for the same
# value, or converts an unusual but valid input (numpy integers in a list, an int16 array) once.

from cpython.object cimport PyObject

cdef extern from "Python.h":
    bint PyList_CheckExact(object o)
    bint PyTuple_CheckExact(object o)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject **PySequence_Fast_ITEMS(object o)
    bint _is_exact_int "PyLong_CheckExact"(PyObject *o)
    bint _is_exact_tuple "PyTuple_CheckExact"(PyObject *o)
    long long _as_long_long "PyLong_AsLongLongAndOverflow"(PyObject *o, int *overflow)
    Py_ssize_t _tuple_size "PyTuple_GET_SIZE"(PyObject *o)
    PyObject *_tuple_item "PyTuple_GET_ITEM"(PyObject *o, Py_ssize_t i)
    bint _is_exact_list "PyList_CheckExact"(PyObject *o)
    Py_ssize_t _list_size "PyList_GET_SIZE"(PyObject *o)
    PyObject *_list_item "PyList_GET_ITEM"(PyObject *o, Py_ssize_t i)

from flagcore._args.puzzle import MAX_TILES as _MAX_TILES_VALUE, as_classes, as_permutation, as_swap_log

cdef Py_ssize_t _MAX_TILES = _MAX_TILES_VALUE
cdef object _INT32 = np.dtype(np.int32)
cdef object _INT64 = np.dtype(np.int64)


# An int vector the kernels can read: p points at small (n <= SMALL_N), at a numpy buffer the
# caller keeps alive (the "keep" object each reader returns), or at the caller's own array.
cdef struct Ints:
    const int32_t *p
    Py_ssize_t n
    int32_t small[SMALL_N]


cdef inline bint _read_int(PyObject *item, Py_ssize_t lo, Py_ssize_t hi, long long *out) noexcept:
    """A plain int in [lo, hi) (no bool, no numpy integer: those take the slow path)."""
    cdef int overflow = 0
    cdef long long x
    if not _is_exact_int(item):
        return False
    x = _as_long_long(item, &overflow)
    if overflow or x < lo or x >= hi:
        return False
    out[0] = x
    return True


cdef bint _perm_from_items(PyObject **items, Py_ssize_t n, int32_t *out, unsigned char *seen) noexcept:
    """Read a permutation of 0..n-1 from list/tuple items: type, range and duplicates in one pass."""
    cdef Py_ssize_t i
    cdef long long x
    memset(seen, 0, n)
    for i in range(n):
        if not _read_int(items[i], 0, n, &x) or seen[x]:
            return False
        seen[x] = 1
        out[i] = <int32_t>x
    return True


cdef bint _is_perm(const int32_t *p, Py_ssize_t n, unsigned char *seen) noexcept nogil:
    cdef Py_ssize_t i
    cdef int32_t x
    memset(seen, 0, n)
    for i in range(n):
        x = p[i]
        if x < 0 or x >= n or seen[x]:
            return False
        seen[x] = 1
    return True


cdef object _buffer(Ints *v, Py_ssize_t n):
    """Point v at room for n int32: its own small array, or a new numpy array (returned: keep it)."""
    cdef int32_t[::1] mv
    v.n = n
    if n <= SMALL_N:
        v.p = v.small
        return None
    keep = np.empty(n, dtype=np.int32)
    mv = keep
    v.p = &mv[0]
    return keep


cdef object _view(Ints *v, object arr):
    """Point v at a 1-D C-contiguous int32 array without copying; False if arr is not one."""
    cdef const int32_t[::1] mv
    try:
        mv = arr
    except (ValueError, TypeError, BufferError):
        return False
    v.n = mv.shape[0]
    v.p = &mv[0] if v.n else v.small
    return mv  # the memoryview keeps the buffer exported (and alive) while the kernel reads it


cdef object _as_perm(object value, Ints *v, str name, bint checked_later=False):
    """v = the permutation in value, or the error flagcore._args raises for it.

    checked_later: an int32 array is handed over unchecked because the caller's kernel checks
    it in its own pass (and calls _reject_perm on failure).
    """
    cdef unsigned char seen_small[SMALL_N]
    cdef unsigned char[::1] seen
    cdef Py_ssize_t n
    cdef object keep
    cdef bint ok = False
    if PyList_CheckExact(value) or PyTuple_CheckExact(value):
        n = PySequence_Fast_GET_SIZE(value)
        if n <= _MAX_TILES:
            keep = _buffer(v, n)
            if n <= SMALL_N:
                ok = _perm_from_items(PySequence_Fast_ITEMS(value), n, <int32_t *>v.p, seen_small)
            else:
                seen = np.empty(n, dtype=np.uint8)
                ok = _perm_from_items(PySequence_Fast_ITEMS(value), n, <int32_t *>v.p, &seen[0])
            if ok:
                return keep
    elif isinstance(value, np.ndarray):
        keep = _view(v, value)
        if keep is not False:
            if checked_later:
                return keep
            if v.n <= SMALL_N:
                ok = _is_perm(v.p, v.n, seen_small)
            else:
                seen = np.empty(v.n, dtype=np.uint8)
                ok = _is_perm(v.p, v.n, &seen[0])
            if ok:
                return keep
    return _view_checked(v, as_permutation(value, name))


cdef object _view_checked(Ints *v, object arr):
    keep = _view(v, arr)
    assert keep is not False, "flagcore._args returned an array the kernels cannot read"
    return keep


cdef void _reject_perm(object value, str name) except *:
    """The compiled check failed: flagcore._args raises the precise error for value."""
    as_permutation(value, name)
    raise AssertionError(f"flagcore._args accepted {name}, the compiled check did not")


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= 0xff51afd7ed558ccdULL
    x ^= x >> 33
    return x


cdef object _as_classes(object value, Py_ssize_t n, Ints *v, int *k, str name="signatures"):
    """v = dense class ids (first appearance order) of the signatures in value, k their number.

    A list or tuple of plain ints and None, or a 1-D int64 or int32 array, of length n is read here;
    anything else (and every error) goes through flagcore._args.as_classes.
    """
    cdef Py_ssize_t size, i, slot, mask
    cdef long long x
    cdef int overflow
    cdef PyObject **items = NULL
    cdef const int64_t[::1] arr
    cdef const int32_t[::1] arr32
    cdef bint wide = True
    cdef int64_t keys_small[2 * SMALL_N]
    cdef int32_t ids_small[2 * SMALL_N]
    cdef int64_t[::1] keys_mv
    cdef int32_t[::1] ids_mv
    cdef int64_t *keys
    cdef int32_t *ids
    cdef int32_t *out
    cdef int classes = 0
    cdef bint from_items
    cdef object keep
    if PyList_CheckExact(value) or PyTuple_CheckExact(value):
        from_items = True
        if PySequence_Fast_GET_SIZE(value) != n:
            return _classes_checked(value, n, v, k, name)
        items = PySequence_Fast_ITEMS(value)
    elif isinstance(value, np.ndarray):
        from_items = False
        # dispatch on the dtype: an int32 array tried as int64 first paid a raised and caught
        # buffer error (about 2 us) before its own view
        dtype = value.dtype
        try:
            if dtype == _INT32:
                arr32 = value
                wide = False
            elif dtype == _INT64:
                arr = value
            else:
                return _classes_checked(value, n, v, k, name)
        except (ValueError, TypeError, BufferError):  # not 1-D C-contiguous, read-only and so on
            return _classes_checked(value, n, v, k, name)
        if (arr.shape[0] if wide else arr32.shape[0]) != n:
            return _classes_checked(value, n, v, k, name)
    else:
        return _classes_checked(value, n, v, k, name)
    keep = _buffer(v, n)
    out = <int32_t *>v.p
    size = 2 * SMALL_N
    while size < 2 * n:
        size *= 2
    if size == 2 * SMALL_N:
        keys = keys_small
        ids = ids_small
    else:
        keys_mv = np.empty(size, dtype=np.int64)
        ids_mv = np.empty(size, dtype=np.int32)
        keys = &keys_mv[0]
        ids = &ids_mv[0]
    for i in range(size):
        ids[i] = -1
    mask = size - 1
    for i in range(n):
        if from_items:
            if items[i] == <PyObject *>None:
                out[i] = classes  # a tile unlike any other
                classes += 1
                continue
            overflow = 0
            if not _is_exact_int(items[i]):
                return _classes_checked(value, n, v, k, name)
            x = _as_long_long(items[i], &overflow)
            if overflow:
                return _classes_checked(value, n, v, k, name)
        else:
            x = arr[i] if wide else arr32[i]
        slot = <Py_ssize_t>(_mix(<uint64_t>x) & <uint64_t>mask)
        while ids[slot] >= 0 and keys[slot] != x:
            slot = (slot + 1) & mask
        if ids[slot] < 0:
            keys[slot] = x
            ids[slot] = classes
            classes += 1
        out[i] = ids[slot]
    k[0] = classes
    return keep


cdef object _classes_checked(object value, Py_ssize_t n, Ints *v, int *k, str name):
    classes, count = as_classes(value, n, name)
    k[0] = count
    return _view_checked(v, classes)


cdef object _as_swaps(object swaps, Py_ssize_t n, Ints *v):
    """The swap log as 2 * moves slots (a0, b0, a1, b1, ...): pairs of distinct slots in 0..n-1.

    A list or tuple of pairs of plain ints, each pair a 2-tuple or a 2-list (what JSON gives), is
    read here; anything else (and every error) goes through flagcore._args.as_swap_log.
    """
    cdef Py_ssize_t moves, i
    cdef PyObject **items
    cdef PyObject *move
    cdef PyObject *first
    cdef PyObject *second
    cdef long long a, b
    cdef int32_t *out
    cdef object keep
    if PyList_CheckExact(swaps) or PyTuple_CheckExact(swaps):
        moves = PySequence_Fast_GET_SIZE(swaps)
        items = PySequence_Fast_ITEMS(swaps)
        keep = _buffer(v, 2 * moves)
        out = <int32_t *>v.p
        for i in range(moves):
            move = items[i]
            if _is_exact_tuple(move) and _tuple_size(move) == 2:
                first, second = _tuple_item(move, 0), _tuple_item(move, 1)
            elif _is_exact_list(move) and _list_size(move) == 2:
                first, second = _list_item(move, 0), _list_item(move, 1)
            else:
                break
            if not _read_int(first, 0, n, &a) or not _read_int(second, 0, n, &b) or a == b:
                break
            out[2 * i] = <int32_t>a
            out[2 * i + 1] = <int32_t>b
        else:
            return keep
    pairs = as_swap_log(swaps, n)
    flat = np.array(pairs, dtype=np.int32).reshape(-1)
    return _view_checked(v, flat)

# Scratch arena and memo of the exact par search: included by _puzzle.pyx (layout in
# puzzle_search.pxd). Neither frees anything while the search runs; _ctx_free releases both.

cdef size_t ARENA_MIN_CHUNK = 65536


cdef inline size_t _round16(size_t n) noexcept nogil:
    return (n + 15) & ~(<size_t>15)


cdef void _arena_init(Arena *a, char *buf, size_t size) noexcept nogil:
    a.first.prev = NULL
    a.first.size = size
    a.first.used = 0
    a.first.data = buf
    a.top = &a.first
    a.spare = NULL


cdef void *_arena_alloc(Arena *a, size_t nbytes) noexcept nogil:
    """nbytes (rounded up to 16) from the top of the arena; NULL when memory runs out."""
    cdef size_t n = _round16(nbytes)
    cdef Chunk *c = a.top
    cdef Chunk *fresh
    cdef size_t size
    if c.used + n <= c.size:
        c.used += n
        return c.data + c.used - n
    if a.spare != NULL and a.spare.size >= n:
        fresh = a.spare
        a.spare = NULL
    else:
        size = c.size * 2
        if size < ARENA_MIN_CHUNK:
            size = ARENA_MIN_CHUNK
        if size < n:
            size = n
        fresh = <Chunk *>malloc(sizeof(Chunk) + size)
        if fresh == NULL:
            return NULL
        fresh.size = size
        fresh.data = <char *>(fresh + 1)
    fresh.prev = c
    fresh.used = n
    a.top = fresh
    return fresh.data


cdef void *_arena_extend(Arena *a, void *p, size_t old, size_t new) noexcept nogil:
    """Grow the latest allocation p from old to new bytes: in place when it is at the top of its
    chunk and fits, else copied to a fresh block (the old one is given back at release)."""
    cdef Chunk *c = a.top
    cdef void *q
    if p != NULL and <char *>p + _round16(old) == c.data + c.used and \
            c.used - _round16(old) + _round16(new) <= c.size:
        c.used = c.used - _round16(old) + _round16(new)
        return p
    q = _arena_alloc(a, new)
    if q != NULL and p != NULL:
        memcpy(q, p, old)
    return q


cdef inline Mark _arena_mark(Arena *a) noexcept nogil:
    cdef Mark m
    m.chunk = a.top
    m.used = a.top.used
    return m


cdef void _arena_release(Arena *a, Mark m) noexcept nogil:
    """Give back everything allocated since m (a node returning)."""
    cdef Chunk *c
    while a.top != m.chunk:
        c = a.top
        a.top = c.prev
        if a.spare == NULL:
            a.spare = c
        elif c.size > a.spare.size:
            free(a.spare)
            a.spare = c
        else:
            free(c)
    a.top.used = m.used


cdef void _arena_free(Arena *a) noexcept nogil:
    cdef Mark bottom
    bottom.chunk = &a.first
    bottom.used = 0
    _arena_release(a, bottom)
    free(a.spare)
    a.spare = NULL


cdef uint64_t _hash_key(const int32_t *key, int len) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef int i
    for i in range(len):
        h ^= <uint64_t>(<uint32_t>key[i])
        h *= 1099511628211ULL
    return h | 1  # 0 marks an empty slot


cdef Py_ssize_t _memo_find(const Memo *m, const int32_t *key, int len, uint64_t h) noexcept nogil:
    """Slot holding key, or the empty slot where it would go; -1 while the memo is empty."""
    cdef Py_ssize_t i
    if m.slots == NULL:
        return -1
    i = <Py_ssize_t>(h & <uint64_t>(m.cap - 1))
    while m.slots[i].hash != 0:
        if m.slots[i].hash == h and m.slots[i].len == len and \
                memcmp(&m.pool[m.slots[i].key], key, len * sizeof(int32_t)) == 0:
            return i
        i = (i + 1) & (m.cap - 1)
    return i


cdef void _memo_init(Memo *m) noexcept nogil:
    m.slots = NULL
    m.cap = 0
    m.size = 0
    m.pool = NULL
    m.pool_len = 0
    m.pool_cap = 0


cdef void _memo_free(Memo *m) noexcept nogil:
    free(m.slots)
    free(m.pool)
    _memo_init(m)


cdef int _memo_grow(Memo *m) noexcept nogil:
    """Double the table (64 slots the first time); 0 when memory runs out."""
    cdef Py_ssize_t cap = m.cap * 2 if m.cap else 64, i, j
    cdef MemoSlot *slots = <MemoSlot *>calloc(cap, sizeof(MemoSlot))
    cdef Memo bigger
    if slots == NULL:
        return 0
    bigger = m[0]
    bigger.slots = slots
    bigger.cap = cap
    for i in range(m.cap):
        if m.slots[i].hash != 0:
            j = _memo_find(&bigger, &m.pool[m.slots[i].key], m.slots[i].len, m.slots[i].hash)
            slots[j] = m.slots[i]
    free(m.slots)
    m.slots = slots
    m.cap = cap
    return 1


cdef void _memo_store(Ctx *ctx, const int32_t *key, int len, uint64_t h, int value, char exact) noexcept nogil:
    cdef Memo *m = &ctx.memo
    cdef Py_ssize_t i
    cdef int64_t cap
    cdef int32_t *grown
    if 2 * (m.size + 1) > m.cap and not _memo_grow(m):
        ctx.oom = 1
        return
    i = _memo_find(m, key, len, h)
    if m.slots[i].hash == 0:
        if m.pool_len + len > m.pool_cap:
            cap = m.pool_cap * 2 if m.pool_cap else 1024
            while cap < m.pool_len + len:
                cap *= 2
            grown = <int32_t *>realloc(m.pool, cap * sizeof(int32_t))
            if grown == NULL:
                ctx.oom = 1
                return
            m.pool = grown
            m.pool_cap = cap
        memcpy(&m.pool[m.pool_len], key, len * sizeof(int32_t))
        m.slots[i].hash = h
        m.slots[i].key = m.pool_len
        m.slots[i].len = len
        m.pool_len += len
        m.size += 1
    m.slots[i].value = value
    m.slots[i].exact = exact


cdef void _ctx_init(Ctx *ctx, char *buf, size_t size, int64_t max_nodes) noexcept nogil:
    _memo_init(&ctx.memo)
    _arena_init(&ctx.arena, buf, size)
    ctx.oom = 0
    ctx.stop = 0
    ctx.nodes = 0
    ctx.max_nodes = max_nodes


cdef void _ctx_free(Ctx *ctx) noexcept nogil:
    _memo_free(&ctx.memo)
    _arena_free(&ctx.arena)

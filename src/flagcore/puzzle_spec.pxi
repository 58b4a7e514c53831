# Cycles, solve checks and the spec's par (method="enumerate"): included by _puzzle.pyx.
# Inputs are trusted here (see _puzzle.pyx): permutations of 0..n-1, classes 0..k-1.

cdef int64_t _cycles(const int32_t *p, Py_ssize_t n, unsigned char *seen) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int64_t cycles = 0
    memset(seen, 0, n)
    for i in range(n):
        if seen[i]:
            continue
        cycles += 1
        j = i
        while not seen[j]:
            seen[j] = 1
            j = p[j]
    return cycles


cdef int64_t _cycles_checked(const int32_t *p, Py_ssize_t n, unsigned char *seen) noexcept nogil:
    """_cycles of any int32 vector, -1 when it is not a permutation of 0..n-1: the check rides on
    the walk. Every read is range-checked, and a walk from an unseen slot must close at that slot:
    stopping at another seen slot means that slot has two preimages (a tile appears twice)."""
    cdef Py_ssize_t i, j
    cdef int32_t x
    cdef int64_t cycles = 0
    memset(seen, 0, n)
    for i in range(n):
        if seen[i]:
            continue
        cycles += 1
        j = i
        while not seen[j]:
            seen[j] = 1
            x = p[j]
            if x < 0 or x >= n:
                return -1
            j = x
        if j != i:
            return -1
    return cycles


cdef bint _strictly_solved(const int32_t *p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t s
    for s in range(n):
        if p[s] != s:
            return False
    return True


cdef bint _visually_solved(const int32_t *p, const int32_t *cls, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t s
    for s in range(n):
        if cls[p[s]] != cls[s]:
            return False
    return True


cdef int64_t _closed_form(const int32_t *pi, const int32_t *cls, int n, int k) noexcept nogil:
    """K <= 3: mismatch matrix, extract 2-cycles, add the residual directed triangles."""
    cdef int m[3][3]
    cdef int s, a, b, t, misplaced = 0, cycles = 0, t1, t2
    memset(m, 0, sizeof(m))
    for s in range(n):
        a = cls[s]
        b = cls[pi[s]]
        if a != b:
            m[a][b] += 1
            misplaced += 1
    for a in range(k):
        for b in range(a + 1, k):
            t = m[a][b] if m[a][b] < m[b][a] else m[b][a]
            m[a][b] -= t
            m[b][a] -= t
            cycles += t
    if k == 3:
        t1 = min(m[0][1], min(m[1][2], m[2][0]))
        t2 = min(m[0][2], min(m[2][1], m[1][0]))
        cycles += t1 if t1 > t2 else t2
    return misplaced - cycles


cdef bint _next_permutation(int *a, int n) noexcept nogil:
    """Lexicographic successor in place; False (and the array sorted again) after the last one."""
    cdef int i = n - 2, j, t
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i >= 0:
        j = n - 1
        while a[j] <= a[i]:
            j -= 1
        t = a[i]; a[i] = a[j]; a[j] = t
    j = n - 1
    t = i
    i += 1
    while i < j:
        a[i], a[j] = a[j], a[i]
        i += 1
        j -= 1
    return t >= 0


cdef int64_t _enumerate(const int32_t *pi, const int32_t *cls, int n, int k) noexcept nogil:
    """n - max over sigma in G_1! x ... x G_K! of cycles(sigma^-1 pi); PAR_ENUM_CAP past the cap,
    PAR_NO_MEMORY."""
    cdef int64_t total = 1, best = 0, cycles
    cdef int j, i, s, x, size
    cdef int *start = <int *>calloc(k + 1, sizeof(int))
    cdef int *fill = <int *>calloc(k + 1, sizeof(int))
    cdef int *members = <int *>malloc((n + 1) * sizeof(int))
    cdef int *perm = <int *>malloc((n + 1) * sizeof(int))
    cdef int *inv = <int *>malloc((n + 1) * sizeof(int))
    cdef int *stamp = <int *>calloc(n + 1, sizeof(int))
    cdef int gen = 0
    if start == NULL or fill == NULL or members == NULL or perm == NULL or inv == NULL or stamp == NULL:
        free(start); free(fill); free(members); free(perm); free(inv); free(stamp)
        return PAR_NO_MEMORY
    for s in range(n):
        start[cls[s] + 1] += 1
    for j in range(k):
        size = start[j + 1]
        for i in range(2, size + 1):
            total *= i
            if total > ENUMERATION_CAP:
                break
        if total > ENUMERATION_CAP:
            break
        start[j + 1] += start[j]
    if total > ENUMERATION_CAP:
        free(start); free(fill); free(members); free(perm); free(inv); free(stamp)
        return PAR_ENUM_CAP
    for s in range(n):
        j = cls[s]
        members[start[j] + fill[j]] = s
        perm[start[j] + fill[j]] = fill[j]
        fill[j] += 1
    for s in range(n):
        inv[s] = s  # sigma = identity: members[start+i] -> members[start+perm[i]] with perm = id
    while True:
        # cycles of rho(s) = sigma^-1(pi(s)); stamps instead of clearing a seen array per candidate
        gen += 1
        cycles = 0
        for s in range(n):
            if stamp[s] == gen:
                continue
            cycles += 1
            x = s
            while stamp[x] != gen:
                stamp[x] = gen
                x = inv[pi[x]]
        if cycles > best:
            best = cycles
        # odometer over the groups, each stepping through its orderings lexicographically
        j = 0
        while j < k:
            size = start[j + 1] - start[j]
            if _next_permutation(&perm[start[j]], size):
                for i in range(size):
                    inv[members[start[j] + perm[start[j] + i]]] = members[start[j] + i]
                break
            for i in range(size):
                inv[members[start[j] + i]] = members[start[j] + i]
            j += 1
        if j == k:
            break
    free(start); free(fill); free(members); free(perm); free(inv); free(stamp)
    return n - best


cdef int64_t _par_enumerate(const int32_t *pi, const int32_t *cls, int n, int k, unsigned char *seen) noexcept nogil:
    cdef int64_t r
    if k <= 3:
        return _closed_form(pi, cls, n, k)
    r = _enumerate(pi, cls, n, k)
    if r == PAR_ENUM_CAP:  # the spec's fallback past the cap: the identity count, an upper bound
        return n - _cycles(pi, n, seen)
    return r


/* mulberry32 and FNV-1a 32, shared by every compiled module (docs/architecture.md:
 * both twins consume the same draws in the same order).
 * Static inline so each extension gets its own copy and no module has to import another. */
#ifndef FLAGCORE_MULBERRY32_H
#define FLAGCORE_MULBERRY32_H
#include <stdint.h>
#include <stddef.h>

/* One draw as the 32-bit integer u; the JavaScript float is u / 2^32. */
static inline uint32_t fc_mulberry32_next(uint32_t *state) {
    uint32_t a = *state + 0x6D2B79F5u;
    uint32_t t;
    *state = a;
    t = (a ^ (a >> 15)) * (a | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

/* Math.floor(rng() * bound) without floating point: u * bound / 2^32 is exact in 64 bits,
 * and the double product in JavaScript is exact too (u * bound < 2^53), so they agree. */
static inline uint32_t fc_mulberry32_below(uint32_t *state, uint32_t bound) {
    return (uint32_t)(((uint64_t)fc_mulberry32_next(state) * (uint64_t)bound) >> 32);
}

/* Fisher-Yates exactly as the spec's shuffleArray, in place over int32 items. */
static inline void fc_shuffle_i32(int32_t *items, ptrdiff_t n, uint32_t *state) {
    ptrdiff_t i;
    for (i = n - 1; i > 0; i--) {
        uint32_t j = fc_mulberry32_below(state, (uint32_t)(i + 1));
        int32_t tmp = items[i];
        items[i] = items[j];
        items[j] = tmp;
    }
}

#define FC_FNV_OFFSET 2166136261u
#define FC_FNV_PRIME 16777619u

static inline uint32_t fc_fnv1a32(const unsigned char *data, size_t n) {
    uint32_t h = FC_FNV_OFFSET;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= data[i];
        h *= FC_FNV_PRIME;
    }
    return h;
}
#endif

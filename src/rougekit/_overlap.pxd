from libc.stdint cimport int32_t, int64_t

# Clipped n-gram overlap of two dense id arrays (ids < vocab); -1 when out of
# memory. Touches no Python object.
cdef int64_t clipped_overlap_ids(const int32_t* a, Py_ssize_t na,
                                 const int32_t* b, Py_ssize_t nb,
                                 Py_ssize_t vocab, Py_ssize_t n) noexcept nogil

cdef Py_ssize_t stem_ascii(char* s, Py_ssize_t n, Py_ssize_t cap) noexcept nogil

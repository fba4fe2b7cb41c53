# The script's Porter stemmer in C, for the tokenizer of the summaries
# (_rouge155_tokens): stem the lowercase ASCII word w[0:n] in place (w has
# room for n + 1 chars); returns its new length.
cdef Py_ssize_t stem_chars(char* w, Py_ssize_t n) noexcept nogil

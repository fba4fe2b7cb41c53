"""rougekit's private compiled layer: each kernel beside its pure-Python twin.

``_<name>.pyx`` is a Cython extension module and ``_<name>_py.py`` the
pure-Python module with the same public names, signatures, results and errors
(the readable specification, and the oracle the extension is fuzzed against).
Which of the two runs is decided once, by ``rougekit._backend`` for every name
of ``_backend.KERNELS``; nothing else imports a compiled module, so
``ROUGEKIT_PURE_PYTHON=1`` loads no extension.

================  =========================================================
``tokenizer``     rouge-score's default tokens of a str, straight to ids in
                  a hash table that caches each token's Porter stem;
                  sentence breaks kept for rougeLsum
``porter``        NLTK's Porter stemmer (``stem``) and a stem memo
                  (``StemCache``)
``lcs``           bit-parallel LCS length, rouge-score's LCS positions,
                  union LCS and rougeLsum's hits (length and hits on token
                  lists too)
``overlap``       clipped n-gram overlap through an exact id table; the same
                  on token lists and on rouge-score's Counters
``engine``        a whole (target, prediction) pair: tokens, stems, the
                  kernels above, P/R/F in rouge-score's order of operations
                  (``RougeScorer.score`` and ``score_batch``)
``text_index``    many texts as ids: one query scored against all
                  (``RougeIndex``)
``dedup_filter``  the greedy de-duplication filter over a ``text_index``'s
                  texts (``deduplicate``)
``ids_score``     token-id rows read in place from int32/int64 arrays (2-D
                  padded, or values and offsets), each pair's ids numbered
                  densely, the kernels above, P/R/F into columns
                  (``score_ids``)
``alignment``     both sides' positions of the LCS rouge-score's table walk
                  picks and of rougeLsum's hits, in linear memory
                  (``explain``)
``punkt``         nltk's Punkt sentence spans (``sent_tokenize``) with a
                  model's parameters, on the text's code points
                  (``_sentences.nltk_sentences``)
================  =========================================================

``rougekit.rouge155`` (ROUGE-1.5.5 without Perl) runs five kernels:

======================  ===================================================
``rouge155_stem``       the script's Porter variant
``rouge155_tokens``     the summaries' token ids (``TokenCorpus``)
``rouge155_counts``     counts of N/S/SU/L/W per evaluation (``score_evals``
                        on a ``Corpus`` and ``Jobs``, each checked once)
``rouge155_lcs``        L and W of one model against one peer
``rouge155_bootstrap``  the bootstrap with Perl's drand48
======================  ===================================================

Shared by the extension modules (cimported, inline), each idea defined once
for C, beside its Python definition (``_<name>_py.py``) where Python needs
it too: ``_kinds.pxd`` (the rouge kinds), ``_prf.pxd`` (rouge-score's
P/R/F), ``_lcs.pxd`` (the bit-parallel LCS row step, and ``_lcs``'s entry
points), ``_lcs_one_word.pxd`` (rougeLsum's union LCS of sentences in one
word, for ``_lcs``), ``_grams.pxd`` (64-bit keys to dense ids: the n-gram
and skip-bigram table), ``_vocab.pxd`` (the token hash table),
``_match_masks.pxd`` (a text's LCS masks and its hits: ``text_index``,
``dedup_filter``), ``_text_index.pxd`` (a ``TextIndex``'s C layout, for
``dedup_filter``), ``_text_index_state.py`` (a ``TextIndex``'s contents as
plain values, what a pickle of a ``RougeIndex`` holds, and their check on
load: both twins write and read it), ``_mem.pxd`` (checked array growth, the id limit),
``_ids.pxd`` (id arrays from Python), ``_rouge155_numbers.pxd`` (the
script's rounding and F) and ``_rouge155_corpus.pxd`` (a run's corpus as C
arrays); and the C headers of ``include/`` (bit scans, 16-byte character
classification, the bootstrap's SIMD sums, portability shims).
``tests/test_one_definition.py`` looks for copies of them.
"""

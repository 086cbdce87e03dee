/*
 * fuzz_load.h: the form of fuzz_load's input (fuzz_load.c), which the
 * seed corpus's writer (corpus.c) speaks too.
 *
 * Byte 0 picks the base file: even, a small profile the generator wrote
 * (2 ranks, 2 threads, tasks, GPU and await columns); odd, the fixture
 * gpu_likwid_perf_lineprof.h5 (perf_events, LIKWID and line-profile
 * tables as scope-profiler writes them) with a column of per-call event
 * metadata added, one JSON list a row.  Then up to FUZZ_MAX_EDITS edits,
 * each an op byte (taken % FUZZ_OP_COUNT) and its operands; a missing
 * operand reads as 0.  Every edit is made with libhdf5, so the file stays
 * a well-formed HDF5 file.
 *
 *   VALUES   obj, k, then k x (u32 index, int): set values of a dataset
 *   LENGTH   obj, mode, [n]: change a dataset's length
 *   TYPE     obj, type: the same values as another type
 *   TYPE2    obj, type, 2d: the same, maybe as two columns
 *   STORAGE  obj, u32 chunk, deflate: chunked storage
 *   ALIAS    obj, n: a hard link /events/aliasN to it
 *   ATTR     obj, name, kind, n, values: set an attribute
 *   DELETE   obj: unlink it
 *   META     row, mode, u16 n, n bytes of text: a row of
 *            /rank_region_index/event_metadata: the text as it is
 *            (mode % 4 == 0), nested in n / 2 + depth lists where depth
 *            is 256 x the text's first byte (1), a string of n x 1024
 *            'a's before the text (2), or the row of every list (3)
 *   TABLE    obj, kind, d0, d1, values: a dataset of a counters or
 *            line-profile table (obj picks among those only) made
 *            again in another shape: two dimensions d0 x d1, a scalar,
 *            empty, strings, or floats with NaN and infinities
 *
 * obj picks an object of the base file (% their number) in the order
 * H5Ovisit gives; an int is one byte choosing an extreme (INT64_MIN,
 * INT64_MAX, 2^62, ...) or, past them, eight bytes.
 */
#ifndef SCOPEVIEW_FUZZ_LOAD_H
#define SCOPEVIEW_FUZZ_LOAD_H

#define FUZZ_MAX_EDITS 8

enum fuzz_op {
	FUZZ_OP_VALUES,
	FUZZ_OP_LENGTH,
	FUZZ_OP_TYPE,
	FUZZ_OP_TYPE2,
	FUZZ_OP_STORAGE,
	FUZZ_OP_ALIAS,
	FUZZ_OP_ATTR,
	FUZZ_OP_DELETE,
	FUZZ_OP_META,
	FUZZ_OP_TABLE,
	FUZZ_OP_COUNT
};

/* TABLE's kinds. */
enum fuzz_table {
	FUZZ_TABLE_2D,
	FUZZ_TABLE_SCALAR,
	FUZZ_TABLE_EMPTY,
	FUZZ_TABLE_STRINGS,
	FUZZ_TABLE_FLOATS,
	FUZZ_TABLE_COUNT
};

#endif

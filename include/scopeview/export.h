/*
 * export.h: a profile's calls in other tools' formats, for `scopeview
 * export` and the viewer's :export (through sink.h): Chrome's trace-event
 * JSON (Perfetto, chrome://tracing), speedscope's file format and CSV,
 * and the folded stacks of the call tree (tree.h).
 *
 * Every writer streams: it walks the lanes of the scope (sink.h) in
 * order, each lane's calls by start, and writes call by call through a
 * buffer of its own, so what it holds beyond the profile is that buffer,
 * the region names and lane labels escaped once, and one lane's stack of
 * open calls.  One call is one event (chrome), one open and one close
 * event (speedscope) or one row (csv).  Names from the file are written
 * as stored, escaped as JSON strings (RFC 8259) or quoted as CSV fields
 * (RFC 4180).  A call's metadata is the object `scopeview calls` gives
 * (sv_report_call_metadata), NaN and infinities as null.
 *
 * Chrome: {"traceEvents": [...], "displayTimeUnit": "ns", "otherData":
 *   {"file", "exporter"}}: per rank a process_name metadata event
 *   ("rank N"), per lane a thread_name (the lane's label) and a
 *   thread_sort_index, then per call {"ph": "X", "name": REGION, "cat":
 *   "region", "pid": RANK, "tid": LANE, "ts", "dur", "args"}: ts (from the
 *   profile's time origin) and dur in microseconds, exact to the ns (three
 *   decimals), LANE the lane's index in the profile; args {"start_ns",
 *   "end_ns" (absolute, as stored), "duration_ns", "exclusive_ns",
 *   "depth", "call", "parent" (call numbers: the call's index in the
 *   profile, storage order, and its enclosing call's, null at the top),
 *   "gpu_ns", "await_ns", "call_id", "parent_id" (each when the file has
 *   the column), "metadata" (when the file has any)}.
 * Speedscope: {"$schema", "exporter", "name", "activeProfileIndex",
 *   "shared": {"frames": [{"name", "file", "line"}]} (a frame per region,
 *   file and line when the file gives a source), "profiles": [...]}, a
 *   profile {"type": "evented", "name": LANE LABEL, "unit": "nanoseconds",
 *   "events": [{"type": "O" or "C", "frame", "at"}], "startValue",
 *   "endValue"} per lane with calls in scope; at in ns from the time
 *   origin; events ordered by at and balanced (every open closed, a
 *   close always of the innermost open frame).  A call that overlaps the
 *   end of its enclosing call (a nesting warning) is closed with it.
 * CSV: a header row "call,rank,lane,region,start_ns,end_ns,duration_ns,
 *   exclusive_ns,depth,parent,gpu_ns,await_ns,metadata", then a row per
 *   call; call and parent as in Chrome's args, empty when absent; the
 *   metadata a JSON object (empty when the file has none).
 *
 * The writers never print to the terminal and never exit; they return 0,
 * or -EIO (with err) when the stream reported a write error.
 */
#ifndef SCOPEVIEW_EXPORT_H
#define SCOPEVIEW_EXPORT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/export.h belongs to the report layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"
#include "scopeview/sink.h"

/* Whether call c of p is in sc (sink.h; sc NULL keeps every call). */
bool sv_export_call_in(const struct sv_profile *p,
	const struct sv_export_scope *sc, uint32_t c);

/* The writers; file is the path named in the output (NULL: p->path). */
int sv_export_chrome(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err);
int sv_export_speedscope(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err);
int sv_export_csv(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err);
/* scope-profiler's JSON profile (doc/format.md 16.3), what its export
 * --format json writes and sv_load reads back: a row per (region, rank)
 * in the region table's order, ranks ascending, each row's calls of sc in
 * storage order (starts, ends, the optional columns the row has, the
 * per-call metadata), the stored exclusive total of a whole row, or the
 * stored statistics ("aggregate") of a run without calls; metadata, lane
 * tables and line profiles.  LIKWID results are not written (the profile
 * keeps only their sums over threads). */
int sv_export_json(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err);
/* The folded stacks of the call tree of sc, recursion expanded
 * (sv_tree_write_collapsed); with a range, each call's time inside it. */
int sv_export_collapsed(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err);

/*
 * An export in parts (scopeview-mpi, dist.h): each process writes the
 * items of its share of the ranks (its lanes' Chrome events, speedscope
 * profiles and CSV rows; its rows of a JSON profile) and one process
 * the head and the tail from the whole profile's rows, so that the
 * pieces put together in order are the bytes the writers above give.
 * Every item of a JSON list is written with the separator that goes
 * before it ("," a line, ", " in a JSON profile's regions): whoever puts
 * the pieces together drops the first item's.  The facts of the whole
 * profile a share may not show (its time origin, its columns, its
 * numbering of calls and lanes) come in the part.
 */
struct sv_export_part {
	const bool *share; /* the ranks whose items are written (nshare
			      flags); NULL: every rank */
	uint32_t nshare;
	int64_t origin;           /* the whole run's time origin */
	int64_t lane_shift;       /* lane l of p is the whole's l + shift */
	const uint64_t *row_call; /* per row of p, the whole profile's number
				     of its first call; NULL: p's own */
	/* The whole file has: call metadata, nesting, exclusive times, the
	 * GPU and await columns, call and parent ids, calls at all. */
	bool meta, nest, excl, gpu, await, id_call, id_parent, has_calls;
	/* JSON: the ranks some lane of which is in the scope (a row or
	 * lane table of another rank is left out); NULL: p's own. */
	const bool *rank_in;
	uint32_t nrank_in;
	/* JSON's rows: the rows of p to write, in order. */
	const uint32_t *rows;
	size_t nrows;
	/* JSON: the whole profile's rows of /thread_table and /task_table
	 * (each table's key is written when it has some), and the list a
	 * piece is of or after: 0 the regions, 1 the threads, 2 the
	 * tasks. */
	size_t nthreads, ntasks;
	int table;
	bool any; /* the tail: the list had items */
};

/* The rows of p in a JSON profile's order (by region, rank, then
 * storage order): p->nrows indexes, malloc'd.  Not thread-safe. */
uint32_t *sv_export_json_order(const struct sv_profile *p);

/* The part that is the whole of p. */
void sv_export_part_of(struct sv_export_part *part, const struct sv_profile *p);

enum sv_export_piece {
	SV_EXPORT_HEAD,    /* everything before the list (whole profile) */
	SV_EXPORT_LANES,   /* Chrome: the share's lanes' metadata events;
			    JSON: its ranks' rows of table (1, 2) */
	SV_EXPORT_CALLS,   /* the share's calls: Chrome's events, speedscope's
			    profiles, CSV's rows */
	SV_EXPORT_ROWS,    /* JSON: part->rows */
	SV_EXPORT_BETWEEN, /* JSON: what follows list part->table (whole) */
	SV_EXPORT_TAIL,    /* everything after the list (whole profile) */
};

/* Where the items of an export's list written in pieces go (by several
 * writers one after the other: scopeview-mpi's processes, the shares of
 * a large file): out, less the separator before the list's first item
 * (skip bytes), and whether the list has an item at all (the tail's
 * part->any).  sv_export_sink_stream gives a stream that writes into the
 * sink (NULL when none can be made; fclose it before the tail). */
struct sv_export_sink {
	FILE *out;
	size_t skip;
	bool any;
};
void sv_export_sink_put(struct sv_export_sink *s, const char *b, size_t n);
FILE *sv_export_sink_stream(struct sv_export_sink *s);

/* One piece of an export in format ("chrome", "speedscope", "csv" or
 * "json": the formats written call by call) to out; a piece a format
 * does not have writes nothing.  0, or what the writer returns. */
int sv_export_piece(const char *format, enum sv_export_piece piece, FILE *out,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const char *file, const struct sv_export_part *part,
	struct sv_error *err);

#endif

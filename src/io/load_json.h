/*
 * load_json.h: reading JSON profiles (doc/format.md 16.3).  Private to
 * src/io/load_json*.c.
 *
 * The document is parsed streaming by YAJL (Debian's libyajl2), whose
 * callbacks the reader turns into the profile's columns as the numbers
 * arrive: no tree of the document is ever built, and the bytes come a
 * block at a time from the file, through zlib for gzip (sv_jin).
 */
#ifndef SCOPEVIEW_IO_LOAD_JSON_H
#define SCOPEVIEW_IO_LOAD_JSON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include <yajl/yajl_parse.h>
#include <zlib.h>

#include "load_priv.h"

/* A JSON profile's bytes, plain or gunzipped (load_json_in.c): blocks of
 * SV_JIN_BLOCK bytes; gzip is inflated on a thread of its own into
 * SV_JIN_SLOTS blocks ahead of the reader. */
#define SV_JIN_BLOCK (1 << 20)
#define SV_JIN_SLOTS 4

struct sv_jin {
	const char *path;
	int fd;
	bool gz, z_live, member_done;
	z_stream z;                /* the inflating thread's */
	unsigned char *raw;        /* compressed bytes read ahead */
	uint64_t size;             /* of the file */
	atomic_uint_fast64_t read; /* bytes of the file read so far */
	unsigned char *slot[SV_JIN_SLOTS];
	ssize_t len[SV_JIN_SLOTS]; /* bytes, 0 at the end, < 0 an error */
	size_t head, full;         /* the next slot to hand out; filled */
	bool holding;              /* slot head is with the reader */
	bool threaded, sync, stop;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct sv_error perr; /* the inflating thread's error */
};

int sv_jin_open(
	struct sv_jin *in, const char *path, bool gz, struct sv_error *err);
/* The next block of the document in *data (valid until the next call):
 * its length, 0 at the end, or a negative errno with err filled (a
 * damaged or truncated gzip). */
ssize_t sv_jin_next(
	struct sv_jin *in, const unsigned char **data, struct sv_error *err);
/* How far through the file the reading is, in [0, 1]. */
double sv_jin_fraction(const struct sv_jin *in);
void sv_jin_close(struct sv_jin *in);

/* A JSON profile, unfinished (load_json_doc.c): sv_load_json. */

/* ------------------------------------------------------------------ */
/* The parser's state (load_json.c: YAJL's callbacks; load_json_row.c:
 * a row once it ends). */

#define JL_DEPTH    64    /* containers the reader follows */
#define JL_MAX_SKIP 10000 /* nesting inside a skipped value */

enum jl_ctx {
	JL_ROOT,
	JL_META,
	JL_META_LIST,
	JL_REGIONS,
	JL_ROW,
	JL_TAGS,
	JL_COL,
	JL_AGG,
	JL_LANES,
	JL_LANE_LIST,
	JL_LANE,
};

/* The per-call columns of a row, in the order of sv_profile's fields. */
enum jl_col {
	JL_START,
	JL_END,
	JL_GPU,
	JL_CALL,
	JL_PARENT,
	JL_THREAD,
	JL_TASK,
	JL_AWAIT,
	JL_NCOLS
};

static const char *const jl_col_names[JL_NCOLS] = {"start_times_ns",
	"end_times_ns", "gpu_durations_ns", "call_ids", "parent_ids",
	"thread_ids", "task_ids", "await_ns"};
static const int64_t jl_col_fill[JL_NCOLS] = {0, 0, -1, -1, -1, -1, -1, 0};

/* The aggregate object's fields (json_export.py: a stored summary). */
static const char *const jl_agg_names[] = {"count", "total", "minimum",
	"maximum", "first", "last", "start_minimum", "end_maximum", "gpu_count",
	"gpu_total", "mean", "m2", "exclusive"};
#define JL_NAGG (sizeof jl_agg_names / sizeof jl_agg_names[0])

struct jl_row {
	char *name, *source_file, *source_text;
	bool has_rank, has_agg, no_events, has_excl;
	int64_t rank, source_line, excl;
	struct sv_strv tags;
	int64_t agg_i[JL_NAGG];
	double agg_d[JL_NAGG];
	bool agg_has[JL_NAGG];
};

enum jl_kind { JK_NULL, JK_BOOL, JK_INT, JK_DOUBLE, JK_STRING };

struct jl_val {
	enum jl_kind kind;
	long long i;
	double d;
	const unsigned char *s;
	size_t len;
};

/* What a value kept as text is (sv_jl_cap_begin). */
enum jl_cap { JL_CAP_NONE, JL_CAP_EMETA, JL_CAP_LIKWID, JL_CAP_LINES };

/* A row's event_metadata, kept for after the parse (call_meta is sized
 * once every row is in). */
struct jl_emeta {
	uint64_t first, count;
	size_t nrow;
	char *text;
};

struct jl {
	struct sv_profile *p;
	const char *path;
	struct sv_error *err;
	int rc;
	enum jl_ctx stack[JL_DEPTH];
	size_t depth;
	size_t skip; /* > 0: inside a value not read */
	int key;     /* what the last key of the open object names */
	char *meta_key;
	struct sv_strv meta_list;
	bool meta_list_odd;
	/* root */
	bool has_format, has_version;
	int64_t version, num_ranks;
	bool has_num_ranks;
	bool lanes_tasks;
	uint32_t lane_rank;
	struct sv_thread thread;
	struct sv_task task;
	/* the row being read */
	size_t nrow;
	struct jl_row row;
	int col;                 /* the column being read */
	int64_t *cols[JL_NCOLS]; /* scratch of the optional columns */
	size_t n[JL_NCOLS], cap[JL_NCOLS];
	bool has[JL_NCOLS];
	size_t rows_added;
	struct sv_load_names names;
	uint64_t *pairs; /* (region << 32 | rank) + 1 of rows added */
	size_t npairs;
	/* A value kept as compact JSON text (load_json_extra.c). */
	enum jl_cap cap_kind;
	size_t cap_depth;      /* its containers still open */
	unsigned char *cap_st; /* per open container: 1 first item, 2 map */
	size_t cap_st_cap;
	bool cap_after_key;
	char *cap_text;
	size_t cap_n, cap_cap;
	char *row_emeta; /* the row's event_metadata text */
	struct jl_emeta *emeta;
	size_t nemeta, emeta_cap;
	char *likwid_text, *lines_text;
};

/* YAJL's callbacks over a struct jl (load_json.c). */
extern const yajl_callbacks sv_jl_callbacks;
/* Note the first error ("PATH: message", j->rc); returns 0, which stops
 * YAJL. */
int sv_jl_fail(struct jl *j, int code, const char *fmt, ...) SV_PRINTF(3, 4);
/* A row of the regions list begins / has ended: add it to the profile
 * (load_json_row.c); 0 after a failure. */
void sv_jl_row_reset(struct jl *j);
int sv_jl_row_end(struct jl *j);

/* Keeping a value as text (load_json_extra.c): begin before its opening
 * container; the callbacks then hand every token to the sv_jl_cap_*
 * below until it closes.  Return 1, or 0 to stop YAJL. */
void sv_jl_cap_begin(struct jl *j, enum jl_cap kind);
int sv_jl_cap_open(struct jl *j, bool map);
int sv_jl_cap_close(struct jl *j);
int sv_jl_cap_key(struct jl *j, const unsigned char *k, size_t len);
int sv_jl_cap_scalar(struct jl *j, const struct jl_val *v);
/* After the parse: the rows' event metadata, LIKWID results and line
 * profiles kept as text, into the profile (warnings for what does not
 * fit); frees them. */
void sv_jl_extras(struct jl *j);

#endif

/*
 * load_h5_tables.c: the lane tables /thread_table and /task_table
 * (doc/format.md 9.1) into the profile's thread and task names.
 *
 * A table is optional: one that is absent, short or of the wrong types is
 * dropped with a warning; only a read failure is an error.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Lane tables                                                         */

enum { TBL_INT, TBL_STR };

struct tbl_col {
	const char *name;
	int kind;
	bool required;
	int64_t fill;
	int64_t *i; /* read values */
	char **s;
};

/* Read the columns of a table group (all of the same length as the first
 * required column).  A required column missing or unusable drops the
 * table with a warning; an optional one takes its fill value. Returns the
 * row count, 0 when the table is absent or dropped, or a negative errno
 * (a read failure). */
static int64_t table_read(
	struct sv_h5 *h, const char *gname, struct tbl_col *cols, size_t ncols)
{
	char obj[256];
	hid_t g;
	hsize_t n = (hsize_t)-1;
	size_t k;
	int rc = 0;

	if (!sv_h5_exists(h->file, gname))
		return 0;
	g = H5Oopen(h->file, gname, H5P_DEFAULT);
	if (g < 0 || H5Iget_type(g) != H5I_GROUP) {
		if (g >= 0)
			H5Oclose(g);
		sv_profile_warn(h->p, "/%s: not a group; ignored", gname);
		return 0;
	}
	for (k = 0; k < ncols && rc >= 0; k++) {
		struct tbl_col *c = &cols[k];
		struct sv_h5_col col;
		snprintf(obj, sizeof obj, "/%s/%s", gname, c->name);
		rc = sv_h5_col_open(h, g, c->name, obj,
			c->kind == TBL_STR ? SV_H5_STRING : SV_H5_INT, n, &col);
		if (rc == 0) {
			if (n == (hsize_t)-1)
				n = col.n;
			if (c->kind == TBL_STR) {
				rc = sv_h5_read_strings(
					h, col.ds, obj, col.n, &c->s);
			} else {
				c->i = sv_xcalloc(
					col.n ? col.n : 1, sizeof *c->i);
				rc = sv_h5_read_range(h, col.ds, obj,
					H5T_NATIVE_INT64, 0, col.n, c->i);
			}
			sv_h5_col_close(&col);
			if (sv_h5_read_optional(h, rc, obj)) {
				/* A chunk refused: as if absent. */
				free(c->i);
				c->i = NULL;
				rc = SV_H5_ABSENT;
			}
		}
		if (rc < 0)
			break;
		if (rc == SV_H5_ABSENT) {
			rc = 0;
			if (c->required) {
				sv_profile_warn(h->p,
					"/%s: no usable %s column; table "
					"ignored",
					gname, c->name);
				rc = 1;
				break;
			}
		}
	}
	H5Oclose(g);
	if (rc < 0 || rc == 1) {
		/* Every column read holds n values: free them here (the
		 * caller frees with a count of 0). */
		for (k = 0; k < ncols; k++) {
			free(cols[k].i);
			cols[k].i = NULL;
			sv_strv_free_array(
				cols[k].s, n == (hsize_t)-1 ? 0 : (size_t)n);
			cols[k].s = NULL;
		}
	}
	if (rc < 0)
		return rc;
	if (rc == 1 || n == (hsize_t)-1)
		return 0;
	return (int64_t)n;
}

static void table_free(struct tbl_col *cols, size_t ncols, size_t n)
{
	size_t k;
	for (k = 0; k < ncols; k++) {
		free(cols[k].i);
		sv_strv_free_array(cols[k].s, cols[k].s ? n : 0);
	}
}

static int64_t tbl_i(const struct tbl_col *c, size_t r)
{
	return c->i ? c->i[r] : c->fill;
}

static char *tbl_s(const struct tbl_col *c, size_t r)
{
	if (c->s) {
		char *s = c->s[r];
		c->s[r] = NULL;
		return s;
	}
	return sv_xstrdup("");
}

static bool rank_ok(struct sv_h5 *h, const char *table, int64_t rank)
{
	if (rank >= 0 && rank < (int64_t)UINT32_MAX)
		return true;
	sv_profile_warn(h->p,
		"/%s/ranks: rank %" PRId64 " is out of range; row ignored",
		table, rank);
	return false;
}

int sv_h5_tables_load(struct sv_h5 *h)
{
	struct tbl_col th[] = {
		{"ranks", TBL_INT, true, 0, NULL, NULL},
		{"index", TBL_INT, true, 0, NULL, NULL},
		{"ident", TBL_INT, false, -1, NULL, NULL},
		{"native_id", TBL_INT, false, -1, NULL, NULL},
		{"daemon", TBL_INT, false, 0, NULL, NULL},
		{"name", TBL_STR, false, 0, NULL, NULL},
		{"start_ns", TBL_INT, false, -1, NULL, NULL},
		{"end_ns", TBL_INT, false, -1, NULL, NULL},
		{"cpu_ns", TBL_INT, false, -1, NULL, NULL},
	};
	struct tbl_col tk[] = {
		{"ranks", TBL_INT, true, 0, NULL, NULL},
		{"index", TBL_INT, true, 0, NULL, NULL},
		{"thread_index", TBL_INT, false, -1, NULL, NULL},
		{"kind", TBL_STR, false, 0, NULL, NULL},
		{"name", TBL_STR, false, 0, NULL, NULL},
		{"coro_name", TBL_STR, false, 0, NULL, NULL},
		{"created_ns", TBL_INT, false, -1, NULL, NULL},
		{"done_ns", TBL_INT, false, -1, NULL, NULL},
		{"steps", TBL_INT, false, 0, NULL, NULL},
		{"running_ns", TBL_INT, false, 0, NULL, NULL},
		{"suspended_ns", TBL_INT, false, 0, NULL, NULL},
	};
	const size_t nth = sizeof th / sizeof th[0];
	const size_t ntk = sizeof tk / sizeof tk[0];
	int64_t n, r;

	n = table_read(h, "thread_table", th, nth);
	if (n < 0) {
		table_free(th, nth, 0);
		return (int)n;
	}
	for (r = 0; r < n; r++) {
		struct sv_thread *t;
		int64_t d;
		if (!rank_ok(h, "thread_table", tbl_i(&th[0], (size_t)r)))
			continue;
		t = sv_profile_add_thread(h->p);
		t->rank = (uint32_t)tbl_i(&th[0], (size_t)r);
		t->index = tbl_i(&th[1], (size_t)r);
		t->ident = tbl_i(&th[2], (size_t)r);
		t->native_id = tbl_i(&th[3], (size_t)r);
		d = tbl_i(&th[4], (size_t)r);
		t->daemon = (int8_t)(d < INT8_MIN   ? INT8_MIN
				     : d > INT8_MAX ? INT8_MAX
						    : d);
		t->name = tbl_s(&th[5], (size_t)r);
		t->start_ns = tbl_i(&th[6], (size_t)r);
		t->end_ns = tbl_i(&th[7], (size_t)r);
		t->cpu_ns = tbl_i(&th[8], (size_t)r);
	}
	table_free(th, nth, (size_t)n);

	n = table_read(h, "task_table", tk, ntk);
	if (n < 0) {
		table_free(tk, ntk, 0);
		return (int)n;
	}
	for (r = 0; r < n; r++) {
		struct sv_task *t;
		if (!rank_ok(h, "task_table", tbl_i(&tk[0], (size_t)r)))
			continue;
		t = sv_profile_add_task(h->p);
		t->rank = (uint32_t)tbl_i(&tk[0], (size_t)r);
		t->index = tbl_i(&tk[1], (size_t)r);
		t->thread_index = tbl_i(&tk[2], (size_t)r);
		t->kind = tbl_s(&tk[3], (size_t)r);
		t->name = tbl_s(&tk[4], (size_t)r);
		t->coro_name = tbl_s(&tk[5], (size_t)r);
		t->created_ns = tbl_i(&tk[6], (size_t)r);
		t->done_ns = tbl_i(&tk[7], (size_t)r);
		t->steps = tbl_i(&tk[8], (size_t)r);
		t->running_ns = tbl_i(&tk[9], (size_t)r);
		t->suspended_ns = tbl_i(&tk[10], (size_t)r);
	}
	table_free(tk, ntk, (size_t)n);
	return 0;
}

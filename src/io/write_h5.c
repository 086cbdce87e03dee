/*
 * write_h5.c: the profile writer (write.h), schema 3, 2 and 1: opening
 * the file, its metadata, region names and tags.  The other parts are
 * listed in write_h5_priv.h.
 *
 * The only HDF5 user besides the loader.  Rows of the per-(rank, region)
 * index, region names and lane tables are kept in memory (one entry per row
 * or lane); event columns go to the file as ranks arrive, except the first
 * SV_WRITE_AUTO_COMPRESS_EVENTS events, which wait in memory until the
 * storage layout is known (contiguous when small, chunked and compressed
 * from 16384 events on: the decisions scope-profiler's publish step makes).
 *
 * Determinism: object modification times are off on every creation
 * property list, the format versions are pinned to the earliest ones (as
 * h5py writes them: superblock 0), and nothing is read from the clock or
 * the environment.
 *
 * Nothing here prints; failures come back as negative errno + sv_error.
 */
#include "write_h5_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const sv_write_col_names3[NCOLS] = {"start_deltas", "durations",
	"gpu_durations", "call_ids", "parent_ids", "thread_ids", "task_ids",
	"await_ns"};
const char *const sv_write_col_names2[NCOLS] = {"start_times", "end_times",
	"gpu_durations", "call_ids", "parent_ids", "thread_ids", "task_ids",
	"await_ns"};
const int64_t sv_write_col_fill[NCOLS] = {0, 0, SV_WRITE_NO_GPU, SV_WRITE_NO_ID,
	SV_WRITE_NO_ID, SV_WRITE_NO_THREAD, SV_WRITE_NO_TASK, 0};

/* ------------------------------------------------------------------ */
/* Open */

void sv_write_process_init(void)
{
	(void)H5dont_atexit();
}

void sv_write_free(struct sv_writer *w)
{
	size_t i;
	int c;

	if (!w)
		return;
	for (c = 0; c < NCOLS; c++) {
		if (w->spilled && w->present[c] && w->ds[c] >= 0)
			H5Dclose(w->ds[c]);
		free(w->buf[c]);
	}
	if (w->g_events > 0)
		H5Gclose(w->g_events);
	if (w->g_meta > 0)
		H5Gclose(w->g_meta);
	if (w->file > 0)
		H5Fclose(w->file);
	if (w->fapl > 0)
		H5Pclose(w->fapl);
	if (w->fcpl > 0)
		H5Pclose(w->fcpl);
	if (w->gcpl > 0)
		H5Pclose(w->gcpl);
	if (w->t_str > 0)
		H5Tclose(w->t_str);
	sv_strv_fini(&w->names);
	free(w->hash);
	for (i = 0; i < w->nrows; i++) {
		free(w->rows[i].source_file);
		free(w->rows[i].source_text);
		free(w->rows[i].tags);
	}
	free(w->rows);
	for (i = 0; i < w->nthreads; i++)
		free((char *)w->threads[i].t.name);
	free(w->threads);
	for (i = 0; i < w->ntasks; i++) {
		free((char *)w->tasks[i].t.kind);
		free((char *)w->tasks[i].t.name);
		free((char *)w->tasks[i].t.coro_name);
	}
	free(w->tasks);
	free(w->ranks_seen);
	free(w->path);
	/* Removes the temporary unless sv_writer_close committed it. */
	if (w->has_out)
		sv_outfile_abort(&w->out);
	free(w->tmp_path);
	free(w);
}

int sv_writer_open(struct sv_writer **out, const char *path,
	const struct sv_writer_opts *opts, struct sv_error *err)
{
	struct sv_writer *w;
	int c;

	if (!out || !path || !*path)
		return sv_error_set(err, -EINVAL, "no output path");
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	w = sv_xcalloc(1, sizeof *w);
	if (opts)
		w->opts = *opts;
	else
		sv_writer_opts_init(&w->opts);
	if (w->opts.schema == 0)
		w->opts.schema = 3;
	if (w->opts.schema < 1 || w->opts.schema > 3) {
		free(w);
		return sv_error_set(err, -EINVAL,
			"cannot write schema %d (only 1, 2 and 3)",
			opts->schema);
	}
	if (w->opts.aggregate && w->opts.schema == 1) {
		free(w);
		return sv_error_set(err, -EINVAL,
			"the aggregate layout needs schema 2 or 3");
	}
	for (c = 0; c < NCOLS; c++)
		w->ds[c] = -1;
	w->file = w->fapl = w->fcpl = w->gcpl = w->g_events = w->g_meta = -1;
	if (!w->opts.in_place) {
		/* The output rule (outfile.h): never an input, only a
		 * regular file or a new name, a temporary renamed at close. */
		int rc = sv_outfile_open(
			&w->out, path, w->opts.inputs, w->opts.ninputs, err);
		if (rc < 0) {
			free(w);
			return rc;
		}
		w->has_out = true;
	}
	w->path = sv_xstrdup(path);
	w->tmp_path = sv_xstrdup(w->has_out ? w->out.tmp_path : path);
	w->present[COL_A] = w->present[COL_B] = true;
	w->t_str = sv_write_str_type(0);

	w->fapl = H5Pcreate(H5P_FILE_ACCESS);
	H5Pset_libver_bounds(w->fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_V18);
	w->fcpl = H5Pcreate(H5P_FILE_CREATE);
	H5Pset_obj_track_times(w->fcpl, 0);
	w->gcpl = H5Pcreate(H5P_GROUP_CREATE);
	H5Pset_obj_track_times(w->gcpl, 0);
	w->file = H5Fcreate(w->tmp_path, H5F_ACC_TRUNC, w->fcpl, w->fapl);
	if (w->file < 0) {
		char msg[200] = "";
		H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, sv_write_walk_cb, msg);
		H5Eclear2(H5E_DEFAULT);
		sv_error_set(err, -EIO, "cannot create %s: %s", w->path,
			msg[0] ? msg : "HDF5 error");
		sv_write_free(w);
		return -EIO;
	}
	if (w->opts.schema >= 2) {
		int64_t v = w->opts.schema;
		const char *layout = w->opts.storage_layout
					     ? w->opts.storage_layout
					     : (w->opts.aggregate ? "aggregate"
								  : "columnar");
		if (sv_write_attr(w->file, "scope_profiler_schema",
			    H5T_STD_I64LE, H5T_NATIVE_INT64, &v) < 0 ||
			sv_write_attr_str(w->file, "storage_layout", w->t_str,
				layout) < 0)
			goto fail;
		w->g_events = sv_write_group(w->file, "events", w->gcpl);
		if (w->g_events < 0)
			goto fail;
	}
	w->g_meta = sv_write_group(w->file, "metadata", w->gcpl);
	if (w->g_meta < 0)
		goto fail;
	*out = w;
	return 0;
fail:
	sv_write_fail(w, err, "cannot start the file");
	sv_writer_abort(w);
	return -EIO;
}

/* ------------------------------------------------------------------ */
/* Metadata */

static int write_meta_check(
	struct sv_writer *w, const char *key, struct sv_error *err)
{
	htri_t e;
	if (!w || !key || !*key)
		return sv_error_set(err, -EINVAL, "metadata needs a key");
	if (w->failed)
		return sv_error_set(
			err, -EIO, "%s: writer failed earlier", w->path);
	e = H5Aexists(w->g_meta, key);
	if (e != 0) {
		H5Eclear2(H5E_DEFAULT);
		return sv_error_set(
			err, -EINVAL, "metadata key \"%s\" set twice", key);
	}
	return 0;
}

int sv_writer_meta_int(struct sv_writer *w, const char *key, int64_t value,
	struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (sv_write_attr(w->g_meta, key, H5T_STD_I64LE, H5T_NATIVE_INT64,
		    &value) < 0)
		return sv_write_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_float(struct sv_writer *w, const char *key, double value,
	struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (sv_write_attr(w->g_meta, key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
		    &value) < 0)
		return sv_write_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_bool(
	struct sv_writer *w, const char *key, bool value, struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	int8_t v = value ? 1 : 0, f = 0, t = 1;
	hid_t e;
	if (rc)
		return rc;
	/* h5py stores numpy bools as this enum. */
	e = H5Tenum_create(H5T_NATIVE_INT8);
	H5Tenum_insert(e, "FALSE", &f);
	H5Tenum_insert(e, "TRUE", &t);
	rc = sv_write_attr(w->g_meta, key, e, e, &v);
	H5Tclose(e);
	if (rc < 0)
		return sv_write_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_str(struct sv_writer *w, const char *key, const char *value,
	struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (sv_write_attr_str(w->g_meta, key, w->t_str, value ? value : "") < 0)
		return sv_write_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_strs(struct sv_writer *w, const char *key,
	const char *const *values, size_t n, struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (sv_write_attr_strs(w->g_meta, key, w->t_str, values, n) < 0)
		return sv_write_fail(w, err, "/metadata");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Region names and tags */

uint32_t sv_write_region_id(struct sv_writer *w, const char *name)
{
	size_t i, mask;
	uint32_t id;

	if (w->names.n * 2 >= w->hash_cap) {
		size_t cap = w->hash_cap ? w->hash_cap * 2 : 64, k;
		free(w->hash);
		w->hash = sv_xmalloc(cap * sizeof *w->hash);
		memset(w->hash, 0xff, cap * sizeof *w->hash);
		w->hash_cap = cap;
		for (k = 0; k < w->names.n; k++) {
			i = sv_hash_str(w->names.v[k]) & (cap - 1);
			while (w->hash[i] != UINT32_MAX)
				i = (i + 1) & (cap - 1);
			w->hash[i] = (uint32_t)k;
		}
	}
	mask = w->hash_cap - 1;
	i = sv_hash_str(name) & mask;
	while (w->hash[i] != UINT32_MAX) {
		if (!strcmp(w->names.v[w->hash[i]], name))
			return w->hash[i];
		i = (i + 1) & mask;
	}
	id = (uint32_t)w->names.n;
	sv_strv_push(&w->names, name);
	w->string_bytes += strlen(name);
	w->hash[i] = id;
	return id;
}

uint32_t sv_writer_region(struct sv_writer *w, const char *name)
{
	return sv_write_region_id(w, name);
}

struct write_sb {
	char *s;
	size_t len, cap;
};

static void write_sb_putn(struct write_sb *b, const char *s, size_t n)
{
	sv_grow((void **)&b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void write_sb_puts(struct write_sb *b, const char *s)
{
	write_sb_putn(b, s, strlen(s));
}

/* Python's json.dumps(list_of_str) with its defaults: ", " separators and
 * every non-ASCII character escaped as \uXXXX (surrogate pairs above
 * U+FFFF). */
char *sv_write_tags_json(const char *const *tags, size_t n)
{
	struct write_sb b = {0};
	size_t i;

	write_sb_puts(&b, "[");
	for (i = 0; i < n; i++) {
		const char *s = tags[i] ? tags[i] : "";
		size_t len = strlen(s), k = 0;
		char tmp[16];
		if (i)
			write_sb_puts(&b, ", ");
		write_sb_puts(&b, "\"");
		while (k < len) {
			uint32_t cp;
			k += sv_utf8_decode(s + k, len - k, &cp);
			switch (cp) {
			case '"':
				write_sb_puts(&b, "\\\"");
				continue;
			case '\\':
				write_sb_puts(&b, "\\\\");
				continue;
			case '\n':
				write_sb_puts(&b, "\\n");
				continue;
			case '\r':
				write_sb_puts(&b, "\\r");
				continue;
			case '\t':
				write_sb_puts(&b, "\\t");
				continue;
			case '\b':
				write_sb_puts(&b, "\\b");
				continue;
			case '\f':
				write_sb_puts(&b, "\\f");
				continue;
			default:
				break;
			}
			if (cp >= 0x20 && cp < 0x7f) {
				tmp[0] = (char)cp;
				write_sb_putn(&b, tmp, 1);
			} else if (cp < 0x10000) {
				snprintf(tmp, sizeof tmp, "\\u%04x",
					(unsigned)cp);
				write_sb_puts(&b, tmp);
			} else {
				uint32_t v = cp - 0x10000;
				snprintf(tmp, sizeof tmp, "\\u%04x\\u%04x",
					(unsigned)(0xd800 + (v >> 10)),
					(unsigned)(0xdc00 + (v & 0x3ff)));
				write_sb_puts(&b, tmp);
			}
		}
		write_sb_puts(&b, "\"");
	}
	write_sb_puts(&b, "]");
	return b.s;
}

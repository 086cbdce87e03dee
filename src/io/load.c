/*
 * load.c: the one entry through which every command opens a profile
 * (load.h): sv_load recognises what a path holds by its first bytes, not
 * by its name (doc/format.md 16): a directory of per-rank files, an HDF5
 * profile, a native trace, a JSON profile or gzip of one, hands it to
 * that format's reader, and then finishes the profile the same way for
 * every format (lanes, nesting, packing for the viewer).
 */
#include "load_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scopeview/infile.h"

int sv_load_step(const struct sv_load_opts *o, const char *path,
	double fraction, const char *what, struct sv_error *err)
{
	if (!o)
		return 0;
	if (o->progress)
		o->progress(o->ctx, fraction, what);
	if (o->cancelled && o->cancelled(o->ctx))
		return sv_error_set(
			err, -ECANCELED, "%s: loading cancelled", path);
	return 0;
}

char *sv_load_show(const char *s, size_t n)
{
	/* The one escaping rule (common.h) on each run between NUL bytes,
	 * which it cannot see in a C string; a NUL reads \x00. */
	char *out = sv_xstrdup("");
	size_t i = 0;

	while (i <= n) {
		size_t e = i;
		char *part, *safe, *joined;
		while (e < n && s[e])
			e++;
		part = sv_xstrndup(s + i, e - i);
		safe = sv_utf8_terminal_safe(part, NULL);
		joined =
			sv_xasprintf("%s%s%s", out, safe, e < n ? "\\x00" : "");
		free(out);
		free(safe);
		free(part);
		out = joined;
		i = e + 1;
	}
	return out;
}

uint32_t sv_load_names_id(struct sv_load_names *t, const char *name)
{
	size_t i, k;

	if (t->names.n * 2 + 2 > t->nslots) {
		size_t ns = t->nslots ? t->nslots * 2 : 64;
		free(t->slots);
		t->slots = sv_xcalloc(ns, sizeof *t->slots);
		t->nslots = ns;
		for (k = 0; k < t->names.n; k++) {
			i = sv_hash_str(t->names.v[k]) & (ns - 1);
			while (t->slots[i])
				i = (i + 1) & (ns - 1);
			t->slots[i] = (uint32_t)k + 1;
		}
	}
	i = sv_hash_str(name) & (t->nslots - 1);
	while (t->slots[i]) {
		if (!strcmp(t->names.v[t->slots[i] - 1], name))
			return t->slots[i] - 1;
		i = (i + 1) & (t->nslots - 1);
	}
	sv_strv_push(&t->names, name);
	t->slots[i] = (uint32_t)t->names.n;
	return (uint32_t)t->names.n - 1;
}

void sv_load_names_fini(struct sv_load_names *t)
{
	sv_strv_fini(&t->names);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* The HDF5 signature at 0, 512, 1024, 2048, ... (doc/format.md 1.1). */
static bool load_has_hdf5_sig(int fd, off_t size)
{
	static const unsigned char sig[8] = {
		0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
	unsigned char buf[8];
	off_t at;

	for (at = 0; at + 8 <= size; at = at ? at * 2 : 512)
		if (pread(fd, buf, 8, at) == 8 && !memcmp(buf, sig, 8))
			return true;
	return false;
}

int sv_load_sniff(
	const char *path, enum sv_load_kind *kind, struct sv_error *err)
{
	unsigned char head[64];
	struct stat st;
	ssize_t n;
	size_t i = 0;
	int fd;

	/* Never a blocking open (a FIFO would wait for a writer forever),
	 * and nothing but a regular file or a directory (infile.h). */
	fd = sv_infile_open(path, SV_INFILE_DIR, &st, err);
	if (fd < 0)
		return fd;
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		*kind = SV_LOAD_DIR;
		return 0;
	}
	if (st.st_size == 0) {
		close(fd);
		return sv_error_set(err, -EINVAL,
			"%s: is empty (0 bytes), not a profile; a run "
			"interrupted while writing can leave such a file",
			path);
	}
	n = pread(fd, head, sizeof head, 0);
	if (n >= 8 && load_has_hdf5_sig(fd, st.st_size)) {
		close(fd);
		*kind = SV_LOAD_HDF5;
		return 0;
	}
	close(fd);
	if (n >= 8 && !memcmp(head, "SCOPEPRF", 8)) {
		*kind = SV_LOAD_SPT;
		return 0;
	}
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
		*kind = SV_LOAD_GZIP;
		return 0;
	}
	if (n >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf)
		i = 3; /* a UTF-8 byte order mark */
	while (i < (size_t)(n > 0 ? n : 0) &&
		(head[i] == ' ' || head[i] == '\t' || head[i] == '\n' ||
			head[i] == '\r'))
		i++;
	if (i < (size_t)(n > 0 ? n : 0) && head[i] == '{') {
		*kind = SV_LOAD_JSON;
		return 0;
	}
	/* A trace by its name only: its reader says what is wrong with it
	 * (too short, the wrong magic), as scope-profiler does. */
	i = strlen(path);
	if (i > 4 && !strcmp(path + i - 4, ".spt")) {
		*kind = SV_LOAD_SPT;
		return 0;
	}
	return sv_error_set(err, -EINVAL,
		"%s: not a profile: not an HDF5 file (no HDF5 signature "
		"found), nor a native trace (SCOPEPRF), nor a JSON profile "
		"(plain or gzip)",
		path);
}

int sv_load_probe(const char *path, struct sv_error *err)
{
	enum sv_load_kind kind;
	char **files = NULL;
	size_t n = 0, i;
	int rc;

	if (!path)
		return sv_error_set(err, -EINVAL, "sv_load: no path given");
	rc = sv_load_sniff(path, &kind, err);
	if (rc || kind != SV_LOAD_DIR)
		return rc;
	rc = sv_load_dir_files(path, &files, &n, err);
	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return rc;
}

/* What sv_load does after a reader: the lanes, the nesting and, for the
 * viewer, the packed columns. */
static int load_finish(struct sv_profile *p, const char *path,
	const struct sv_load_opts *opts, struct sv_error *err)
{
	int rc;

	if (opts && opts->file_done)
		opts->file_done(opts->ctx);
	rc = sv_load_step(opts, path, 0.9, "nesting", err);
	if (rc)
		return rc;
	/* Rows for the ranks a budget left out (the viewer). */
	p->absent_lanes = p->rank_subset && opts && opts->absent_lanes;
	if (opts && opts->region_first && opts->nregion_first == p->nregions &&
		!p->region_first) {
		p->region_first = sv_xmalloc(
			((size_t)p->nregions + 1) * sizeof *p->region_first);
		memcpy(p->region_first, opts->region_first,
			(size_t)p->nregions * sizeof *p->region_first);
	}
	if (opts && opts->pack) {
		p->pack = true;
		sv_profile_pack_ids(p);
	}
	if (opts && opts->stored_exclusive) {
		size_t i;
		p->unnested = true;
		for (i = 0; i < p->nrows && p->unnested; i++)
			p->unnested = !p->rows[i].count ||
				      p->rows[i].exclusive_total >= 0;
	}
	p->pack_lanes = opts && opts->pack && p->ncalls >= opts->pack_min_calls;
	if (p->unnested && !p->pack && opts && opts->finish_later)
		return sv_load_step(opts, path, 1.0, "done", err);
	rc = sv_profile_finish(p, err);
	if (!rc && opts && opts->pack && p->ncalls >= opts->pack_min_calls)
		sv_profile_pack(p);
	if (!rc)
		rc = sv_load_step(opts, path, 1.0, "done", err);
	return rc;
}

int sv_load_paths(const char *const *paths, size_t n,
	const struct sv_load_opts *opts, struct sv_profile **out,
	struct sv_error *err)
{
	struct sv_error local;
	struct sv_profile *p = NULL;
	enum sv_load_kind kind = SV_LOAD_DIR;
	int rc;

	if (!err)
		err = &local;
	err->code = 0;
	err->msg[0] = '\0';
	if (!paths || !n || !paths[0] || !out)
		return sv_error_set(err, -EINVAL, "sv_load: no path given");
	rc = n == 1 ? sv_load_sniff(paths[0], &kind, err) : 0;
	if (rc)
		return rc;
	switch (n == 1 ? kind : SV_LOAD_DIR) {
	case SV_LOAD_HDF5:
		rc = sv_load_h5_raw(paths[0], opts, &p, err);
		break;
	case SV_LOAD_JSON:
	case SV_LOAD_GZIP:
		rc = sv_load_json(
			paths[0], kind == SV_LOAD_GZIP, opts, &p, err);
		break;
	default: /* a directory, a trace, or several files of one run */
		rc = sv_load_native(paths, n, opts, &p, err);
		break;
	}
	if (!rc)
		rc = load_finish(p, paths[0], opts, err);
	if (rc) {
		if (!err->code)
			sv_error_set(err, rc, "%s: cannot load", paths[0]);
		sv_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int sv_load(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err)
{
	return sv_load_paths(&path, 1, opts, out, err);
}

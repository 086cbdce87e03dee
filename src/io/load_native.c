/*
 * load_native.c: native output as one run (doc/format.md 16.2): the
 * per-rank .spt traces and *_rank<N>.h5 files of scope-profiler's C and
 * Fortran APIs, named one by one or by their directory, merged the way
 * scope-profiler's native_trace.py load_traces() merges them, so that
 * the figures are those scope-profiler's read_h5 gives for the file its
 * `import-native` writes (and `scopeview convert` writes).
 *
 * Every trace's headers are scanned first (load_spt.c: every claim
 * checked against the file size); the rows are then laid out rank by
 * rank in the profile's columns, and the traces' call arrays are read
 * straight into them on worker threads.  A per-rank HDF5 file is read
 * by the HDF5 loader and its calls copied.  Only start and end times,
 * the source file, line and text of each row are kept, as import-native
 * keeps them; exclusive time comes from the nesting, one lane per rank.
 */
#include "load_spt.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One input file. */
struct native_part {
	char *path;
	bool is_h5;
	struct sv_spt_file spt;
	struct sv_profile *h5; /* unfinished, from sv_load_h5_raw */
};

/* One row to lay out: where its calls come from. */
struct native_row {
	uint32_t rank, region;
	const struct native_part *part;
	const struct sv_spt_region *sr; /* a trace's region, or */
	const struct sv_row *hr;        /* a row of an HDF5 part */
	size_t row;                     /* the profile's row */
	size_t seq;                     /* position before the sort */
	bool out;                       /* a rank not read (rank_on) */
};

struct native {
	const char *path;
	const struct sv_load_opts *opts;
	struct sv_error *err;
	struct native_part *parts;
	size_t nparts;
	struct native_row *rows;
	size_t nrows;
	/* region names, in order of first appearance */
	struct sv_load_names names;
};

static int native_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Python's Path.glob("*.spt") and glob("*_rank[0-9]*.h5"). */
static bool native_wanted(const char *name)
{
	size_t n = strlen(name);
	return (n >= 4 && !strcmp(name + n - 4, ".spt")) ||
	       fnmatch("*_rank[0-9]*.h5", name, 0) == 0;
}

int sv_load_dir_files(
	const char *dir, char ***files, size_t *n, struct sv_error *err)
{
	struct sv_strv l = {0};
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return sv_error_set(err, -errno,
			"%s: cannot read the directory: %s", dir,
			strerror(errno));
	while ((e = readdir(d)))
		if (native_wanted(e->d_name))
			sv_strv_push(&l, e->d_name);
	closedir(d);
	if (!l.n) {
		sv_strv_fini(&l);
		return sv_error_set(err, -ENOENT,
			"%s: no .spt traces and no per-rank .h5 profiles "
			"(NAME_rankN.h5) in this directory",
			dir);
	}
	qsort(l.v, l.n, sizeof *l.v, native_cmp_str);
	*files = sv_xcalloc(l.n, sizeof **files);
	for (*n = 0; *n < l.n; ++*n) {
		size_t dl = strlen(dir);
		(*files)[*n] = sv_xasprintf("%s%s%s", dir,
			dl && dir[dl - 1] == '/' ? "" : "/", l.v[*n]);
	}
	sv_strv_fini(&l);
	return 0;
}

/* Every input, directories expanded, sorted, without duplicates. */
static int native_expand(const char *const *paths, size_t n,
	struct sv_strv *out, struct sv_error *err)
{
	size_t i, j, k;
	struct stat st;

	for (i = 0; i < n; i++) {
		if (stat(paths[i], &st) != 0)
			return sv_error_set(err,
				errno == ENOENT ? -ENOENT : -errno, "%s: %s",
				paths[i],
				errno == ENOENT ? "no such file or directory"
						: strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			char **files;
			size_t nf;
			int rc = sv_load_dir_files(paths[i], &files, &nf, err);
			if (rc)
				return rc;
			for (j = 0; j < nf; j++) {
				sv_strv_push(out, files[j]);
				free(files[j]);
			}
			free(files);
		} else {
			sv_strv_push(out, paths[i]);
		}
	}
	if (out->n > 1) /* no inputs leave out->v NULL */
		qsort(out->v, out->n, sizeof *out->v, native_cmp_str);
	for (i = k = 0; i < out->n; i++) {
		if (k && !strcmp(out->v[k - 1], out->v[i])) {
			free(out->v[i]);
			continue;
		}
		out->v[k++] = out->v[i];
	}
	out->n = k;
	return 0;
}

/* Read one input's headers (a trace) or whole (an HDF5 file). */
static int native_part_open(
	struct native *nt, struct native_part *pt, const char *path)
{
	enum sv_load_kind kind;
	int rc = sv_load_sniff(path, &kind, nt->err);
	struct sv_load_opts o = {0};

	pt->path = sv_xstrdup(path);
	if (rc)
		return rc;
	switch (kind) {
	case SV_LOAD_SPT:
		return sv_spt_scan(path, &pt->spt, nt->err);
	case SV_LOAD_HDF5:
		pt->is_h5 = true;
		if (nt->opts) {
			o.cancelled = nt->opts->cancelled;
			o.ctx = nt->opts->ctx;
			o.summary_only = nt->opts->summary_only;
			o.slow_inflate = nt->opts->slow_inflate;
		}
		rc = sv_load_h5_raw(path, &o, &pt->h5, nt->err);
		if (!rc && pt->h5->layout == SV_LAYOUT_AGGREGATE)
			rc = sv_error_set(nt->err, -EINVAL,
				"%s: holds per-rank totals only (the aggregate "
				"layout), no calls to merge into a run",
				path);
		return rc;
	case SV_LOAD_DIR:
		return sv_error_set(nt->err, -EISDIR,
			"%s: a directory inside a run's directory is not read",
			path);
	default:
		return sv_error_set(nt->err, -EINVAL,
			"%s: a JSON profile is a run of its own: it cannot be "
			"merged with native traces",
			path);
	}
}

/* Rows of every part, in rank order; a rank claimed twice fails. */
static int native_rows(struct native *nt)
{
	size_t i, j, cap = 0;
	struct native_row *r;

	for (i = 0; i < nt->nparts; i++) {
		struct native_part *pt = &nt->parts[i];
		if (!pt->is_h5) {
			for (j = 0; j < pt->spt.nregions; j++) {
				const struct sv_spt_region *sr =
					&pt->spt.regions[j];
				if (sr->dropped)
					continue;
				sv_grow((void **)&nt->rows, &cap, nt->nrows + 1,
					sizeof *nt->rows);
				r = &nt->rows[nt->nrows++];
				memset(r, 0, sizeof *r);
				r->rank = pt->spt.rank;
				r->part = pt;
				r->sr = sr;
				r->region =
					sv_load_names_id(&nt->names, sr->name);
			}
			continue;
		}
		for (j = 0; j < pt->h5->nrows; j++) {
			const struct sv_row *hr = &pt->h5->rows[j];
			sv_grow((void **)&nt->rows, &cap, nt->nrows + 1,
				sizeof *nt->rows);
			r = &nt->rows[nt->nrows++];
			memset(r, 0, sizeof *r);
			r->rank = hr->rank;
			r->part = pt;
			r->hr = hr;
			r->region = sv_load_names_id(
				&nt->names, pt->h5->regions[hr->region]);
		}
	}
	return 0;
}

static int native_cmp_row(const void *a, const void *b)
{
	const struct native_row *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	/* parts are in path order; rows in their own order */
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort rows by rank and fail on a rank two files claim. */
static int native_ranks(struct native *nt)
{
	size_t i;
	struct native_row *copy;

	/* a stable sort: qsort on (rank, position) */
	for (i = 0; i < nt->nrows; i++)
		nt->rows[i].seq = i;
	copy = sv_xmalloc((nt->nrows ? nt->nrows : 1) * sizeof *copy);
	memcpy(copy, nt->rows, nt->nrows * sizeof *copy);
	qsort(copy, nt->nrows, sizeof *copy, native_cmp_row);
	free(nt->rows);
	nt->rows = copy;
	for (i = 1; i < nt->nrows; i++)
		if (nt->rows[i].rank == nt->rows[i - 1].rank &&
			nt->rows[i].part != nt->rows[i - 1].part) {
			const char *a = nt->rows[i - 1].part->path;
			const char *b = nt->rows[i].part->path;
			if (strcmp(a, b) > 0) {
				const char *t = a;
				a = b;
				b = t;
			}
			return sv_error_set(nt->err, -EINVAL,
				"%s and %s both claim rank %" PRIu32
				"; pass the MPI rank to sp_init() so each "
				"rank writes its own",
				b, a, nt->rows[i].rank);
		}
	return 0;
}

/*
 * A rank subset (sv_load_opts.rank_on, doc/format.md 16.2): the rows of
 * the other ranks are marked out and never read; the profile keeps the
 * whole run's rank count, rows and calls, and the earliest first start
 * of the rows left out, as an HDF5 subset load does (4.14).
 */
static void native_subset(struct native *nt, struct sv_profile *p)
{
	const struct sv_load_opts *o = nt->opts;
	uint64_t calls = 0;
	uint32_t maxr = 0;
	size_t i, out = 0;

	if (!o || !o->rank_on || o->summary_only || !p->has_calls)
		return;
	for (i = 0; i < nt->nrows; i++) {
		struct native_row *r = &nt->rows[i];
		uint64_t count = r->sr ? r->sr->count : r->hr->count;
		calls += count;
		if (r->rank + 1 > maxr)
			maxr = r->rank + 1;
		r->out = r->rank >= o->nrank_on || !o->rank_on[r->rank];
		if (!r->out)
			continue;
		out++;
		if (count) {
			int64_t s = r->sr ? r->sr->first_start
					  : r->part->h5->start_ns[r->hr->first];
			if (!p->has_run_start || s < p->run_start_ns)
				p->run_start_ns = s;
			p->has_run_start = true;
		}
	}
	if (!out) {
		p->has_run_start = false;
		return;
	}
	p->rank_subset = true;
	p->file_rows = nt->nrows;
	p->file_calls = calls;
	p->file_ranks = maxr;
}

/* Lay the rows out in the profile: source locations as import-native
 * keeps them (the text only with a file), counts, and for a summary-only
 * load an HDF5 row's stored record. */
static int native_layout(struct native *nt, struct sv_profile *p)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < nt->nrows; i++)
		if (!nt->rows[i].out)
			total += nt->rows[i].sr ? nt->rows[i].sr->count
						: nt->rows[i].hr->count;
	if (p->has_calls && total <= SV_MAX_CALLS)
		sv_profile_reserve_calls(p, total);
	for (i = 0; i < nt->nrows; i++) {
		struct native_row *r = &nt->rows[i];
		const struct sv_spt_region *sr = r->sr;
		const struct sv_row *hr = r->hr;
		struct sv_row *row;
		if (r->out)
			continue;
		row = sv_profile_add_row(p, r->rank, r->region,
			sr ? sr->count : hr->count, nt->err);
		if (!row)
			return nt->err->code;
		r->row = p->nrows - 1;
		if (sr) {
			row->source_file = sr->source_file
						   ? sv_xstrdup(sr->source_file)
						   : NULL;
			row->source_line =
				sr->source_file || sr->source_line >= 0
					? sr->source_line
					: -1;
			continue;
		}
		if (hr->source_file) {
			row->source_file = sv_xstrdup(hr->source_file);
			row->source_line = hr->source_line;
			row->source_text = hr->source_text
						   ? sv_xstrdup(hr->source_text)
						   : NULL;
		}
		if (!p->has_calls && hr->has_summary) {
			row->has_summary = true;
			row->summary = hr->summary;
			row->has_gpu = hr->has_gpu;
		}
	}
	return 0;
}

/* Read the traces' calls and copy the HDF5 rows' calls; *mins gets each
 * row's earliest start. */
static int native_calls(struct native *nt, struct sv_profile *p, int64_t *mins)
{
	struct sv_spt_dest *d = NULL;
	size_t nd = 0, cap = 0, i, k;
	int rc;

	for (i = 0; i < nt->nrows; i++) {
		const struct native_row *r = &nt->rows[i];
		const struct sv_row *row = &p->rows[r->row];
		mins[i] = INT64_MAX;
		if (r->out) {
			/* not read: its first start stands for its earliest */
			if (r->sr && r->sr->count)
				mins[i] = r->sr->first_start;
			else if (r->hr && r->hr->count)
				mins[i] = r->part->h5->start_ns[r->hr->first];
			continue;
		}
		if (r->sr && r->sr->count) {
			sv_grow((void **)&d, &cap, nd + 1, sizeof *d);
			d[nd].file = &r->part->spt;
			d[nd].region = r->sr;
			d[nd].start = p->start_ns + row->first;
			d[nd].end = p->end_ns + row->first;
			nd++;
		} else if (r->hr) {
			const struct sv_profile *h = r->part->h5;
			uint64_t c, f = r->hr->first;
			int64_t *s = p->start_ns + row->first;
			int64_t *e = p->end_ns + row->first;
			for (c = 0; c < r->hr->count; c++) {
				s[c] = h->start_ns[f + c];
				e[c] = h->end_is_duration
					       ? sv_add_wrap(
							 s[c], h->end_ns[f + c])
					       : h->end_ns[f + c];
				if (s[c] < mins[i])
					mins[i] = s[c];
			}
		}
	}
	rc = nd ? sv_spt_read(d, nd, nt->opts, nt->err) : 0;
	for (i = k = 0; !rc && i < nt->nrows; i++)
		if (!nt->rows[i].out && nt->rows[i].sr && nt->rows[i].sr->count)
			mins[i] = d[k++].min_start;
	free(d);
	return rc;
}

struct native_key {
	double key;
	uint32_t region;
};

static int native_cmp_key(const void *a, const void *b)
{
	const struct native_key *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->region < y->region ? -1 : x->region > y->region;
}

static const uint32_t *native_gpos;

static int native_cmp_gpos(const void *a, const void *b)
{
	uint32_t x = native_gpos[*(const uint32_t *)a];
	uint32_t y = native_gpos[*(const uint32_t *)b];
	return x < y ? -1 : x > y;
}

/*
 * The region table in the order scope-profiler's writer gives the file
 * import-native writes: get_regions() order (a stable sort by each
 * region's first start in float seconds, a rank without calls counting
 * 0.0) decides the order of the regions of each rank, and ids go to
 * names in order of first appearance, rank by rank.  Ties of the display
 * order then break the same way in the file and in memory.
 */
static void native_region_table(
	struct native *nt, struct sv_profile *p, const int64_t *mins)
{
	size_t K = nt->names.names.n, i, a, b, m;
	struct native_key *keys = sv_xcalloc(K ? K : 1, sizeof *keys);
	bool *seen = sv_xcalloc(K ? K : 1, sizeof *seen);
	uint32_t *gpos = sv_xcalloc(K ? K : 1, sizeof *gpos);
	uint32_t *newid = sv_xmalloc((K ? K : 1) * sizeof *newid);
	uint32_t *block =
		sv_xmalloc((nt->nrows ? nt->nrows : 1) * sizeof *block);
	uint32_t next = 0;

	for (i = 0; i < K; i++) {
		keys[i].region = (uint32_t)i;
		newid[i] = UINT32_MAX;
	}
	for (i = 0; i < nt->nrows; i++) {
		uint32_t r = nt->rows[i].region;
		double k = mins[i] == INT64_MAX ? 0.0 : (double)mins[i] / 1e9;
		if (!seen[r] || k < keys[r].key)
			keys[r].key = k;
		seen[r] = true;
	}
	qsort(keys, K, sizeof *keys, native_cmp_key);
	for (i = 0; i < K; i++)
		gpos[keys[i].region] = (uint32_t)i;
	native_gpos = gpos;
	for (a = 0; a < nt->nrows; a = b) {
		for (b = a;
			b < nt->nrows && nt->rows[b].rank == nt->rows[a].rank;
			b++)
			block[b - a] = nt->rows[b].region;
		qsort(block, b - a, sizeof *block, native_cmp_gpos);
		for (m = 0; m < b - a; m++)
			if (newid[block[m]] == UINT32_MAX)
				newid[block[m]] = next++;
	}
	native_gpos = NULL;
	for (i = 0; i < K; i++)
		if (newid[i] == UINT32_MAX)
			newid[i] = next++;
	{
		const char **order = sv_xcalloc(K ? K : 1, sizeof *order);
		for (i = 0; i < K; i++)
			order[newid[i]] = nt->names.names.v[i];
		for (i = 0; i < K; i++)
			sv_profile_add_region(p, order[i]);
		free(order);
	}
	for (i = 0; i < p->nrows; i++)
		p->rows[i].region = newid[p->rows[i].region];
	free(keys);
	free(seen);
	free(gpos);
	free(newid);
	free(block);
}

static void native_meta_copy(struct sv_profile *p, const struct sv_meta *m)
{
	struct sv_meta *c = sv_profile_add_meta(p, m->key, m->kind);
	size_t i;

	c->i = m->i;
	c->f = m->f;
	c->text = sv_xstrdup(m->text ? m->text : "");
	if (m->nstrs) {
		c->strs = sv_xcalloc(m->nstrs, sizeof *c->strs);
		for (i = 0; i < m->nstrs; i++)
			c->strs[i] = sv_xstrdup(m->strs[i]);
		c->nstrs = m->nstrs;
	}
}

/* The lowest rank's HDF5 metadata, then source = "native",
 * trace_format_version = 2 and start_time_ns = the earliest first
 * stored start, as load_traces() sets them. */
static void native_meta(struct native *nt, struct sv_profile *p)
{
	const struct sv_profile *from = NULL;
	bool has_first = false;
	int64_t first = 0;
	struct sv_meta *m;
	size_t i;

	for (i = 0; i < nt->nrows; i++) {
		const struct native_row *r = &nt->rows[i];
		int64_t s;
		if (!from && r->hr && r->part->h5->nmeta)
			from = r->part->h5;
		if (r->sr && r->sr->count)
			s = r->sr->first_start;
		else if (r->hr && r->hr->count && p->has_calls)
			s = r->part->h5->start_ns[r->hr->first];
		else if (r->hr && r->hr->count && r->hr->has_summary)
			s = r->hr->summary.start_minimum;
		else
			continue;
		if (!has_first || s < first)
			first = s;
		has_first = true;
	}
	for (i = 0; from && i < from->nmeta; i++) {
		const char *k = from->meta[i].key;
		if (!strcmp(k, "source") ||
			!strcmp(k, "trace_format_version") ||
			(has_first && !strcmp(k, "start_time_ns")))
			continue;
		native_meta_copy(p, &from->meta[i]);
	}
	m = sv_profile_add_meta(p, "source", SV_META_STRING);
	m->text = sv_xstrdup("native");
	m = sv_profile_add_meta(p, "trace_format_version", SV_META_INT);
	m->i = 2;
	m->f = 2;
	m->text = sv_xstrdup("2");
	if (has_first) {
		m = sv_profile_add_meta(p, "start_time_ns", SV_META_INT);
		m->i = first;
		m->f = (double)first;
		m->text = sv_xasprintf("%" PRId64, first);
	}
}

static void native_free(struct native *nt)
{
	size_t i;

	for (i = 0; i < nt->nparts; i++) {
		free(nt->parts[i].path);
		sv_spt_fini(&nt->parts[i].spt);
		sv_profile_free(nt->parts[i].h5);
	}
	free(nt->parts);
	free(nt->rows);
	sv_load_names_fini(&nt->names);
}

int sv_load_native(const char *const *paths, size_t n,
	const struct sv_load_opts *opts, struct sv_profile **out,
	struct sv_error *err)
{
	struct native nt = {.opts = opts, .err = err};
	struct sv_strv files = {0};
	struct sv_profile *p = NULL;
	int64_t *mins = NULL;
	size_t i, j;
	int rc;

	rc = native_expand(paths, n, &files, err);
	nt.path = n ? paths[0] : "";
	nt.parts = sv_xcalloc(files.n ? files.n : 1, sizeof *nt.parts);
	for (i = 0; !rc && i < files.n; i++) {
		nt.parts[i].spt.fd = -1;
		nt.nparts = i + 1;
		rc = native_part_open(&nt, &nt.parts[i], files.v[i]);
		if (!rc)
			rc = sv_load_step(opts, nt.path,
				0.1 * (double)(i + 1) / (double)files.n,
				"headers", err);
	}
	if (!rc)
		rc = native_rows(&nt);
	if (!rc)
		rc = native_ranks(&nt);
	if (!rc) {
		p = sv_profile_new(nt.path);
		p->layout = SV_LAYOUT_COLUMNAR;
		p->has_calls = !(opts && opts->summary_only);
		native_subset(&nt, p);
		rc = native_layout(&nt, p);
	}
	if (!rc) {
		mins = sv_xmalloc((nt.nrows ? nt.nrows : 1) * sizeof *mins);
		if (p->has_calls) {
			rc = native_calls(&nt, p, mins);
		} else {
			for (i = 0; i < nt.nrows; i++)
				mins[i] =
					nt.rows[i].sr && nt.rows[i].sr->count
						? nt.rows[i].sr->first_start
					: nt.rows[i].hr &&
							nt.rows[i]
								.hr
								->has_summary &&
							nt.rows[i].hr->count
						? nt.rows[i]
							  .hr->summary
							  .start_minimum
						: INT64_MAX;
		}
	}
	if (!rc) {
		native_region_table(&nt, p, mins);
		native_meta(&nt, p);
		for (i = 0; i < nt.nparts; i++)
			for (j = 0; !nt.parts[i].is_h5 &&
				    j < nt.parts[i].spt.nregions;
				j++)
				if (nt.parts[i].spt.regions[j].dropped) {
					char *shown = sv_load_show(
						nt.parts[i].spt.regions[j].name,
						strlen(nt.parts[i]
								.spt.regions[j]
								.name));
					sv_profile_warn(p,
						"%s: region \"%s\" is stored "
						"twice; "
						"the later one is read, as "
						"scope-profiler does",
						nt.parts[i].path, shown);
					free(shown);
				}
		sv_load_num_ranks(p);
	}
	free(mins);
	native_free(&nt);
	sv_strv_fini(&files);
	if (rc) {
		sv_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

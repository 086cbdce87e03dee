/*
 * load_spt.c: native traces (.spt, doc/format.md 16.1): the header scan
 * and the parallel read of the call arrays (load_spt.h).
 *
 * A trace is a header (SCOPEPRF, version, rank, number of regions) and,
 * per region, its name (and in version 2 its source file and line), its
 * number of calls and two int64 arrays, starts and ends, in either byte
 * order: the version field decides, since exactly one reading of it is 1
 * or 2.  The scan follows scope-profiler's native_trace.py and refuses
 * what it refuses (too short, wrong magic, unknown version, a truncated
 * region, trailing bytes) with one line naming the file and the region;
 * it also refuses what Python would misread (a negative length, count or
 * rank).  No count read from the file sizes an allocation before it is
 * checked against the bytes left in the file.
 */
#include "load_spt.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SPT_HEADER  24 /* magic 8, version 4, rank 4, regions 8 */
#define SPT_WINDOW  65536
#define SPT_PIECE   ((uint64_t)32 << 20) /* bytes a read task takes */
#define SPT_THREADS 8

/* A window over the file for the small reads of the headers. */
struct spt_in {
	struct sv_spt_file *f;
	uint64_t pos; /* next byte to read */
	unsigned char buf[SPT_WINDOW];
	uint64_t buf_at; /* file offset of buf[0] */
	size_t buf_n;
};

static int spt_fail(const struct sv_spt_file *f, struct sv_error *err, int code,
	const char *fmt, ...) SV_PRINTF(4, 5);

static int spt_fail(const struct sv_spt_file *f, struct sv_error *err, int code,
	const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return sv_error_set(err, code, "%s: %s", f->path, what);
}

/* n bytes at in->pos into out (n <= SPT_WINDOW), or false when the file
 * ends first. */
static bool spt_get(struct spt_in *in, void *out, size_t n)
{
	ssize_t got;

	if (in->pos + n > in->f->size)
		return false;
	if (in->pos < in->buf_at || in->pos + n > in->buf_at + in->buf_n) {
		in->buf_at = in->pos;
		got = pread(in->f->fd, in->buf, SPT_WINDOW, (off_t)in->pos);
		in->buf_n = got > 0 ? (size_t)got : 0;
		if (in->buf_n < n)
			return false;
	}
	memcpy(out, in->buf + (in->pos - in->buf_at), n);
	in->pos += n;
	return true;
}

static int32_t spt_i32(const struct sv_spt_file *f, const unsigned char *b)
{
	uint32_t v;
	memcpy(&v, b, 4);
	if (f->swap)
		v = __builtin_bswap32(v);
	return (int32_t)v;
}

static int64_t spt_i64(const struct sv_spt_file *f, const unsigned char *b)
{
	uint64_t v;
	memcpy(&v, b, 8);
	if (f->swap)
		v = __builtin_bswap64(v);
	return (int64_t)v;
}

/* The header: magic, byte order and version, rank.  *nregions gets the
 * claimed count. */
static int spt_header(
	struct spt_in *in, int64_t *nregions, struct sv_error *err)
{
	struct sv_spt_file *f = in->f;
	unsigned char h[SPT_HEADER];
	uint32_t le, be;
	int32_t rank;

	if (f->size < SPT_HEADER || !spt_get(in, h, SPT_HEADER))
		return spt_fail(f, err, -EINVAL,
			"too short to be a trace file (%" PRIu64
			" bytes; the header alone is %d)",
			f->size, SPT_HEADER);
	if (memcmp(h, "SCOPEPRF", 8)) {
		char *shown = sv_load_show((const char *)h, 8);
		spt_fail(f, err, -EINVAL,
			"not a scope-profiler native trace (it starts with "
			"\"%s\", not \"SCOPEPRF\")",
			shown);
		free(shown);
		return err->code;
	}
	/* The version read both ways: exactly one reading is 1 or 2. */
	le = (uint32_t)h[8] | (uint32_t)h[9] << 8 | (uint32_t)h[10] << 16 |
	     (uint32_t)h[11] << 24;
	be = __builtin_bswap32(le);
	{
		const uint32_t one = 1;
		bool little_host = *(const unsigned char *)&one == 1;
		if (le == 1 || le == 2) {
			f->swap = !little_host;
			f->version = (int)le;
		} else if (be == 1 || be == 2) {
			f->swap = little_host;
			f->version = (int)be;
		} else {
			return spt_fail(f, err, -ENOTSUP,
				"unsupported trace format version %" PRId32
				" (scopeview reads versions 1 and 2)",
				(int32_t)le);
		}
	}
	rank = spt_i32(f, h + 12);
	if (rank < 0)
		return spt_fail(f, err, -EINVAL,
			"the header claims rank %" PRId32
			"; a rank is never negative",
			rank);
	f->rank = (uint32_t)rank;
	*nregions = spt_i64(f, h + 16);
	return 0;
}

/* The smallest region is 12 bytes (version 1: name length and count) or
 * 20 (version 2: also the source's length and line). */
static uint64_t spt_min_region(const struct sv_spt_file *f)
{
	return f->version >= 2 ? 20 : 12;
}

static int spt_truncated(const struct sv_spt_file *f, uint64_t k,
	const char *name, const char *what, struct sv_error *err)
{
	char *shown = name ? sv_load_show(name, strlen(name)) : NULL;
	spt_fail(f, err, -EINVAL,
		"truncated trace file: region %" PRIu64 "%s%s%s: %s", k,
		shown ? " \"" : "", shown ? shown : "", shown ? "\"" : "",
		what);
	free(shown);
	return err->code;
}

/* A string of a region header: its int32 length, then the bytes. */
static int spt_string(struct spt_in *in, uint64_t k, const char *name,
	const char *what, char **out, struct sv_error *err)
{
	unsigned char b[4];
	int32_t len;
	char *raw, msg[160];

	*out = NULL;
	if (!spt_get(in, b, 4)) {
		snprintf(msg, sizeof msg, "the file ends inside the %s length",
			what);
		return spt_truncated(in->f, k, name, msg, err);
	}
	len = spt_i32(in->f, b);
	if (len < 0) {
		snprintf(msg, sizeof msg, "the %s length is %" PRId32, what,
			len);
		return spt_truncated(in->f, k, name, msg, err);
	}
	if ((uint64_t)len > in->f->size - in->pos) {
		snprintf(msg, sizeof msg,
			"the %s is %" PRId32 " bytes, but %" PRIu64
			" are left in the file",
			what, len, in->f->size - in->pos);
		return spt_truncated(in->f, k, name, msg, err);
	}
	raw = sv_xmalloc((size_t)len + 1);
	if (len <= SPT_WINDOW) {
		if (!spt_get(in, raw, (size_t)len)) {
			free(raw);
			return spt_truncated(
				in->f, k, name, "a short read", err);
		}
	} else if (pread(in->f->fd, raw, (size_t)len, (off_t)in->pos) !=
		   (ssize_t)len) {
		free(raw);
		return spt_truncated(in->f, k, name, "a short read", err);
	} else {
		in->pos += (uint64_t)len;
	}
	*out = sv_utf8_sanitize(raw, (size_t)len);
	free(raw);
	return 0;
}

/* One region's header at in->pos; skips its arrays. */
static int spt_region(struct spt_in *in, uint64_t k, struct sv_error *err)
{
	struct sv_spt_file *f = in->f;
	struct sv_spt_region r = {.source_line = -1};
	unsigned char b[8];
	int64_t count;
	char *src = NULL;
	int rc;

	rc = spt_string(in, k, NULL, "name", &r.name, err);
	if (rc)
		return rc;
	if (f->version >= 2) {
		rc = spt_string(in, k, r.name, "source path", &src, err);
		if (!rc && !spt_get(in, b, 4))
			rc = spt_truncated(f, k, r.name,
				"the file ends inside the source line", err);
		if (rc) {
			free(r.name);
			free(src);
			return rc;
		}
		if (src && *src)
			r.source_file = src;
		else
			free(src);
		r.source_line = spt_i32(f, b);
		if (r.source_line < 0)
			r.source_line = -1;
	}
	if (!spt_get(in, b, 8)) {
		rc = spt_truncated(f, k, r.name,
			"the file ends inside the number of calls", err);
		goto fail;
	}
	count = spt_i64(f, b);
	/* Checked against the bytes left before anything is sized by it. */
	if (count < 0 || (uint64_t)count > (f->size - in->pos) / 16) {
		char msg[200];
		snprintf(msg, sizeof msg,
			"it claims %" PRId64
			" calls (16 bytes each), but %" PRIu64
			" bytes are left in the file",
			count, f->size - in->pos);
		rc = spt_truncated(f, k, r.name, msg, err);
		goto fail;
	}
	r.count = (uint64_t)count;
	r.at = in->pos;
	if (r.count) {
		if (!spt_get(in, b, 8)) {
			rc = spt_truncated(f, k, r.name, "a short read", err);
			goto fail;
		}
		r.first_start = spt_i64(f, b);
	}
	in->pos = r.at + 16 * r.count;
	sv_grow((void **)&f->regions, &f->cap, f->nregions + 1,
		sizeof *f->regions);
	f->regions[f->nregions++] = r;
	return 0;
fail:
	free(r.name);
	free(r.source_file);
	return rc;
}

/* Python keeps the last region of a name (a dict): mark the others. */
static void spt_dedupe(struct sv_spt_file *f)
{
	size_t i, j;

	f->calls = 0;
	for (i = f->nregions; i-- > 0;) {
		for (j = i + 1; j < f->nregions && !f->regions[i].dropped; j++)
			if (!f->regions[j].dropped &&
				!strcmp(f->regions[i].name, f->regions[j].name))
				f->regions[i].dropped = true;
		if (!f->regions[i].dropped)
			f->calls += f->regions[i].count;
	}
}

int sv_spt_scan(const char *path, struct sv_spt_file *f, struct sv_error *err)
{
	struct spt_in *in;
	struct stat st;
	int64_t nregions = 0;
	uint64_t k;
	int rc;

	memset(f, 0, sizeof *f);
	f->fd = -1;
	f->path = sv_xstrdup(path);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || fstat(f->fd, &st) != 0) {
		rc = spt_fail(
			f, err, -errno, "cannot open: %s", strerror(errno));
		sv_spt_fini(f);
		return rc;
	}
	f->size = (uint64_t)st.st_size;
	in = sv_xmalloc(sizeof *in);
	in->f = f;
	in->pos = 0;
	in->buf_at = 0;
	in->buf_n = 0;
	rc = spt_header(in, &nregions, err);
	if (!rc && (nregions < 0 ||
			   (uint64_t)nregions >
				   (f->size - SPT_HEADER) / spt_min_region(f)))
		rc = spt_fail(f, err, -EINVAL,
			"truncated trace file: the header claims %" PRId64
			" regions, but %" PRIu64
			" bytes follow it (at least %" PRIu64 " a region)",
			nregions, f->size - SPT_HEADER, spt_min_region(f));
	for (k = 0; !rc && k < (uint64_t)nregions; k++)
		rc = spt_region(in, k, err);
	if (!rc && in->pos != f->size)
		rc = spt_fail(f, err, -EINVAL,
			"%" PRIu64 " trailing byte(s) after the last region",
			f->size - in->pos);
	free(in);
	if (rc) {
		sv_spt_fini(f);
		return rc;
	}
	spt_dedupe(f);
	return 0;
}

void sv_spt_fini(struct sv_spt_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nregions; i++) {
		free(f->regions[i].name);
		free(f->regions[i].source_file);
	}
	free(f->regions);
	free(f->path);
	if (f->fd >= 0)
		close(f->fd);
	memset(f, 0, sizeof *f);
	f->fd = -1;
}

/* ------------------------------------------------------------------ */
/* The parallel read                                                   */

struct spt_task {
	struct sv_spt_dest *d;
	int64_t *out;
	uint64_t at, n; /* file offset, values */
	bool starts;
	int64_t min;
};

struct spt_work {
	struct spt_task *tasks;
	size_t ntasks;
	atomic_size_t next;
	atomic_uint_fast64_t bytes_done;
	atomic_bool stop;
	atomic_int failed;    /* 0 or the first task that failed + 1 */
	atomic_size_t active; /* workers still running */
};

static void *spt_worker(void *arg)
{
	struct spt_work *w = arg;
	size_t t;

	while (!atomic_load(&w->stop) &&
		(t = atomic_fetch_add(&w->next, 1)) < w->ntasks) {
		struct spt_task *k = &w->tasks[t];
		const struct sv_spt_file *f = k->d->file;
		size_t bytes = (size_t)k->n * 8, done = 0;
		uint64_t i;
		int64_t mn = INT64_MAX;

		while (done < bytes) {
			ssize_t got = pread(f->fd, (char *)k->out + done,
				bytes - done, (off_t)(k->at + done));
			if (got <= 0)
				break;
			done += (size_t)got;
		}
		if (done < bytes) {
			int expect = 0;
			atomic_compare_exchange_strong(
				&w->failed, &expect, (int)t + 1);
			atomic_store(&w->stop, true);
			break;
		}
		if (f->swap)
			for (i = 0; i < k->n; i++)
				k->out[i] = (int64_t)__builtin_bswap64(
					(uint64_t)k->out[i]);
		if (k->starts)
			for (i = 0; i < k->n; i++)
				if (k->out[i] < mn)
					mn = k->out[i];
		k->min = mn;
		atomic_fetch_add(&w->bytes_done, bytes);
	}
	atomic_fetch_sub(&w->active, 1);
	return NULL;
}

static void spt_add_tasks(
	struct spt_task **tasks, size_t *n, size_t *cap, struct sv_spt_dest *d)
{
	const uint64_t per = SPT_PIECE / 8;
	int col;
	uint64_t i;

	for (col = 0; col < 2; col++)
		for (i = 0; i < d->region->count; i += per) {
			struct spt_task *k;
			sv_grow((void **)tasks, cap, *n + 1, sizeof **tasks);
			k = &(*tasks)[(*n)++];
			k->d = d;
			k->starts = col == 0;
			k->out = (col ? d->end : d->start) + i;
			k->at = d->region->at +
				(col ? d->region->count * 8 : 0) + i * 8;
			k->n = d->region->count - i < per ? d->region->count - i
							  : per;
			k->min = INT64_MAX;
		}
}

int sv_spt_read(struct sv_spt_dest *dest, size_t n,
	const struct sv_load_opts *opts, struct sv_error *err)
{
	struct spt_work w;
	pthread_t th[SPT_THREADS];
	size_t cap = 0, i, nth = 0, want;
	uint64_t total = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int rc = 0, failed;

	memset(&w, 0, sizeof w);
	for (i = 0; i < n; i++) {
		dest[i].min_start = INT64_MAX;
		spt_add_tasks(&w.tasks, &w.ntasks, &cap, &dest[i]);
		total += dest[i].region->count * 16;
	}
	want = cpus < 1 ? 1 : cpus > SPT_THREADS ? SPT_THREADS : (size_t)cpus;
	if (want > w.ntasks)
		want = w.ntasks;
	atomic_store(&w.active, want);
	for (i = 0; i < want; i++)
		if (pthread_create(&th[nth], NULL, spt_worker, &w) == 0)
			nth++;
		else
			atomic_fetch_sub(&w.active, 1);
	if (!nth && w.ntasks) {
		/* No thread to spare: read here. */
		atomic_store(&w.active, 1);
		spt_worker(&w);
	}
	while (atomic_load(&w.active) > 0) {
		struct timespec ts = {0, 20 * 1000 * 1000};
		double f = total ? (double)atomic_load(&w.bytes_done) /
					   (double)total
				 : 1.0;
		if (!rc && sv_load_step(opts, dest[0].file->path,
				   0.1 + 0.75 * f, "calls", err)) {
			rc = -ECANCELED;
			atomic_store(&w.stop, true);
		}
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	failed = atomic_load(&w.failed);
	if (!rc && failed) {
		const struct spt_task *k = &w.tasks[failed - 1];
		rc = sv_error_set(err, -EIO,
			"%s: region \"%s\": the file ended before its calls "
			"did (did it change while being read?)",
			k->d->file->path, k->d->region->name);
	}
	for (i = 0; !rc && i < w.ntasks; i++)
		if (w.tasks[i].starts &&
			w.tasks[i].min < w.tasks[i].d->min_start)
			w.tasks[i].d->min_start = w.tasks[i].min;
	free(w.tasks);
	return rc;
}

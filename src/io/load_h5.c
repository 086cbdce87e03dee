/*
 * load_h5.c: read a scope-profiler HDF5 profile into a struct sv_profile
 * (doc/format.md sections 1-13): sv_load() checks the file, opens it, picks
 * the layout from its schema and storage_layout attributes and hands it
 * to the reader of that layout (load_h5_priv.h lists them), all on a
 * thread of its own under the crash guard (load_h5_guard.c).
 *
 * The loader only calls the profile's builder functions: it does not know
 * who will look at the result.  It never writes to the file and never
 * prints (HDF5's own error printing is switched off).
 *
 * Bad input never crashes: every size read from the file is checked before
 * it is used, and signed arithmetic on file values wraps instead of
 * overflowing.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load_h5_fast.h"
#include "load_h5_filters.h"
#include "load_h5_guard.h"

void sv_load_quiet_hdf5(void)
{
	/* After a crash inside HDF5 its lock may be held for ever. */
	if (sv_h5_guard_tripped())
		return;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Opening and dispatch                                                */

static int schema_attr(struct sv_h5 *h, int *schema)
{
	const char *obj = "/@scope_profiler_schema";
	H5T_class_t cls;
	hssize_t count;
	hid_t a =
		sv_h5_attr_open(h->file, "scope_profiler_schema", &cls, &count);
	hid_t s;
	int64_t v = 0;
	bool scalar;

	*schema = 0;
	if (a < 0) {
		if (H5Aexists(h->file, "scope_profiler_schema") > 0)
			return sv_h5_fail(h, -EIO, obj, "cannot read%s",
				sv_h5_last_error());
		return 0;
	}
	s = H5Aget_space(a);
	scalar = H5Sget_simple_extent_type(s) == H5S_SCALAR;
	H5Sclose(s);
	if (cls != H5T_INTEGER || !scalar) {
		char *text = NULL;
		if (cls == H5T_STRING && scalar &&
			sv_h5_attr_string(
				h->file, "scope_profiler_schema", &text) == 0) {
			char *shown = sv_h5_show(text);
			free(text);
			text = shown;
		}
		H5Aclose(a);
		sv_h5_fail(h, -EINVAL, obj,
			"the schema version must be an integer, but it is "
			"%s%s%s%s%s",
			cls == H5T_ENUM ? "a bool" : sv_h5_class_name(cls),
			scalar ? "" : " array", text ? " (\"" : "",
			text ? text : "", text ? "\")" : "");
		free(text);
		return h->err ? h->err->code : -EINVAL;
	}
	{
		hid_t t = H5Aget_type(a);
		bool uns = H5Tget_sign(t) == H5T_SGN_NONE;
		H5Tclose(t);
		if (uns) {
			uint64_t u;
			if (H5Aread(a, H5T_NATIVE_UINT64, &u) < 0) {
				H5Aclose(a);
				return sv_h5_fail(h, -EIO, obj, "cannot read%s",
					sv_h5_last_error());
			}
			v = u > INT64_MAX ? INT64_MAX : (int64_t)u;
		} else if (H5Aread(a, H5T_NATIVE_INT64, &v) < 0) {
			H5Aclose(a);
			return sv_h5_fail(h, -EIO, obj, "cannot read%s",
				sv_h5_last_error());
		}
	}
	H5Aclose(a);
	if (v < 1)
		return sv_h5_fail(h, -EINVAL, obj,
			"schema version %" PRId64
			" is invalid: versions must be positive",
			v);
	if (v > 3)
		return sv_h5_fail(h, -ENOTSUP, obj,
			"schema version %" PRId64
			" is newer than this scopeview, which reads versions "
			"1 to 3; upgrade scopeview to read this file",
			v);
	*schema = (int)v;
	return 0;
}

/* Columnar (1) or aggregate (2), from storage_layout. */
static int layout_attr(struct sv_h5 *h)
{
	char *s = NULL;
	int rc = sv_h5_attr_string(h->file, "storage_layout", &s);
	int kind = 1;

	if (rc == SV_H5_ABSENT)
		return 1;
	if (rc < 0) {
		sv_profile_warn(h->p, "/@storage_layout: not a string; "
				      "reading the file as columnar");
		return 1;
	}
	if (!strcmp(s, "aggregate")) {
		kind = 2;
	} else if (strcmp(s, "columnar")) {
		char *shown = sv_h5_show(s);
		sv_profile_warn(h->p,
			"/@storage_layout: unknown layout \"%s\"; reading the "
			"file as columnar",
			shown);
		free(shown);
	}
	free(s);
	return kind;
}

/* Does the file have the schema 2/3 groups? */
static bool looks_columnar(hid_t file)
{
	return sv_h5_exists(file, "rank_region_index") &&
	       sv_h5_exists(file, "region_table") &&
	       (sv_h5_exists(file, "events") ||
		       H5Aexists(file, "storage_layout") > 0);
}

static int load_dispatch(struct sv_h5 *h)
{
	int schema, rc;

	rc = schema_attr(h, &schema);
	if (rc)
		return rc;
	h->p->schema = schema;
	rc = sv_h5_meta_load(h);
	if (!rc)
		rc = sv_h5_step(h, 0.05, "metadata");
	if (rc)
		return rc;
	if (schema <= 1 && looks_columnar(h->file)) {
		if (schema == 0)
			sv_profile_warn(h->p,
				"/@scope_profiler_schema: attribute missing, "
				"but the file has the columnar layout "
				"(/events, /rank_region_index); read as "
				"columnar");
		else
			sv_profile_warn(h->p,
				"/@scope_profiler_schema: says 1, but the file "
				"has the columnar layout (/events, "
				"/rank_region_index); read as columnar");
		schema = 2;
	}
	if (schema <= 1)
		rc = sv_h5_groups_load(h);
	else if (layout_attr(h) == 2)
		rc = sv_h5_layout_aggregate(h);
	else
		rc = sv_h5_layout_columnar(h);
	/* The lane tables once the calls say which rows a lane can use;
	 * counters, line profiles and what no layout reads (4.12). */
	if (!rc)
		rc = sv_h5_tables_load(h);
	if (!rc)
		rc = sv_h5_ranks_load(h);
	if (!rc)
		rc = sv_h5_contents_load(h);
	return rc;
}

void sv_load_num_ranks(struct sv_profile *p)
{
	int64_t size = 1, maxr = -1;
	size_t r;

	if (p->layout == SV_LAYOUT_GROUPS)
		return; /* load_h5_groups.c counted the rank groups */
	if ((p->rank_subset ? p->file_rows : p->nrows) == 0) {
		p->num_ranks = 0;
		return;
	}
	if (!sv_h5_meta_int(p, "mpi_size", &size))
		size = 1;
	for (r = 0; r < p->nrows; r++)
		if ((int64_t)p->rows[r].rank > maxr)
			maxr = p->rows[r].rank;
	if (p->rank_subset && (int64_t)p->file_ranks - 1 > maxr)
		maxr = (int64_t)p->file_ranks - 1; /* the rows left out */
	if (maxr + 1 > size)
		size = maxr + 1;
	if (size < 1)
		size = 1;
	p->num_ranks = size > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)size;
}

/* Checks HDF5 cannot make clear: missing, a directory, empty, no HDF5
 * signature. */
static int precheck(struct sv_h5 *h)
{
	static const unsigned char sig[8] = {
		0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
	struct stat st;
	unsigned char buf[8];
	off_t at;
	int fd, e;
	bool found = false;

	if (stat(h->path, &st) != 0) {
		e = errno;
		if (e == ENOENT)
			return sv_h5_fail(h, -ENOENT, NULL, "no such file");
		return sv_h5_fail(h, -e, NULL, "cannot open: %s", strerror(e));
	}
	h->file_bytes = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (S_ISDIR(st.st_mode))
		return sv_h5_fail(h, -EISDIR, NULL,
			"is a directory, not an HDF5 profile");
	/* Opening a FIFO would wait for a writer forever. */
	if (!S_ISREG(st.st_mode))
		return sv_h5_fail(h, -EINVAL, NULL,
			"is not a regular file, so not an HDF5 profile");
	fd = open(h->path, O_RDONLY);
	if (fd < 0) {
		e = errno;
		return sv_h5_fail(h, -e, NULL, "cannot open: %s", strerror(e));
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0) {
		close(fd);
		return sv_h5_fail(h, -EINVAL, NULL,
			"is empty (0 bytes), not an HDF5 profile; a run "
			"interrupted while writing can leave such a file");
	}
	/* The superblock sits at 0, 512, 1024, 2048, ... */
	for (at = 0; !found; at = at ? at * 2 : 512) {
		if (S_ISREG(st.st_mode) && at + 8 > st.st_size)
			break;
		if (pread(fd, buf, 8, at) != 8)
			break;
		found = !memcmp(buf, sig, 8);
		if (at > ((off_t)1 << 40))
			break;
	}
	close(fd);
	if (!found)
		return sv_h5_fail(h, -EINVAL, NULL,
			"not an HDF5 file (no HDF5 signature found)");
	return 0;
}

/* Everything between opening and closing the file: the section a crash
 * inside HDF5 jumps out of.  Leaves the new profile in h->p. */
static int load_file(struct sv_h5 *h)
{
	const char *why;
	hid_t fapl;
	int rc;

	sv_h5_at("/");
	fapl = H5Pcreate(H5P_FILE_ACCESS);
	/* Never block a writer appending to the profile (doc/format.md 13).
	 * Older HDF5 has no switch: HDF5_USE_FILE_LOCKING=FALSE does it. */
#if H5_VERSION_GE(1, 10, 7)
	H5Pset_file_locking(fapl, 0, 1);
#endif
	/* Closing the file closes whatever an error path left open. */
	H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
	/* No raw data chunk cache: libhdf5 then reads an unfiltered chunk
	 * straight from the file into the caller's array, never into a
	 * buffer of the size the chunk index states (a damaged index made
	 * that shorter than the chunk, and heap bytes became values).  A
	 * filtered chunk is still decoded whole, once per read
	 * (load_h5_chunks.c checks those). */
	H5Pset_cache(fapl, 0, 0, 0, 0.0);
	if (h->opts && h->opts->share && h->opts->share->mpio) {
		/* Every process of the job opens the file together. */
#ifdef H5_HAVE_PARALLEL
		H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
#else
		H5Pclose(fapl);
		return sv_h5_fail(h, -ENOTSUP, NULL,
			"this loader was built without parallel HDF5");
#endif
	}
	h->file = H5Fopen(h->path, H5F_ACC_RDONLY, fapl);
	why = h->file < 0 ? sv_h5_last_error() : "";
	H5Pclose(fapl);
	if (h->file < 0)
		return sv_h5_fail(h, -EIO, NULL,
			"not a readable HDF5 file: it is truncated or damaged "
			"(a run interrupted while writing leaves a truncated "
			"file behind)%s",
			why);

	h->p = sv_profile_new(h->path);
	rc = sv_h5_step(h, 0.0, "opening");
	if (!rc)
		rc = sv_h5_links_check(h);
	if (!rc)
		rc = load_dispatch(h);
	sv_h5_at("/ (closing the file)");
	H5Fclose(h->file);
	h->file = H5I_INVALID_HID;
	return rc;
}

/* load_file under the guard against crashes inside HDF5 (doc/format.md 12;
 * load_h5_guard.c).  *crashed tells whether the guard fired. */
static int load_guarded(struct sv_h5 *h, bool *crashed)
{
	struct sv_h5_guard guard;
	int rc;

	sv_h5_guard_begin(&guard);
	if (sigsetjmp(guard.jb, 1) == 0) {
		sv_h5_guard_arm(&guard);
		rc = load_file(h);
		sv_h5_guard_disarm();
	} else {
		/* HDF5 crashed: never call it again in this process.  The
		 * partial profile is left alone (leaked): HDF5 may have
		 * written over the heap before it crashed, and freeing it
		 * could abort. */
		sv_h5_fast_abort();
		h->p = NULL;
		h->err->code = 0;
		*crashed = true;
		if (sv_h5_guard_is_watchdog(guard.sig))
			rc = sv_h5_fail(h, -EIO, NULL,
				"damaged: the HDF5 library went round in "
				"circles while reading %s and was stopped "
				"(the file is corrupt)",
				sv_h5_guard_object());
		else
			rc = sv_h5_fail(h, -EIO, NULL,
				"damaged: the HDF5 library crashed while "
				"reading %s (the file is corrupt)",
				sv_h5_guard_object());
		sv_h5_guard_note(h->err->msg);
	}
	sv_h5_guard_end(&guard);
	return rc;
}

/* One load's HDF5 work, on a thread of its own. */
struct load_run {
	struct sv_h5 *h;
	pthread_mutex_t mu;
	pthread_cond_t cv; /* done became true */
	int rc;
	bool done, crashed;
};

static void *load_run_main(void *arg)
{
	struct load_run *r = arg;
	bool crashed = false;
	int rc;

	sv_load_quiet_hdf5();
	sv_h5_attr_limit(r->h->file_bytes);
	rc = load_guarded(r->h, &crashed);
	pthread_mutex_lock(&r->mu);
	r->rc = rc;
	r->crashed = crashed;
	r->done = true;
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->mu);
	/* After a crash inside HDF5 this thread's allocator caches may be
	 * damaged, and a thread frees them when it ends: so it never ends. */
	while (crashed)
		pause();
	return NULL;
}

/*
 * Run the HDF5 part of a load on a new thread while the caller waits.
 * Then what libhdf5 damages when it runs wild on a corrupted file is
 * mostly that thread's own: its allocator arena and caches, its stack;
 * after a crash the thread is parked for good instead of ending (ending
 * would free its caches and could abort), and the caller carries on with
 * a heap libhdf5 less likely touched.  The thread blocks every signal but
 * the guard's.
 */
static int load_isolated(struct sv_h5 *h)
{
	struct load_run r;
	sigset_t all, old;
	pthread_t t;
	bool started, crashed = false;
	int rc;

	memset(&r, 0, sizeof r);
	r.h = h;
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	started = pthread_create(&t, NULL, load_run_main, &r) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started) {
		/* No thread to spare: load here. */
		pthread_cond_destroy(&r.cv);
		pthread_mutex_destroy(&r.mu);
		return load_guarded(h, &crashed);
	}
	pthread_mutex_lock(&r.mu);
	while (!r.done)
		pthread_cond_wait(&r.cv, &r.mu);
	rc = r.rc;
	crashed = r.crashed;
	pthread_mutex_unlock(&r.mu);
	if (crashed)
		pthread_detach(t);
	else
		pthread_join(t, NULL);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	return rc;
}

int sv_load_h5_probe(const char *path, struct sv_error *err)
{
	struct sv_h5 h;

	memset(&h, 0, sizeof h);
	h.path = path;
	h.err = err;
	h.file = H5I_INVALID_HID;
	return precheck(&h);
}

/* Did the file at path change since *before?  A profile being written
 * while it is read fails in odd ways, or makes libhdf5 spin until the
 * watchdog stops it: after a failure any change counts (rewritten in
 * place, replaced).  After a success only a file that shrank in place
 * does: libhdf5 reads the part that is gone as zeros, while a writer
 * appending (scope-profiler adds rank after rank) or a file replaced by
 * rename leaves what was read intact. */
static bool load_changed(
	const char *path, const struct stat *before, bool failed)
{
	struct stat now;

	if (stat(path, &now) != 0)
		return failed;
	if (!failed)
		return now.st_ino == before->st_ino &&
		       now.st_dev == before->st_dev &&
		       now.st_size < before->st_size;
	return now.st_ino != before->st_ino || now.st_dev != before->st_dev ||
	       now.st_size != before->st_size ||
	       now.st_mtim.tv_sec != before->st_mtim.tv_sec ||
	       now.st_mtim.tv_nsec != before->st_mtim.tv_nsec;
}

static int load_changed_fail(struct sv_h5 *h, int rc)
{
	char was[sizeof h->err->msg];
	size_t n = strlen(h->path);

	/* The reader's message without the file name it starts with. */
	snprintf(was, sizeof was, "%s",
		!strncmp(h->err->msg, h->path, n) && h->err->msg[n] == ':'
			? h->err->msg + n + 2
			: h->err->msg);
	sv_h5_fail(h, rc, NULL,
		"changed while being read (is it being written?); open it "
		"again once the writer is done (while reading: %s)",
		was);
	return rc;
}

int sv_load_h5_raw(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err)
{
	struct sv_h5 h = {0};
	struct stat before;
	bool have_before;
	int rc;

	if (sv_h5_guard_tripped())
		return sv_error_set(err, -EIO,
			"%s: not loaded: the HDF5 library is in an unknown "
			"state after reading a damaged file; restart scopeview "
			"(%s)",
			path, sv_h5_guard_first());
	sv_load_quiet_hdf5();
	/* LZF and zstd without plugin set-up (doc/format.md 8.2); should
	 * HDF5 refuse them, their files fail as for any missing filter. */
	(void)sv_h5_filters_register();
	h.path = path;
	h.err = err;
	h.opts = opts;
	h.file = H5I_INVALID_HID;
	have_before = stat(path, &before) == 0;
	rc = precheck(&h);
	if (rc)
		return rc;
	sv_h5_attr_limit(h.file_bytes);

	rc = load_isolated(&h);
	if (rc != -ECANCELED && have_before &&
		load_changed(path, &before, rc != 0)) {
		if (!rc) {
			/* The profile read is not what the file holds now. */
			sv_profile_free(h.p);
			h.p = NULL;
			snprintf(err->msg, sizeof err->msg,
				"%s: it shrank from %lld bytes", path,
				(long long)before.st_size);
		}
		rc = load_changed_fail(&h, rc ? rc : -EIO);
	}
	if (!rc) {
		sv_load_num_ranks(h.p);
		if (h.p->run) /* the whole run beside a subset */
			sv_profile_run_finish(h.p->run, h.p);
	}
	if (rc) {
		if (!err->code)
			sv_error_set(err, rc, "%s: cannot load", path);
		sv_profile_free(h.p);
		return rc;
	}
	*out = h.p;
	return 0;
}

/*
 * load_json_in.c: the bytes of a JSON profile, plain or gzip, a block at
 * a time (load_json.h), so that a document of gigabytes is never held
 * whole.  gzip goes through zlib's streaming inflate (libdeflate, which
 * the HDF5 decoder uses, only inflates whole buffers); a file of several
 * gzip members, as `cat a.gz b.gz` makes, reads as their concatenation,
 * as Python's gzip module reads it.
 */
#include "load_json.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define JIN_RAW (256 * 1024)

int sv_jin_open(
	struct sv_jin *in, const char *path, bool gz, struct sv_error *err)
{
	struct stat st;

	memset(in, 0, sizeof *in);
	in->path = path;
	in->gz = gz;
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0 || fstat(in->fd, &st) != 0) {
		int e = errno;
		if (in->fd >= 0)
			close(in->fd);
		in->fd = -1;
		return sv_error_set(
			err, -e, "%s: cannot open: %s", path, strerror(e));
	}
	in->size = (uint64_t)st.st_size;
	if (gz) {
		in->raw = sv_xmalloc(JIN_RAW);
		if (inflateInit2(&in->z, 15 + 16) != Z_OK) {
			close(in->fd);
			free(in->raw);
			in->fd = -1;
			return sv_error_set(err, -ENOMEM,
				"%s: cannot start gzip decompression", path);
		}
		in->z_live = true;
	}
	return 0;
}

/* Fill the raw buffer from the file when it is empty; false at the end. */
static bool jin_refill(struct sv_jin *in, struct sv_error *err, int *rc)
{
	ssize_t got;

	if (in->z.avail_in)
		return true;
	got = read(in->fd, in->raw, JIN_RAW);
	if (got < 0) {
		*rc = sv_error_set(err, -errno, "%s: cannot read: %s", in->path,
			strerror(errno));
		return false;
	}
	in->read += (uint64_t)got;
	in->z.next_in = in->raw;
	in->z.avail_in = (uInt)got;
	return got > 0;
}

ssize_t sv_jin_read(
	struct sv_jin *in, unsigned char *buf, size_t cap, struct sv_error *err)
{
	int rc = 0, zr;

	if (!in->gz) {
		ssize_t got = read(in->fd, buf, cap);
		if (got < 0)
			return sv_error_set(err, -errno, "%s: cannot read: %s",
				in->path, strerror(errno));
		in->read += (uint64_t)got;
		return got;
	}
	in->z.next_out = buf;
	in->z.avail_out = (uInt)cap;
	while (in->z.avail_out == cap) {
		if (in->member_done) {
			/* Another member may follow, or the end of the file. */
			if (!jin_refill(in, err, &rc))
				return rc ? rc : 0;
			if (in->z.avail_in >= 1 && in->z.next_in[0] != 0x1f)
				return sv_error_set(err, -EINVAL,
					"%s: gzip: data after the end of the "
					"compressed stream is not gzip",
					in->path);
			inflateReset(&in->z);
			in->member_done = false;
		}
		if (!jin_refill(in, err, &rc)) {
			if (rc)
				return rc;
			return sv_error_set(err, -EINVAL,
				"%s: gzip: the compressed stream ends early "
				"(the file is truncated)",
				in->path);
		}
		zr = inflate(&in->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			in->member_done = true;
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			return sv_error_set(err, -EINVAL,
				"%s: gzip: the compressed data is damaged (%s)",
				in->path, in->z.msg ? in->z.msg : "zlib error");
		}
	}
	return (ssize_t)(cap - in->z.avail_out);
}

double sv_jin_fraction(const struct sv_jin *in)
{
	uint64_t at = in->read;
	if (in->gz && at >= in->z.avail_in)
		at -= in->z.avail_in;
	return in->size ? (double)at / (double)in->size : 1.0;
}

void sv_jin_close(struct sv_jin *in)
{
	if (in->z_live)
		inflateEnd(&in->z);
	if (in->fd >= 0)
		close(in->fd);
	free(in->raw);
	memset(in, 0, sizeof *in);
	in->fd = -1;
}

/* YAJL's reason, one line, and where (bytes of the document before the
 * failing block, plus how far into it YAJL got). */
static int jin_parse_error(
	struct jl *j, yajl_handle h, yajl_status st, bool gz, uint64_t before)
{
	unsigned char *why;
	char *nl;

	if (st == yajl_status_client_canceled && j->rc)
		return j->rc;
	why = yajl_get_error(h, 0, NULL, 0);
	nl = why ? strchr((char *)why, '\n') : NULL;
	if (nl)
		*nl = '\0';
	sv_jl_fail(j, -EINVAL, "not valid JSON near byte %" PRIu64 "%s (%s)",
		before + yajl_get_bytes_consumed(h),
		gz ? " of the uncompressed text" : "",
		why ? (char *)why : "parse error");
	if (why)
		yajl_free_error(h, why);
	return j->rc;
}

static void jin_state_free(struct jl *j)
{
	size_t c;

	sv_jl_row_reset(j);
	for (c = 0; c < JL_NCOLS; c++)
		free(j->cols[c]);
	sv_load_names_fini(&j->names);
	free(j->pairs);
	free(j->meta_key);
	sv_strv_fini(&j->meta_list);
	free(j->thread.name);
	free(j->task.kind);
	free(j->task.name);
	free(j->task.coro_name);
	free(j);
}

int sv_load_json(const char *path, bool gz, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err)
{
	struct sv_jin in;
	struct jl *j;
	yajl_handle h;
	unsigned char *buf;
	uint64_t before = 0, guess;
	yajl_status st = yajl_status_ok;
	ssize_t n;
	int rc;

	if (opts && opts->summary_only)
		return sv_error_set(err, -ENOTSUP,
			"%s: a JSON profile has no index apart from its "
			"calls; it is only read whole",
			path);
	rc = sv_jin_open(&in, path, gz, err);
	if (rc)
		return rc;
	j = sv_xcalloc(1, sizeof *j);
	j->p = sv_profile_new(path);
	j->p->layout = SV_LAYOUT_COLUMNAR;
	j->p->has_calls = true;
	j->path = path;
	j->err = err;
	j->row.source_line = -1;
	/* Room for the calls the text can hardly hold fewer of (two numbers
	 * of about 20 characters a call; gzip shrinks it about 8 times):
	 * pages not written are never touched. */
	guess = (gz ? in.size * 8 : in.size) / 48;
	if (guess > SV_MAX_CALLS)
		guess = SV_MAX_CALLS;
	sv_profile_reserve_calls(j->p, guess);
	h = yajl_alloc(&sv_jl_callbacks, NULL, j);
	buf = sv_xmalloc(JL_BLOCK);
	for (;;) {
		n = sv_jin_read(&in, buf, JL_BLOCK, err);
		if (n < 0) {
			rc = (int)n;
			break;
		}
		if (n == 0)
			break;
		st = yajl_parse(h, buf, (size_t)n);
		if (st != yajl_status_ok) {
			rc = jin_parse_error(j, h, st, gz, before);
			break;
		}
		before += (uint64_t)n;
		rc = sv_load_step(
			opts, path, 0.85 * sv_jin_fraction(&in), "calls", err);
		if (rc)
			break;
	}
	if (!rc) {
		st = yajl_complete_parse(h);
		if (st != yajl_status_ok)
			rc = jin_parse_error(j, h, st, gz, before);
	}
	if (!rc && !j->has_format)
		rc = sv_error_set(err, -EINVAL,
			"%s: is JSON, but not a scope-profiler JSON profile "
			"(no \"format\": \"scope-profiler-profile\"; such "
			"files are written by `scope-profiler export "
			"--format json` or `-o NAME.json`)",
			path);
	if (!rc && j->has_version && j->version > 1)
		rc = sv_error_set(err, -ENOTSUP,
			"%s: uses JSON profile format version %" PRId64
			"; this scopeview reads version 1: upgrade scopeview "
			"to read this file",
			path, j->version);
	if (!rc && j->has_num_ranks)
		j->p->num_ranks = j->num_ranks < 0 ? 0
				  : j->num_ranks > (int64_t)UINT32_MAX
					  ? UINT32_MAX
					  : (uint32_t)j->num_ranks;
	free(buf);
	yajl_free(h);
	sv_jin_close(&in);
	if (!rc)
		*out = j->p;
	else
		sv_profile_free(j->p);
	jin_state_free(j);
	return rc;
}

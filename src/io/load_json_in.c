/*
 * load_json_in.c: the bytes of a JSON profile, plain or gzip, a block at
 * a time (load_json.h), so that a document of gigabytes is never held
 * whole.  gzip goes through zlib's streaming inflate (libdeflate, which
 * the HDF5 decoder uses, only inflates whole buffers) on a thread of its
 * own, a few blocks ahead of the parser, so that inflating and parsing
 * use two cores; a file of several gzip members, as `cat a.gz b.gz`
 * makes, reads as their concatenation, as Python's gzip module reads it.
 */
#include "load_json.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define JIN_RAW (256 * 1024)

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
	atomic_fetch_add(&in->read, (uint64_t)got);
	in->z.next_in = in->raw;
	in->z.avail_in = (uInt)got;
	return got > 0;
}

/* Up to cap bytes of inflated text: how many, 0 at the end, or a
 * negative errno with err filled. */
static ssize_t jin_inflate(
	struct sv_jin *in, unsigned char *buf, size_t cap, struct sv_error *err)
{
	int rc = 0, zr;

	in->z.next_out = buf;
	in->z.avail_out = (uInt)cap;
	while (in->z.avail_out == cap) {
		if (in->member_done) {
			/* Another member may follow, or the end of the file. */
			if (!jin_refill(in, err, &rc))
				return rc ? rc : 0;
			if (in->z.next_in[0] != 0x1f)
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

/* The inflating thread: fills the slots in turn until the end, an
 * error, or sv_jin_close. */
static void *jin_thread(void *arg)
{
	struct sv_jin *in = arg;
	size_t at = 0;
	ssize_t n;

	do {
		pthread_mutex_lock(&in->mu);
		while (in->full == SV_JIN_SLOTS && !in->stop)
			pthread_cond_wait(&in->cv, &in->mu);
		if (in->stop) {
			pthread_mutex_unlock(&in->mu);
			break;
		}
		pthread_mutex_unlock(&in->mu);
		n = jin_inflate(in, in->slot[at], SV_JIN_BLOCK, &in->perr);
		pthread_mutex_lock(&in->mu);
		in->len[at] = n;
		in->full++;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
		at = (at + 1) % SV_JIN_SLOTS;
	} while (n > 0);
	return NULL;
}

int sv_jin_open(
	struct sv_jin *in, const char *path, bool gz, struct sv_error *err)
{
	struct stat st;
	size_t i;

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
	for (i = 0; i < (gz ? SV_JIN_SLOTS : 1); i++)
		in->slot[i] = sv_xmalloc(SV_JIN_BLOCK);
	if (!gz)
		return 0;
	in->raw = sv_xmalloc(JIN_RAW);
	if (inflateInit2(&in->z, 15 + 16) != Z_OK) {
		sv_jin_close(in);
		return sv_error_set(err, -ENOMEM,
			"%s: cannot start gzip decompression", path);
	}
	in->z_live = true;
	pthread_mutex_init(&in->mu, NULL);
	pthread_cond_init(&in->cv, NULL);
	in->sync = true;
	in->threaded = pthread_create(&in->th, NULL, jin_thread, in) == 0;
	return 0;
}

ssize_t sv_jin_next(
	struct sv_jin *in, const unsigned char **data, struct sv_error *err)
{
	ssize_t n;

	if (!in->gz) {
		n = read(in->fd, in->slot[0], SV_JIN_BLOCK);
		if (n < 0)
			return sv_error_set(err, -errno, "%s: cannot read: %s",
				in->path, strerror(errno));
		atomic_fetch_add(&in->read, (uint64_t)n);
		*data = in->slot[0];
		return n;
	}
	if (!in->threaded) {
		n = jin_inflate(in, in->slot[0], SV_JIN_BLOCK, err);
		*data = in->slot[0];
		return n;
	}
	pthread_mutex_lock(&in->mu);
	if (in->holding) {
		/* the slot handed out last time is free again */
		in->holding = false;
		in->head = (in->head + 1) % SV_JIN_SLOTS;
		in->full--;
		pthread_cond_broadcast(&in->cv);
	}
	while (!in->full)
		pthread_cond_wait(&in->cv, &in->mu);
	n = in->len[in->head];
	*data = in->slot[in->head];
	in->holding = n > 0;
	pthread_mutex_unlock(&in->mu);
	if (n < 0)
		*err = in->perr;
	return n;
}

double sv_jin_fraction(const struct sv_jin *in)
{
	uint64_t at = atomic_load(&in->read);
	return in->size ? (double)at / (double)in->size : 1.0;
}

void sv_jin_close(struct sv_jin *in)
{
	size_t i;

	if (in->threaded) {
		pthread_mutex_lock(&in->mu);
		in->stop = true;
		pthread_cond_broadcast(&in->cv);
		pthread_mutex_unlock(&in->mu);
		pthread_join(in->th, NULL);
	}
	if (in->sync) {
		pthread_mutex_destroy(&in->mu);
		pthread_cond_destroy(&in->cv);
	}
	if (in->z_live)
		inflateEnd(&in->z);
	if (in->fd >= 0)
		close(in->fd);
	for (i = 0; i < SV_JIN_SLOTS; i++)
		free(in->slot[i]);
	free(in->raw);
	memset(in, 0, sizeof *in);
	in->fd = -1;
}

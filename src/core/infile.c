/*
 * infile.c: opening and reading a file someone named, by the one rule of
 * infile.h: a non-blocking open, fstat on the descriptor, nothing but a
 * regular file (or a directory when asked), and reads that stop at a
 * stated bound.  Nothing here prints.
 */
#include "scopeview/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *sv_infile_kind(mode_t m)
{
	if (S_ISREG(m))
		return "a regular file";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int sv_infile_open(
	const char *path, unsigned flags, struct stat *st, struct sv_error *err)
{
	struct stat s;
	int fd, e, fl;

	if (!path || !*path)
		return sv_error_set(err, -EINVAL, "no file named");
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT)
			return sv_error_set(
				err, -ENOENT, "%s: no such file", path);
		return sv_error_set(
			err, -e, "%s: cannot open: %s", path, strerror(e));
	}
	if (fstat(fd, &s) != 0) {
		e = errno;
		close(fd);
		return sv_error_set(
			err, -e, "%s: cannot open: %s", path, strerror(e));
	}
	if (!S_ISREG(s.st_mode) &&
		!(S_ISDIR(s.st_mode) && (flags & SV_INFILE_DIR))) {
		close(fd);
		return sv_error_set(err, -EINVAL,
			"%s: is %s, not a regular file", path,
			sv_infile_kind(s.st_mode));
	}
	/* Blocking again: a regular file's reads never wait on O_NONBLOCK,
	 * but a caller handing the descriptor on need not know that. */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (st)
		*st = s;
	return fd;
}

/* read() until n bytes or the end of the file; -errno on an error. */
static ssize_t infile_read_all(int fd, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int sv_infile_read(const char *path, size_t bound, struct sv_infile_text *out,
	struct sv_error *err)
{
	struct stat st;
	char *buf, extra;
	ssize_t got, more = 0;
	size_t want;
	int fd = sv_infile_open(path, 0, &st, err);

	if (fd < 0)
		return fd;
	/* No more room than the file claims: a bound of 1 GB costs nothing
	 * for a small file.  A file whose size says 0 (in /proc) may hold
	 * bytes all the same: up to a page is read to see. */
	want = (uint64_t)st.st_size < bound ? (size_t)st.st_size : bound;
	if (st.st_size == 0)
		want = bound < 4096 ? bound : 4096;
	buf = sv_xmalloc(want + 1);
	got = infile_read_all(fd, buf, want);
	if (got >= 0 && (size_t)got == want)
		more = infile_read_all(fd, &extra, 1);
	close(fd);
	if (got < 0 || more < 0) {
		int e = got < 0 ? (int)-got : (int)-more;
		free(buf);
		return sv_error_set(
			err, -e, "%s: cannot read: %s", path, strerror(e));
	}
	buf[got] = '\0';
	out->data = buf;
	out->len = (size_t)got;
	out->size = (uint64_t)st.st_size;
	out->cut = more > 0 || (uint64_t)st.st_size > (uint64_t)got;
	return 0;
}

void sv_infile_text_fini(struct sv_infile_text *t)
{
	if (!t)
		return;
	free(t->data);
	memset(t, 0, sizeof *t);
}

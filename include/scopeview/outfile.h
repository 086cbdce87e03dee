/*
 * outfile.h: writing a file a person named without losing one, the one
 * rule every command that writes follows (`snapshot -o`, `export -o`,
 * the viewer's `:export`, `gen`, and any later writer such as `convert`):
 *
 *  1. The target is refused (-EEXIST: a command-line mistake, exit 2)
 *     when it is one of the command's inputs, compared by device and
 *     inode with every link followed: the same path, a symbolic link to
 *     an input, a hard link of one.  An input that is a directory (a
 *     directory run) stands for every file under it.
 *  2. It is refused (-EEXIST too) when it exists and is not a regular
 *     file: a directory, a FIFO, a device (/dev/null, /dev/full), a
 *     socket, or a symbolic link, which is neither replaced nor written
 *     through.  Only a regular file or a new name is ever replaced.
 *  3. The bytes go to a temporary file beside the target
 *     ("DIR/.NAME.PID.N.tmp", created new, with the mode of the file it
 *     replaces or 0666 less the umask), which sv_outfile_commit renames
 *     over the target.  A failure at any point (a full disk, a file size
 *     limit, a stop, a signal through sv_outfile_unlink_temps) removes
 *     the temporary: the old file stays whole and no partial file is
 *     left.  Errors other than refusals are negative errnos with a line
 *     naming the target and the system's reason ("cannot write out.csv:
 *     No space left on device"): exit 1.
 *
 * Use:
 *
 *     struct sv_outfile o;
 *     const char *inputs[] = {"run.h5"};
 *     rc = sv_outfile_open(&o, "out.csv", inputs, 1, &err);
 *     if (rc == 0) {
 *             rc = write_it(sv_outfile_stream(&o), &err);
 *             rc = sv_outfile_finish(&o, rc, &err);
 *     }
 *
 * A library that opens files by name (libhdf5) writes to o.tmp_path
 * instead of the stream.  Nothing here prints; the functions are safe to
 * use from several threads at once, each with its own struct.
 */
#ifndef SCOPEVIEW_OUTFILE_H
#define SCOPEVIEW_OUTFILE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/outfile.h belongs to the core layer, which this layer may not use"
#endif

#include <stddef.h>
#include <stdio.h>

#include "scopeview/common.h"

/* A file being written.  Every field is the module's; read path and
 * tmp_path only.  The stream points at the struct: it must stay where it
 * is until commit or abort. */
struct sv_outfile {
	char *path;      /* the target, as given */
	char *tmp_path;  /* the temporary beside it */
	int fd;          /* open on tmp_path for writing */
	FILE *stream;    /* over fd, made by sv_outfile_stream(); or NULL */
	int write_errno; /* the first failed write's errno, 0 when none */
	int slot;        /* its place in the list of live temporaries, -1 */
};

/*
 * Would path be refused as the output of a command that reads the
 * ninputs files inputs (NULL entries are skipped)?  Returns 0 when it may
 * be written (a regular file or a new name, none of the inputs),
 * -EEXIST with one line in err when it is refused (rules 1 and 2 above,
 * or an empty path), or another negative errno when path cannot even be
 * looked at (a component is not a directory, no permission).
 * Nothing is created.  A command checks this before it reads its inputs,
 * so that a mistake costs no load.
 */
int sv_outfile_check(const char *path, const char *const *inputs,
	size_t ninputs, struct sv_error *err);

/*
 * Check path as sv_outfile_check() does, then create the temporary
 * beside it.  On success fills *o and returns 0; the caller must end it
 * with sv_outfile_finish(), sv_outfile_commit() or sv_outfile_abort().
 * On failure returns the check's error or the creation's (-ENOENT for a
 * directory that does not exist, -EACCES, ...) with err filled, and *o
 * holds nothing to free.
 */
int sv_outfile_open(struct sv_outfile *o, const char *path,
	const char *const *inputs, size_t ninputs, struct sv_error *err);

/*
 * A stdio stream that writes to the temporary (made on the first call,
 * the same one after).  Each write that fails records its errno for
 * sv_outfile_finish().  Never NULL after a successful open (allocation
 * failure aborts).  Do not fclose it: commit and abort do.
 */
FILE *sv_outfile_stream(struct sv_outfile *o);

/*
 * Flush and close the temporary and rename it over the target.  Returns
 * 0, or a negative errno with "cannot write PATH: REASON" in err, in
 * which case the temporary is removed and the target left as it was.
 * Either way *o is done with.
 */
int sv_outfile_commit(struct sv_outfile *o, struct sv_error *err);

/* Remove the temporary and forget it (the target is untouched). */
void sv_outfile_abort(struct sv_outfile *o);

/*
 * The end of a write whose result is rc: commit when rc is 0, else
 * abort.  When the write failed because the stream could not write
 * (a full disk), err is replaced by "cannot write PATH: REASON" with the
 * system's reason and that errno returned; any other rc (a stop,
 * -ECANCELED; the writer's own error) is returned with err as the writer
 * left it.
 */
int sv_outfile_finish(struct sv_outfile *o, int rc, struct sv_error *err);

/*
 * Remove every temporary that a write of this process has open (up to
 * 16 at once are tracked; a path of 4096 bytes or more is not).
 * Async-signal-safe: for a SIGINT or SIGTERM handler that then ends the
 * process.
 */
void sv_outfile_unlink_temps(void);

#endif

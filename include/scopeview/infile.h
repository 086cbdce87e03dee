/*
 * infile.h: reading a file that a person or a profile named, the one
 * rule every such open follows (the counterpart of outfile.h): a profile
 * given on the command line or by the viewer's `:open FILE` (sv_load's
 * first look at it), a configuration file (`--config FILE` and the
 * default one) and the source file a profile names (the source popup).
 *
 *  1. The open never waits: it is made with O_NONBLOCK and O_NOCTTY, so
 *     a FIFO without a writer, a terminal or a device returns at once
 *     (and no terminal becomes the controlling one); then fstat on the
 *     open descriptor, so that what is checked is what is read.
 *  2. Anything but a regular file is refused (-EINVAL) with one line
 *     "PATH: is a FIFO, not a regular file" (a directory too, unless
 *     the caller accepts one).  Symbolic links are followed; a loop of
 *     them fails as the system says ("PATH: cannot open: Too many levels
 *     of symbolic links").  A missing file is "PATH: no such file"
 *     (-ENOENT).
 *  3. A read has a stated bound: sv_infile_read reads at most that many
 *     bytes, whatever the file's size (a sparse 2 GB file costs its first
 *     bound), and says whether the file holds more.
 *  4. The bytes come back as the file holds them.  Whoever shows them
 *     escapes them by the one rule (sv_utf8_terminal_safe, common.h; the
 *     grid does it for the screen, sv_cli_eprintf for messages), so no
 *     control sequence from a file reaches a terminal.  Messages name the
 *     path as given; their printers escape it the same way.
 *
 * Nothing here prints.  The functions are safe to call from several
 * threads at once.
 */
#ifndef SCOPEVIEW_INFILE_H
#define SCOPEVIEW_INFILE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/infile.h belongs to the core layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "scopeview/common.h"

/* sv_infile_open's flags: a directory is accepted too (opened for
 * reading its entries, or fstat). */
#define SV_INFILE_DIR 1u

/*
 * Open path for reading by the rule above.  Returns the descriptor
 * (>= 0, close-on-exec, blocking again: reads of a regular file never
 * wait anyway) with *st (may be NULL) filled by fstat; or a negative
 * errno with one line in err: -ENOENT "PATH: no such file", -EINVAL
 * "PATH: is a FIFO, not a regular file", another errno "PATH: cannot
 * open: REASON".  The caller closes the descriptor.
 */
int sv_infile_open(const char *path, unsigned flags, struct stat *st,
	struct sv_error *err);

/* The first bytes of a file, read by sv_infile_read. */
struct sv_infile_text {
	char *data;    /* len bytes and a NUL after them (the file may hold
			  NULs of its own); owned, free with
			  sv_infile_text_fini */
	size_t len;    /* bytes read: at most the bound */
	uint64_t size; /* the file's size as fstat gave it */
	bool cut;      /* the file holds more than the bound: data is its
			  first len bytes */
};

/*
 * Read at most bound bytes of the regular file path (sv_infile_open,
 * no directory) into *out.  Returns 0, or a negative errno with err as
 * sv_infile_open says, or "PATH: cannot read: REASON".  *out is written
 * only on success.
 */
int sv_infile_read(const char *path, size_t bound, struct sv_infile_text *out,
	struct sv_error *err);

/* Free what t holds (NULL-safe); t can be read into again. */
void sv_infile_text_fini(struct sv_infile_text *t);

/* What a file of mode m is, for a refusal: "a directory", "a FIFO",
 * "a character device", "a block device", "a socket", "a symbolic link",
 * "a regular file". */
const char *sv_infile_kind(mode_t m);

#endif

/*
 * load_spt.h: native traces (.spt, doc/format.md 16.1), the binary
 * per-rank files scope-profiler's C and Fortran APIs write at
 * sp_finalize().  Private to src/io/load*.c.
 *
 * A trace is read in two steps.  sv_spt_scan reads the header and every
 * region's header, skipping the call arrays by their claimed size, and
 * checks every claim against the file's size before anything is
 * allocated by it: a region claiming 2^60 calls in a 100-byte file fails
 * at once.  sv_spt_read then reads the arrays of many traces at once,
 * with pread straight into the profile's columns, on worker threads.
 */
#ifndef SCOPEVIEW_IO_LOAD_SPT_H
#define SCOPEVIEW_IO_LOAD_SPT_H

#include "load_priv.h"

struct sv_spt_region {
	char *name;          /* sanitised UTF-8 */
	char *source_file;   /* NULL: unknown (version 1, or length 0) */
	int64_t source_line; /* -1: unknown */
	uint64_t count;      /* calls */
	uint64_t at;         /* byte offset of the starts; the ends follow */
	int64_t first_start; /* the first stored start (count > 0) */
	bool dropped;        /* a later region of the same name replaces it */
};

struct sv_spt_file {
	char *path;
	int version; /* 1 or 2 */
	uint32_t rank;
	bool swap; /* the file's byte order is not ours */
	uint64_t size;
	int fd; /* open from scan to fini */
	struct sv_spt_region *regions;
	size_t nregions, cap;
	uint64_t calls; /* over the regions not dropped */
};

/* Read path's headers into *f (zeroed here).  On failure f holds nothing
 * to free and err names the file (and the region at fault). */
int sv_spt_scan(const char *path, struct sv_spt_file *f, struct sv_error *err);
void sv_spt_fini(struct sv_spt_file *f);

/* Where a region's calls go: starts and ends of count calls (count of
 * the region), and the smallest start found, written by sv_spt_read. */
struct sv_spt_dest {
	const struct sv_spt_file *file;
	const struct sv_spt_region *region;
	int64_t *start, *end;
	int64_t min_start;
};

/* Read the calls of dest[0 .. n) on up to one worker per online CPU (at
 * most 8), converting the byte order where needed.  The caller's thread
 * reports progress and looks at the cancel hook (opts) meanwhile.
 * Fails with -EIO when a file is shorter than when it was scanned. */
int sv_spt_read(struct sv_spt_dest *dest, size_t n,
	const struct sv_load_opts *opts, struct sv_error *err);

#endif

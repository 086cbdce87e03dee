/*
 * load_priv.h: what the readers of the formats sv_load takes share.
 * Private to src/io/load*.c.
 *
 * sv_load (load.c) recognises a path by what it holds, not by its name
 * (doc/format.md 16): a directory, an HDF5 file, a native trace, JSON or
 * gzip.  Each reader below fills a profile through the builder calls of
 * profile.h and leaves it unfinished, with num_ranks set; load.c then
 * runs the finishing step (lanes, nesting, packing) once, whatever the
 * format.  None of them prints, and none trusts a size read from a file
 * for an allocation before checking it against the file's size.
 */
#ifndef SCOPEVIEW_IO_LOAD_PRIV_H
#define SCOPEVIEW_IO_LOAD_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/load.h"
#include "scopeview/strv.h"

/* What a path holds, from its first bytes (sv_load_sniff). */
enum sv_load_kind {
	SV_LOAD_DIR,  /* a directory: one run of per-rank files */
	SV_LOAD_HDF5, /* the HDF5 signature at 0, 512, 1024, ... */
	SV_LOAD_SPT,  /* "SCOPEPRF": a native trace */
	SV_LOAD_JSON, /* '{' after white space (and a UTF-8 BOM) */
	SV_LOAD_GZIP, /* 1f 8b: gzip (of a JSON profile) */
};

/* Stat path and look at its first bytes.  Fails (err filled, one line
 * naming the path) when it is missing, unreadable, not a regular file or
 * directory, empty, or holds none of the kinds above. */
int sv_load_sniff(
	const char *path, enum sv_load_kind *kind, struct sv_error *err);

/* The caller's progress hook, then its cancel hook: -ECANCELED with err
 * filled ("PATH: loading cancelled") when it asks to stop.  From the
 * thread that called sv_load only. */
int sv_load_step(const struct sv_load_opts *o, const char *path,
	double fraction, const char *what, struct sv_error *err);

/* A copy of text from a file (n bytes) fit for a one-line message:
 * invalid UTF-8 replaced, control characters as \xNN (malloc'd). */
char *sv_load_show(const char *s, size_t n);

/* Region names interned by text, ids in order of first sight. */
struct sv_load_names {
	struct sv_strv names;
	uint32_t *slots; /* open addressing: id + 1, 0 = empty */
	size_t nslots;
};
/* The id of name, added on first sight (copied). */
uint32_t sv_load_names_id(struct sv_load_names *t, const char *name);
void sv_load_names_fini(struct sv_load_names *t);

/* An HDF5 profile, unfinished (load_h5.c: everything of sv_load before
 * the nesting, num_ranks set), and the checks before HDF5 opens it. */
int sv_load_h5_raw(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err);
int sv_load_h5_probe(const char *path, struct sv_error *err);

/* num_ranks of a profile of rows (doc/format.md 10.4): 0 without rows,
 * else the larger of metadata mpi_size (default 1) and the highest rank
 * + 1.  Not for schema 1, whose loader counts its rank groups. */
void sv_load_num_ranks(struct sv_profile *p);

/* Native output (load_native.c): the files of paths[0 .. n) (directories
 * expanded to their *.spt and *_rank[0-9]*.h5, doc/format.md 16.2) as one
 * run, unfinished. */
int sv_load_native(const char *const *paths, size_t n,
	const struct sv_load_opts *opts, struct sv_profile **out,
	struct sv_error *err);

/* The files a directory stands for (doc/format.md 16.2), sorted by name,
 * as malloc'd "DIR/NAME" paths in *files (n of them).  Fails when the
 * directory cannot be read or holds none. */
int sv_load_dir_files(
	const char *dir, char ***files, size_t *n, struct sv_error *err);

/* A JSON profile, plain or gzip (load_json.c), unfinished. */
int sv_load_json(const char *path, bool gz, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err);

#endif

/*
 * load_h5_priv.h: what the HDF5 loader's files (load_h5.c, the columnar and
 * aggregate layouts and everything shared; load_h5_groups.c, schema 1)
 * share.  Private to src/load_h5*.c: this is the only header besides the
 * writer's that may include <hdf5.h>.
 *
 * Every helper that can fail fills the context's sv_error with one line
 * "FILE: /hdf5/object: what is wrong" and returns a negative errno; helpers
 * that can only warn append to the profile's warnings instead.
 */
#ifndef SCOPEVIEW_LOAD_H5_PRIV_H
#define SCOPEVIEW_LOAD_H5_PRIV_H

#include <hdf5.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "scopeview/load.h"
#include "scopeview/profile.h"

/* One load in progress. */
struct sv_h5 {
	hid_t file;
	const char *path; /* as the caller gave it, for messages */
	struct sv_profile *p;
	struct sv_error *err;
	const struct sv_load_opts *opts;
	uint64_t file_bytes; /* size of the file, to reject absurd shapes */
};

/* An opened, validated 1-D dataset. */
struct sv_h5_col {
	hid_t ds;  /* H5I_INVALID_HID when absent */
	hsize_t n; /* number of elements */
	bool is_float;
};

/* Flags for sv_h5_col_open. */
enum {
	SV_H5_REQUIRED = 1 << 0, /* absent or unusable is an error */
	SV_H5_INT = 1 << 1,      /* must be an integer */
	SV_H5_NUMBER = 1 << 2,   /* integer or float */
	SV_H5_STRING = 1 << 3,   /* a string (variable or fixed length) */
	SV_H5_ANY = 1 << 4,      /* any type (compound for summaries) */
};

/* sv_h5_col_open's result besides 0 and a negative errno: the dataset is
 * absent, or optional and unusable (a warning was added). */
#define SV_H5_ABSENT 1

/* Fill h->err with "FILE: obj: message" (or "FILE: message" when obj is
 * NULL) and return code. */
int sv_h5_fail(struct sv_h5 *h, int code, const char *obj, const char *fmt, ...)
	SV_PRINTF(4, 5);

/* The most specific message on HDF5's error stack of this thread, or "" (a
 * static buffer; valid until the next call). */
const char *sv_h5_last_error(void);

/* A copy of file text fit for a one-line message: invalid UTF-8 replaced,
 * control characters shown as \xNN (malloc'd). */
char *sv_h5_show(const char *s);

/* Is there an object called name under loc (one path component)? */
bool sv_h5_exists(hid_t loc, const char *name);

/*
 * Open loc/name as a 1-D dataset of the kind flags ask for; objpath names
 * it in messages.  Checks the filter pipeline too (a filter this HDF5
 * lacks is always an error).  Returns 0 (c filled; close with
 * sv_h5_col_close), SV_H5_ABSENT, or a negative errno.  want_n, when not
 * (hsize_t)-1, is the required length: a mismatch is an error for a
 * required column and a warning plus SV_H5_ABSENT for an optional one.
 */
int sv_h5_col_open(struct sv_h5 *h, hid_t loc, const char *name,
	const char *objpath, unsigned flags, hsize_t want_n,
	struct sv_h5_col *c);
void sv_h5_col_close(struct sv_h5_col *c);

/* Read elements [off, off + n) of a 1-D dataset into buf, converted to
 * memtype.  n == 0 reads nothing. */
int sv_h5_read_range(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t memtype, hsize_t off, hsize_t n, void *buf);

/* Read all n elements of a 1-D string dataset (variable or fixed length)
 * into a new array of n sanitised, malloc'd strings. */
int sv_h5_read_strings(
	struct sv_h5 *h, hid_t ds, const char *objpath, hsize_t n, char ***out);

/* Read a scalar string attribute (variable or fixed length) as a
 * sanitised, malloc'd string.  Returns 0, SV_H5_ABSENT when there is no
 * such attribute, or -EINVAL when it is not a scalar string (no error
 * filled: the caller decides). */
int sv_h5_attr_string(hid_t loc, const char *name, char **out);

/* Read a 1-D (or scalar) string attribute as n strings. Same returns. */
int sv_h5_attr_strings(hid_t loc, const char *name, char ***out, size_t *n);

/* Read a scalar integer attribute.  Same returns. */
int sv_h5_attr_int(hid_t loc, const char *name, int64_t *out);

/* Call the caller's progress hook, then its cancel hook: returns
 * -ECANCELED (error filled) when the caller asked to stop. */
int sv_h5_step(struct sv_h5 *h, double fraction, const char *what);

/* sv_h5_fast_read's result when it did not read the range: the caller
 * reads it with H5Dread (the buffer may hold garbage meanwhile). */
#define SV_H5_FAST_NO 1

/*
 * load_h5_fast.c: read elements [off, off + n) of a 1-D deflate (+
 * shuffle) chunked dataset of 8-byte elements whose file type is memtype
 * into buf, fetching raw chunks in this thread and decoding them in
 * worker threads.  Reports progress from f0 to f1 ("events") and checks
 * cancellation between chunks.  Returns 0, -ECANCELED (error filled), or
 * SV_H5_FAST_NO: the dataset, the range or the options do not suit, or a
 * chunk would not decode (nothing filled: H5Dread gives the real error).
 */
int sv_h5_fast_read(struct sv_h5 *h, hid_t ds, hid_t memtype, hsize_t off,
	hsize_t n, void *buf, double f0, double f1);

/* After a crash inside HDF5 jumped out of sv_h5_fast_read: stop and join
 * its worker threads (they may still write to the destination). */
void sv_h5_fast_abort(void);

/* Chunks decoded by the parallel path so far in this process (for
 * tests: did the parallel path run?). */
uint64_t sv_h5_fast_chunks(void);

/*
 * load_h5_guard.c: a crash (SIGSEGV, SIGBUS) of libhdf5 while reading a
 * damaged file.  sv_load does:
 *
 *     sv_h5_guard_begin(&g);
 *     if (sigsetjmp(g.jb, 1) == 0) {
 *             sv_h5_guard_arm(&g);
 *             ... HDF5 calls ...
 *             sv_h5_guard_disarm();
 *     } else {
 *             ... HDF5 crashed: fail, touch HDF5 no more ...
 *     }
 *     sv_h5_guard_end(&g);
 *
 * Only a fault in the armed thread jumps; any other goes to the handler
 * installed before ours, or kills the process.
 */
struct sv_h5_guard {
	sigjmp_buf jb;
	void *stack; /* the alternate signal stack we gave the thread */
	volatile sig_atomic_t sig; /* the signal that jumped */
	sigset_t old_mask;         /* the thread's signal mask before */
};

/* (Re)install the fault handler if someone replaced it. */
void sv_h5_guard_install(void);
void sv_h5_guard_begin(struct sv_h5_guard *g);
void sv_h5_guard_arm(struct sv_h5_guard *g);
void sv_h5_guard_disarm(void);
void sv_h5_guard_end(struct sv_h5_guard *g);
/* Was the signal that jumped (guard.sig) the watchdog's (a hang)? */
bool sv_h5_guard_is_watchdog(int sig);
/* Remember the message of the load that tripped the guard (the first
 * call wins), and return it ("" before). */
void sv_h5_guard_note(const char *msg);
const char *sv_h5_guard_first(void);
/* Has a guarded crash happened in this process? */
bool sv_h5_guard_tripped(void);
/* Note the HDF5 object this thread reads next (for the crash message). */
void sv_h5_at(const char *obj);
/* The last object noted in this thread ("/" when none). */
const char *sv_h5_guard_object(void);

/* Schema 1 (load_h5_groups.c): rank<N>/regions/<name>/... */
int sv_load_h5_groups(struct sv_h5 *h);

/* Set row->has_gpu from the call column (FORMAT.md 1.5: any value >= 0). */
void sv_h5_rows_gpu(struct sv_profile *p);

#endif

/*
 * load_h5_guard.h: surviving a crash of libhdf5 on a damaged file
 * (load_h5_guard.c).  Private to src/io; depends on nothing else of the
 * loader.
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_GUARD_H
#define SCOPEVIEW_IO_LOAD_H5_GUARD_H

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>

/*
 * A crash (SIGSEGV, SIGBUS) of libhdf5 while reading a
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

#endif

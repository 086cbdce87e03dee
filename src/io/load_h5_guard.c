/*
 * load_h5_guard.c: survive a crash of libhdf5 on a damaged file.
 *
 * libhdf5 1.10.8 itself can crash (SIGSEGV, SIGBUS) on some byte-flipped
 * files, in code that reads corrupted strings or attribute lists.  While a
 * thread is between sv_h5_guard_arm() and sv_h5_guard_disarm(), a fault in
 * that thread jumps back to the sigsetjmp of its sv_load, which then fails
 * cleanly.  An abort() of the C library (libhdf5 overran or freed a heap
 * block) is not jumped out of: glibc aborts with its allocator lock held,
 * and the process would then sleep for ever in the next malloc.  It ends
 * the process through the handler installed before ours (the viewer's
 * terminal restorer).  The known cause, a variable-length string that
 * understates its heap object, is refused before libhdf5 reads it
 * (load_h5_vlen.c).  A fault in any other thread, or outside the guarded section,
 * goes to the handler that was installed before ours (the viewer's
 * terminal restorer, a sanitizer's reporter) or, when there was none, kills
 * the process as it always would.
 *
 * Our handler is (re)installed at the start of every load and at every
 * progress step, so it works whichever of the viewer and the loader
 * installs its handler first; the handler it replaces is remembered and
 * called for faults that are not ours.
 *
 * After a guarded crash nothing about libhdf5 can be trusted (its global
 * lock may be held, its caches half-updated), so the process is marked
 * and every later load refuses (sv_h5_guard_tripped).
 */
#include "load_h5_guard.h"

#include <hdf5.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "scopeview/common.h"

/* SIGABRT too, only to pass it on (see guard_handler). */
static const int guard_signals[] = {SIGSEGV, SIGBUS, SIGABRT};
#define GUARD_NSIG (sizeof guard_signals / sizeof guard_signals[0])

/* The guard of the section this thread is in, or NULL. */
static _Thread_local struct sv_h5_guard *volatile guard_current;
/* The HDF5 object this thread is reading, for the message. */
static _Thread_local char guard_object[160];
/* Set once a guarded crash happened in this process. */
static atomic_bool guard_poisoned;

static pthread_mutex_t guard_mu = PTHREAD_MUTEX_INITIALIZER;
/* The handlers ours replaced, by guard_signals index. */
static struct sigaction guard_prev[GUARD_NSIG];

static void guard_handler(int sig, siginfo_t *si, void *uc);

/* The watchdog: a timer on the loading thread's CPU clock, re-armed each
 * time the loader moves on to another object or block (sv_h5_at).  When
 * it expires the thread has computed for that long inside one HDF5 call
 * without a step forward: libhdf5 loops for ever on some corrupted global
 * heaps.  It only measures CPU time, so a slow disk never trips it. */
#define GUARD_WATCHDOG_SIG       (SIGRTMAX - 3)
#define GUARD_WATCHDOG_DEFAULT_S 20
static _Thread_local timer_t guard_timer;
static _Thread_local bool guard_timer_on;
static _Thread_local long guard_timer_s;

static size_t guard_index(int sig)
{
	size_t i;
	for (i = 0; i + 1 < GUARD_NSIG; i++)
		if (guard_signals[i] == sig)
			break;
	return i;
}

/* Is this signal one the guarded thread raised itself: a fault, or the
 * abort() of the C library (sent with tgkill to itself)? */
static bool guard_own(int sig, const siginfo_t *si)
{
	if (!si)
		return false;
	if (sig == SIGABRT)
		return si->si_code == SI_TKILL && si->si_pid == getpid();
	return si->si_code > 0;
}

/* Hand a fault that is not ours to whoever handled it before us. */
static void guard_chain(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *p = &guard_prev[guard_index(sig)];
	struct sigaction dfl;

	if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction &&
		p->sa_sigaction != guard_handler) {
		if (p->sa_flags & SA_RESETHAND)
			signal(sig, SIG_DFL);
		p->sa_sigaction(sig, si, uc);
		return;
	}
	if (!(p->sa_flags & SA_SIGINFO) && p->sa_handler != SIG_DFL &&
		p->sa_handler != SIG_IGN) {
		if (p->sa_flags & SA_RESETHAND)
			signal(sig, SIG_DFL);
		p->sa_handler(sig);
		return;
	}
	/* Die of the signal: a fault happens again on return, a signal sent
	 * with kill or raise is sent again. */
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	if (sig == SIGABRT || (si && si->si_code <= 0))
		raise(sig);
}

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
	struct sv_h5_guard *g = guard_current;

	/* Only a fault raised by this thread's own code (not a signal sent
	 * from outside) while it is inside HDF5 jumps. */
	if (sig == GUARD_WATCHDOG_SIG) {
		/* Ours alone: a late expiry outside the section is dropped. */
		if (g && si && si->si_code == SI_TIMER) {
			guard_current = NULL;
			atomic_store(&guard_poisoned, true);
			g->sig = sig;
			siglongjmp(g->jb, 1);
		}
		return;
	}
	/* An abort() of the C library (heap corruption) is never jumped
	 * out of: glibc holds its allocator's lock then, and the process
	 * would sleep for ever at the next malloc.  It goes on to the
	 * terminal restorer and ends the process, with the message the C
	 * library printed.  The strings that caused it are checked before
	 * libhdf5 reads them (load_h5_vlen.c). */
	if (g && sig != SIGABRT && guard_own(sig, si)) {
		guard_current = NULL;
		atomic_store(&guard_poisoned, true);
		g->sig = sig;
		siglongjmp(g->jb, 1);
	}
	guard_chain(sig, si, uc);
}

void sv_h5_guard_install(void)
{
	size_t i;

	pthread_mutex_lock(&guard_mu);
	for (i = 0; i < GUARD_NSIG; i++) {
		struct sigaction cur, sa;
		if (sigaction(guard_signals[i], NULL, &cur) != 0)
			continue;
		if ((cur.sa_flags & SA_SIGINFO) &&
			cur.sa_sigaction == guard_handler)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = guard_handler;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
		sigemptyset(&sa.sa_mask);
		guard_prev[i] = cur;
		sigaction(guard_signals[i], &sa, NULL);
	}
	pthread_mutex_unlock(&guard_mu);
}

static void guard_watchdog_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = guard_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(GUARD_WATCHDOG_SIG, &sa, NULL);
}

/* Start this thread's watchdog (SCOPEVIEW_HDF5_WATCHDOG seconds of CPU,
 * 0 = none). */
static void guard_watchdog_start(void)
{
	const char *e = getenv("SCOPEVIEW_HDF5_WATCHDOG");
	struct sigevent sev;

	guard_timer_s =
		e && *e ? strtol(e, NULL, 10) : GUARD_WATCHDOG_DEFAULT_S;
	guard_timer_on = false;
	if (guard_timer_s <= 0)
		return;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = GUARD_WATCHDOG_SIG;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &guard_timer) == 0)
		guard_timer_on = true;
}

/* Give the current step a fresh allowance of CPU time. */
static void guard_watchdog_kick(void)
{
	struct itimerspec its;

	if (!guard_timer_on)
		return;
	memset(&its, 0, sizeof its);
	its.it_value.tv_sec = guard_timer_s;
	timer_settime(guard_timer, 0, &its, NULL);
}

static void guard_watchdog_stop(void)
{
	if (guard_timer_on)
		timer_delete(guard_timer);
	guard_timer_on = false;
}

/* At exit after a guarded crash, libhdf5's own exit handler (registered
 * when the library starts, so it runs after this one) would walk the
 * damaged state and crash or wait forever for the lock the crashed call
 * held.  Skip it and every handler registered before the first load:
 * flush stdio and leave with the status exit() was given. */
#ifdef __GLIBC__
static void guard_at_exit(int status, void *arg)
{
	(void)arg;
	if (atomic_load(&guard_poisoned)) {
		fflush(NULL);
		_exit(status);
	}
}
#else
static void guard_at_exit(void)
{
	if (atomic_load(&guard_poisoned)) {
		fflush(NULL);
		_exit(EXIT_FAILURE);
	}
}
#endif

static void guard_once(void)
{
	/* Start libhdf5 first, so that its exit handler runs after ours. */
	H5open();
	guard_watchdog_install();
#ifdef __GLIBC__
	on_exit(guard_at_exit, NULL);
#else
	atexit(guard_at_exit);
#endif
}

void sv_h5_guard_begin(struct sv_h5_guard *g)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	stack_t cur;

	sigset_t ours;
	size_t i;

	g->stack = NULL;
	g->sig = 0;
	pthread_once(&once, guard_once);
	sv_h5_guard_install();
	/* A thread may block every signal (the viewer's loader thread does,
	 * to leave keys and resizes to the main loop); a fault then kills
	 * the process without calling any handler.  Unblock ours here. */
	sigemptyset(&ours);
	for (i = 0; i < GUARD_NSIG; i++)
		sigaddset(&ours, guard_signals[i]);
	sigaddset(&ours, GUARD_WATCHDOG_SIG);
	pthread_sigmask(SIG_UNBLOCK, &ours, &g->old_mask);
	/* A fault from a stack overflow needs a stack of its own; keep any
	 * alternate stack the thread already has (a sanitizer's). */
	if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
		long min = sysconf(_SC_SIGSTKSZ);
		stack_t ss;
		size_t size = min > 65536 ? (size_t)min : 65536;
		ss.ss_sp = malloc(size);
		ss.ss_size = size;
		ss.ss_flags = 0;
		if (ss.ss_sp && sigaltstack(&ss, NULL) == 0)
			g->stack = ss.ss_sp;
		else
			free(ss.ss_sp);
	}
	guard_object[0] = '\0';
	guard_watchdog_start();
	guard_watchdog_kick();
}

void sv_h5_guard_arm(struct sv_h5_guard *g)
{
	guard_current = g;
}

void sv_h5_guard_disarm(void)
{
	guard_current = NULL;
}

void sv_h5_guard_end(struct sv_h5_guard *g)
{
	guard_current = NULL;
	guard_watchdog_stop();
	pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
	if (g->stack) {
		stack_t off;
		memset(&off, 0, sizeof off);
		off.ss_flags = SS_DISABLE;
		/* After a crash the heap may be damaged too (HDF5 wrote
		 * through pointers from the file): leak the stack rather
		 * than give the allocator a chance to abort. */
		if (sigaltstack(&off, NULL) == 0 && !g->sig)
			free(g->stack);
		g->stack = NULL;
	}
}

/* The message of the load that tripped the guard (the first one). */
static char guard_first_msg[512];

void sv_h5_guard_note(const char *msg)
{
	pthread_mutex_lock(&guard_mu);
	if (!guard_first_msg[0])
		snprintf(guard_first_msg, sizeof guard_first_msg, "%s", msg);
	pthread_mutex_unlock(&guard_mu);
}

const char *sv_h5_guard_first(void)
{
	return guard_first_msg;
}

bool sv_h5_guard_is_watchdog(int sig)
{
	return sig == GUARD_WATCHDOG_SIG;
}

bool sv_h5_guard_tripped(void)
{
	return atomic_load(&guard_poisoned);
}

void sv_h5_at(const char *obj)
{
	size_t n = strlen(obj);
	if (n >= sizeof guard_object)
		n = sizeof guard_object - 1;
	memcpy(guard_object, obj, n);
	guard_object[n] = '\0';
	guard_watchdog_kick();
}

const char *sv_h5_guard_object(void)
{
	return guard_object[0] ? guard_object : "/";
}

/*
 * term_wake.c: how a worker ends the viewer loop's wait for a key (see
 * sv_term_wake in term.h): a pipe, made once and never closed, so a
 * thread may write to it at any time, before the terminal opens or after
 * it closed; the wait polls the terminal's input and the pipe together.
 * No curses here.
 */
#include "scopeview/term.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

static int wake_fd[2] = {-1, -1};
static pthread_once_t wake_once = PTHREAD_ONCE_INIT;

static void wake_init(void)
{
	if (pipe2(wake_fd, O_NONBLOCK | O_CLOEXEC) < 0)
		wake_fd[0] = wake_fd[1] = -1;
}

bool sv_term_wake_ready(void)
{
	pthread_once(&wake_once, wake_init);
	return wake_fd[0] >= 0;
}

void sv_term_wake(void)
{
	ssize_t r;

	if (!sv_term_wake_ready())
		return;
	/* A full pipe already holds a wake-up: nothing is lost. */
	r = write(wake_fd[1], "w", 1);
	(void)r;
}

int sv_term_wait(int in_fd, int timeout_ms)
{
	struct pollfd fds[2] = {{in_fd, POLLIN, 0}, {-1, POLLIN, 0}};
	char buf[64];
	int r;

	fds[1].fd = sv_term_wake_ready() ? wake_fd[0] : -1;
	r = poll(fds, 2, timeout_ms < 0 ? -1 : timeout_ms);
	if (r < 0)
		return errno == EINTR ? -1 : 1;
	if (fds[1].revents & POLLIN)
		while (read(wake_fd[0], buf, sizeof buf) > 0)
			;
	return fds[0].revents ? 1 : 0;
}

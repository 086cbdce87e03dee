/*
 * term_bg.c: is the terminal's background dark or light?  Asks with the
 * xterm OSC 11 query ("ESC ] 11 ; ? ST"), which xterm, VTE terminals,
 * kitty, iTerm2, foot, WezTerm, tmux and others answer with the colour
 * ("ESC ] 11 ; rgb:RRRR/GGGG/BBBB ST"), followed by the primary device
 * attributes query (DA1, "ESC [ c") that every VT100-like terminal
 * answers: replies come in order, so the DA1 reply ends the wait without
 * a timeout on terminals that ignore OSC 11, and no late reply is left to
 * be read as keys.  No curses here: it works on the file descriptors, in
 * the terminal mode curses has set (no echo, no line buffering).
 */
#include "scopeview/term.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One hex colour component of 1 .. 4 digits, scaled to 0 .. 1; -1 when
 * s does not start with one.  *len gets the digits used. */
static double bg_component(const char *s, size_t n, size_t *len)
{
	unsigned long v = 0, max = 0;
	size_t i;

	for (i = 0; i < n && i < 4; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			break;
		v = v * 16 + (unsigned long)d;
		max = max * 16 + 15;
	}
	*len = i;
	return i ? (double)v / (double)max : -1.0;
}

int sv_term_parse_background(const char *s, size_t n)
{
	static const char head[] = "\033]11;rgb:";
	size_t i, hl = sizeof head - 1;

	if (!s)
		return -1;
	for (i = 0; i + hl <= n; i++) {
		double rgb[3];
		size_t at = i + hl, len, k;
		if (memcmp(s + i, head, hl))
			continue;
		for (k = 0; k < 3; k++) {
			rgb[k] = bg_component(s + at, n - at, &len);
			if (rgb[k] < 0)
				break;
			at += len;
			if (k < 2 && (at >= n || s[at++] != '/'))
				break;
		}
		if (k < 3)
			continue;
		/* Relative luminance (sRGB weights, no gamma: enough to
		 * tell white from black and pastel from navy). */
		return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] > 0.5
			       ? SV_THEME_LIGHT
			       : SV_THEME_DARK;
	}
	return -1;
}

/* Where the DA1 reply ("ESC [ ? ... c") ends in s[0..n), or 0. */
static size_t bg_da1_end(const char *s, size_t n)
{
	size_t i, j;

	for (i = 0; i + 2 < n; i++) {
		if (s[i] != '\033' || s[i + 1] != '[' || s[i + 2] != '?')
			continue;
		for (j = i + 3;
			j < n && (s[j] == ';' || (s[j] >= '0' && s[j] <= '9'));
			j++)
			;
		if (j < n && s[j] == 'c')
			return j + 1;
	}
	return 0;
}

static long bg_ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int sv_term_query_background(
	int in_fd, int out_fd, int timeout_ms, char *rest, size_t *nrest)
{
	static const char query[] = "\033]11;?\033\\\033[c";
	char buf[512];
	size_t n = 0, end = 0, i, keep = 0;
	struct timespec t0;
	int theme;

	if (nrest)
		*nrest = 0;
	if (write(out_fd, query, sizeof query - 1) !=
		(ssize_t)(sizeof query - 1))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (n < sizeof buf && !(end = bg_da1_end(buf, n))) {
		struct pollfd p = {in_fd, POLLIN, 0};
		long left = timeout_ms - bg_ms_since(&t0);
		ssize_t got;
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		got = read(in_fd, buf + n, sizeof buf - n);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	theme = sv_term_parse_background(buf, end ? end : n);
	/* What is not a reply (keys typed meanwhile) goes back to the
	 * caller: everything before the first ESC ] 11 or ESC [ ?, and
	 * everything after the DA1 reply. */
	for (i = 0; i < n && rest && nrest; i++) {
		bool reply_start =
			buf[i] == '\033' && i + 2 < n &&
			((buf[i + 1] == ']' && buf[i + 2] == '1') ||
				(buf[i + 1] == '[' && buf[i + 2] == '?'));
		if (reply_start && end) {
			i = end - 1;
			continue;
		}
		if (reply_start)
			break;
		rest[keep++] = buf[i];
	}
	if (nrest)
		*nrest = keep;
	return theme;
}

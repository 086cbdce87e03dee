/*
 * elide.c: names cut at the end or in the middle to fit (elide.h).
 *
 * Works in code points and in the cells sv_grid_text takes for each (an
 * escaped control character takes several).  Nothing here knows about
 * curses or HDF5.
 */
#include "scopeview/elide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"

/* The cells and bytes of the code point at s. */
static int elide_cells(const char *s, size_t *bytes)
{
	char one[8];
	uint32_t cp;
	size_t n;

	/* Printable ASCII, most of any name: one byte, one cell. */
	if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f) {
		*bytes = 1;
		return 1;
	}
	/* A code point takes at most 4 bytes: no need to measure the rest. */
	n = sv_utf8_decode(s, strnlen(s, sizeof one), &cp);

	if (!n)
		n = 1;
	memcpy(one, s, n < sizeof one ? n : sizeof one - 1);
	one[n < sizeof one ? n : sizeof one - 1] = '\0';
	*bytes = n;
	return sv_grid_text_width(one, 64);
}

/* Bytes of the longest start of s that takes at most w cells; *used
 * gets its cells. */
static size_t elide_head(const char *s, int w, int *used)
{
	size_t at = 0, b;
	int cells = 0, c;

	while (s[at] && (c = elide_cells(s + at, &b)) + cells <= w) {
		cells += c;
		at += b;
	}
	*used = cells;
	return at;
}

static int elide_width(const char *s)
{
	int used;
	elide_head(s, 1 << 20, &used);
	return used;
}

size_t sv_elide_common(const char *a, const char *b)
{
	size_t i = 0, last = 0;

	if (!a || !b)
		return 0;
	while (a[i] && a[i] == b[i]) {
		i++;
		if (((unsigned char)a[i] & 0xc0) != 0x80)
			last = i;
	}
	return last;
}

static int elide_order_cmp(const void *a, const void *b)
{
	const struct sv_elide_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

void sv_elide_differs(const char *const *names, size_t n,
	struct sv_elide_entry *order, size_t *differ)
{
	size_t i;

	for (i = 0; i < n; i++) {
		order[i].name = names[i] ? names[i] : "";
		order[i].i = i;
		differ[i] = 0;
	}
	/* The longest start a name shares with any other is the one it
	 * shares with a neighbour in byte order (strcmp's), and
	 * sv_elide_common only grows with the bytes shared. */
	qsort(order, n, sizeof *order, elide_order_cmp);
	for (i = 1; i < n; i++) {
		size_t a = order[i - 1].i, b = order[i].i,
		       k = sv_elide_common(order[i - 1].name, order[i].name);
		if (k > differ[a])
			differ[a] = k;
		if (k > differ[b])
			differ[b] = k;
	}
}

/* Where the tail kept starts: back from differ to the word's start (after
 * a space), or to the part's start (after = : , / . ( [), or differ. */
static size_t elide_tail_start(const char *name, size_t differ, int room)
{
	static const char *const seps[] = {" ", "=:,/.([", ""};
	size_t i;

	for (i = 0; i < sizeof seps / sizeof seps[0]; i++) {
		size_t at = differ;
		while (*seps[i] && at > 0 && !strchr(seps[i], name[at - 1]))
			at--;
		if (!*seps[i] || at == 0)
			at = differ;
		if (elide_width(name + at) <= room)
			return at;
	}
	return differ;
}

int sv_elide(const char *name, size_t differ, int width, const char *ellipsis,
	char *out, size_t n)
{
	size_t len = name ? strlen(name) : 0, head, tail;
	int total, used, tail_w, head_min;

	if (!n)
		return 0;
	out[0] = '\0';
	if (!name || width < 1)
		return 0;
	total = elide_width(name);
	if (total <= width) {
		snprintf(out, n, "%s", name);
		return total;
	}
	if (differ > len)
		differ = len;
	/* Cut at the end while the cell where the name differs shows. */
	head = elide_head(name, width - 1, &used);
	if (differ < head || width < 8) {
		snprintf(out, n, "%.*s%s", (int)head, name, ellipsis);
		return used + 1;
	}
	/* In the middle: a head of a third at least, the ellipsis, the end
	 * from the word where the name differs. */
	head_min = width / 3;
	tail = elide_tail_start(name, differ, width - 1 - head_min);
	tail_w = elide_width(name + tail);
	if (tail_w > width - 1 - head_min) {
		/* The end from there is too long: a window from that word,
		 * cut at its end too. */
		size_t seg, word = differ;
		while (word > 0 && name[word - 1] != ' ')
			word--;
		if (elide_width(name + word) - elide_width(name + differ) <
			width - 3 - head_min)
			tail = word;
		seg = elide_head(name + tail, width - 2 - head_min, &tail_w);
		head = elide_head(name, head_min, &used);
		snprintf(out, n, "%.*s%s%.*s%s", (int)head, name, ellipsis,
			(int)seg, name + tail, ellipsis);
		return used + 2 + tail_w;
	}
	head = elide_head(name, width - 1 - tail_w, &used);
	snprintf(out, n, "%.*s%s%s", (int)head, name, ellipsis, name + tail);
	return used + 1 + tail_w;
}

const char *sv_elide_skip(const char *name, int skip)
{
	int used;
	if (!name)
		return "";
	return name + elide_head(name, skip, &used);
}

void sv_elide_drop(char *s, const char *part, int width)
{
	char *at;
	size_t n = strlen(part);
	if (!n || sv_grid_text_width(s, width + 1) <= width ||
		!(at = strstr(s, part)))
		return;
	memmove(at, at + n, strlen(at + n) + 1);
}

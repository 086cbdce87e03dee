/*
 * lineedit.c: the prompts' line editor and histories (lineedit.h).
 *
 * Byte offsets in a UTF-8 buffer: a move steps over continuation bytes
 * (10xxxxxx), so the cursor never stands inside a code point.  Nothing
 * here knows about curses, keys or HDF5.
 */
#include "scopeview/lineedit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

static bool lineedit_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* Remove bytes [from, e->cur) and put the cursor at from. */
static void lineedit_cut(struct sv_lineedit *e, size_t from)
{
	memmove(e->buf + from, e->buf + e->cur, e->len - e->cur + 1);
	e->len -= e->cur - from;
	e->cur = from;
}

void sv_lineedit_set(struct sv_lineedit *e, const char *text, bool fresh)
{
	snprintf(e->buf, sizeof e->buf, "%s", text ? text : "");
	e->len = strlen(e->buf);
	if (text && strlen(text) > e->len) {
		/* Cut: drop a last code point snprintf cut in two. */
		size_t at = e->len, want;
		unsigned char lead;
		while (at && lineedit_cont(e->buf[at - 1]))
			at--;
		lead = at ? (unsigned char)e->buf[at - 1] : 0;
		want = lead >= 0xf0   ? 4
		       : lead >= 0xe0 ? 3
		       : lead >= 0xc0 ? 2
				      : 1;
		if (at && e->len - (at - 1) < want)
			e->len = at - 1;
		e->buf[e->len] = '\0';
	}
	e->cur = e->len;
	e->fresh = fresh && e->len;
	e->hpos = -1;
	e->typed[0] = '\0';
}

int sv_lineedit_insert(struct sv_lineedit *e, const char *text)
{
	size_t n = strlen(text);

	if (e->fresh) {
		e->len = e->cur = 0;
		e->buf[0] = '\0';
		e->fresh = false;
	}
	if (e->len + n >= sizeof e->buf)
		return -ENOSPC;
	memmove(e->buf + e->cur + n, e->buf + e->cur, e->len - e->cur + 1);
	memcpy(e->buf + e->cur, text, n);
	e->len += n;
	e->cur += n;
	return 0;
}

int sv_lineedit_replace(struct sv_lineedit *e, size_t start, const char *text)
{
	size_t n = strlen(text);

	if (start > e->cur)
		return -EINVAL;
	if (e->len - (e->cur - start) + n >= sizeof e->buf)
		return -ENOSPC;
	e->fresh = false;
	lineedit_cut(e, start);
	return sv_lineedit_insert(e, text);
}

bool sv_lineedit_move(struct sv_lineedit *e, int dir)
{
	e->fresh = false;
	if (dir < 0) {
		if (!e->cur)
			return false;
		do
			e->cur--;
		while (e->cur && lineedit_cont(e->buf[e->cur]));
		return true;
	}
	if (e->cur == e->len)
		return false;
	do
		e->cur++;
	while (e->cur < e->len && lineedit_cont(e->buf[e->cur]));
	return true;
}

void sv_lineedit_home(struct sv_lineedit *e)
{
	e->fresh = false;
	e->cur = 0;
}

void sv_lineedit_end(struct sv_lineedit *e)
{
	e->fresh = false;
	e->cur = e->len;
}

bool sv_lineedit_backspace(struct sv_lineedit *e)
{
	size_t at = e->cur;

	e->fresh = false;
	if (!at)
		return false;
	do
		at--;
	while (at && lineedit_cont(e->buf[at]));
	lineedit_cut(e, at);
	return true;
}

void sv_lineedit_delete_word(struct sv_lineedit *e)
{
	size_t at = e->cur;

	e->fresh = false;
	while (at && e->buf[at - 1] == ' ')
		at--;
	while (at && e->buf[at - 1] != ' ')
		at--;
	lineedit_cut(e, at);
}

void sv_lineedit_delete_to_start(struct sv_lineedit *e)
{
	e->fresh = false;
	lineedit_cut(e, 0);
}

void sv_lineedit_history_add(struct sv_lineedit_history *h, const char *line)
{
	if (!line || !*line || (h->n && !strcmp(h->lines[h->n - 1], line)))
		return;
	if (h->n == SV_LINEEDIT_HISTORY) {
		free(h->lines[0]);
		memmove(h->lines, h->lines + 1,
			(SV_LINEEDIT_HISTORY - 1) * sizeof h->lines[0]);
		h->n--;
	}
	h->lines[h->n++] = sv_xstrdup(line);
}

bool sv_lineedit_history_step(
	struct sv_lineedit *e, const struct sv_lineedit_history *h, int dir)
{
	long pos = e->hpos < 0 ? (long)h->n : e->hpos;
	char typed[SV_LINEEDIT_MAX];

	pos += dir < 0 ? -1 : 1;
	if (pos < 0 || pos > (long)h->n || (e->hpos < 0 && dir > 0))
		return false;
	if (e->hpos < 0)
		snprintf(e->typed, sizeof e->typed, "%s", e->buf);
	snprintf(typed, sizeof typed, "%s", e->typed);
	sv_lineedit_set(e, pos == (long)h->n ? typed : h->lines[pos], false);
	snprintf(e->typed, sizeof e->typed, "%s", typed);
	e->hpos = pos == (long)h->n ? -1 : pos;
	return true;
}

void sv_lineedit_history_fini(struct sv_lineedit_history *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->n; i++)
		free(h->lines[i]);
	h->n = 0;
}

/*
 * mode_prompt.c: the prompts (search, filter, ranks, commands) as a mode.
 *
 * A prompt is pushed over the main mode by sv_view_push_prompt() (view.h)
 * and draws the status row: what it asks, the text typed with a cursor
 * block, and what it takes on the right while there is room.  Its keys
 * are the SV_SCOPE_PROMPT rows of the action table (editing is
 * lineedit.c's, the history the viewer's); every other key that is text
 * is typed at the cursor.  Tab completes the word before the cursor from
 * the viewer's candidates (sv_view_complete): the only one, else their
 * common start, else each in turn, listed on the row above the prompt.
 * Enter hands the text to the viewer (SV_REACT_COMMIT), which gives it
 * to the main mode.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/elide.h"
#include "scopeview/keys.h"
#include "scopeview/lineedit.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

struct prompt_data {
	struct sv_lineedit e;
	/* Tab's candidates for the word from cand_start, and the one put in
	 * the line (-1: none yet); dropped when the line changes other than
	 * by Tab (cand_line: the line Tab left). */
	struct sv_strv cand;
	long cand_at;
	size_t cand_start;
	char cand_line[SV_LINEEDIT_MAX];
};

static void prompt_drop_candidates(struct prompt_data *d)
{
	sv_strv_fini(&d->cand);
	d->cand_at = -1;
}

static void prompt_fini(struct sv_mode *m)
{
	prompt_drop_candidates(m->data);
}

/* The bytes that a and b start with alike, whole code points. */
static size_t prompt_common(const char *a, const char *b)
{
	size_t n = 0, cp = 0;
	while (a[n] && a[n] == b[n]) {
		n++;
		if (((unsigned char)a[n] & 0xC0) != 0x80)
			cp = n;
	}
	return cp;
}

/* Put candidate i in the line in place of the word being completed; a
 * last candidate that is not a directory gets a space after it. */
static bool prompt_take(struct prompt_data *d, long i, bool only)
{
	const char *c = d->cand.v[i];
	char *w = sv_xasprintf(
		"%s%s", c, only && c[0] && c[strlen(c) - 1] != '/' ? " " : "");
	bool ok = sv_lineedit_replace(&d->e, d->cand_start, w) == 0;
	free(w);
	return ok;
}

/* Tab (dir 1) and Shift-Tab (-1). */
static int prompt_complete(struct sv_mode *m, int dir)
{
	struct prompt_data *d = m->data;
	size_t start, common, i;
	char *lcp;

	/* Tab again on what Tab left: the next candidate. */
	if (d->cand.n > 1 && !strcmp(d->cand_line, d->e.buf)) {
		long n = (long)d->cand.n;
		d->cand_at = d->cand_at < 0 ? (dir > 0 ? 0 : n - 1)
					    : (d->cand_at + dir + n) % n;
		if (!prompt_take(d, d->cand_at, false))
			return SV_REACT_REDRAW | SV_REACT_BELL;
		snprintf(d->cand_line, sizeof d->cand_line, "%s", d->e.buf);
		return SV_REACT_REDRAW;
	}
	prompt_drop_candidates(d);
	if (!sv_view_complete(
		    m->view, m->kind, d->e.buf, d->e.cur, &start, &d->cand))
		return SV_REACT_REDRAW | SV_REACT_BELL;
	d->cand_start = start;
	d->e.fresh = false;
	if (d->cand.n == 1) {
		bool ok = prompt_take(d, 0, true);
		prompt_drop_candidates(d);
		return ok ? SV_REACT_REDRAW : SV_REACT_REDRAW | SV_REACT_BELL;
	}
	/* Several: as far as they agree; then each in turn. */
	common = strlen(d->cand.v[0]);
	for (i = 1; i < d->cand.n; i++) {
		size_t c = prompt_common(d->cand.v[0], d->cand.v[i]);
		if (c < common)
			common = c;
	}
	snprintf(d->cand_line, sizeof d->cand_line, "%s", d->e.buf);
	if (common <= d->e.cur - start) /* nothing to add: each in turn */
		return prompt_complete(m, dir);
	lcp = sv_xasprintf("%.*s", (int)common, d->cand.v[0]);
	sv_lineedit_replace(&d->e, start, lcp);
	free(lcp);
	snprintf(d->cand_line, sizeof d->cand_line, "%s", d->e.buf);
	return SV_REACT_REDRAW;
}

void sv_mode_prompt_setup(struct sv_mode *m, const char *initial)
{
	struct prompt_data *d = m->data;
	sv_lineedit_set(&d->e, initial, true);
	d->cand_at = -1;
}

const char *sv_mode_prompt_text(const struct sv_mode *m)
{
	const struct prompt_data *d = m->data;
	return d->e.buf;
}

size_t sv_mode_prompt_cursor(const struct sv_mode *m)
{
	const struct prompt_data *d = m->data;
	return d->e.cur;
}

static int prompt_apply(struct sv_mode *m, int a)
{
	struct prompt_data *d = m->data;
	struct sv_lineedit_history *h = &m->view->history[m->kind];
	bool moved;

	if (a == SV_ACTION_PROMPT_COMPLETE ||
		a == SV_ACTION_PROMPT_COMPLETE_PREV)
		return prompt_complete(
			m, a == SV_ACTION_PROMPT_COMPLETE ? 1 : -1);
	switch (a) {
	case SV_ACTION_PROMPT_ENTER:
		sv_lineedit_history_add(h, d->e.buf);
		return SV_REACT_COMMIT;
	case SV_ACTION_PROMPT_CANCEL:
		return SV_REACT_POP | SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_BACKSPACE:
		if (!d->e.len)
			return SV_REACT_POP | SV_REACT_REDRAW;
		moved = sv_lineedit_backspace(&d->e);
		break;
	case SV_ACTION_PROMPT_CLEAR:
		sv_lineedit_delete_to_start(&d->e);
		return SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_DELETE_WORD:
		sv_lineedit_delete_word(&d->e);
		return SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_LEFT:
	case SV_ACTION_PROMPT_RIGHT:
		moved = sv_lineedit_move(
			&d->e, a == SV_ACTION_PROMPT_LEFT ? -1 : 1);
		break;
	case SV_ACTION_PROMPT_HOME:
		sv_lineedit_home(&d->e);
		return SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_END:
		sv_lineedit_end(&d->e);
		return SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_HISTORY_PREV:
	case SV_ACTION_PROMPT_HISTORY_NEXT:
		moved = sv_lineedit_history_step(
			&d->e, h, a == SV_ACTION_PROMPT_HISTORY_PREV ? -1 : 1);
		break;
	default:
		return SV_REACT_BELL;
	}
	return moved ? SV_REACT_REDRAW : SV_REACT_REDRAW | SV_REACT_BELL;
}

/* Text is typed at the cursor; a mouse event goes to the view below. */
static int prompt_key(struct sv_mode *m, int key)
{
	struct prompt_data *d = m->data;
	char enc[5];
	size_t n;

	if (sv_key_is_mouse(key))
		return -1;
	if (!sv_key_is_text(key))
		return SV_REACT_BELL;
	n = sv_utf8_encode((uint32_t)key, enc);
	enc[n] = '\0';
	if (sv_lineedit_insert(&d->e, enc) < 0)
		return SV_REACT_BELL;
	return SV_REACT_REDRAW;
}

/* The line from x to w - 1 with its cursor: the text before the cursor
 * (its start left out while it does not fit), the cursor cell over the
 * character under it (a bar at the end), then the rest.  A pre-filled
 * line that typing replaces is drawn selected. */
static int prompt_line(const struct sv_lineedit *e, struct sv_grid *g, int x,
	int y, int w, uint32_t bar)
{
	char head[SV_LINEEDIT_MAX];
	const char *h = head;
	int style = e->fresh ? SV_STYLE_SELECTED : SV_STYLE_PROMPT;
	uint32_t cp = bar;
	size_t n = 0;

	snprintf(head, sizeof head, "%.*s", (int)e->cur, e->buf);
	while (*h && sv_grid_text_width(h, w) > w - x - 2)
		h += sv_utf8_decode(h, strlen(h), &cp);
	cp = bar;
	x += sv_grid_text(g, x, y, w - x - 1, h, style, 0, 0);
	if (e->cur < e->len) {
		n = sv_utf8_decode(e->buf + e->cur, e->len - e->cur, &cp);
		if (cp < 0x20 || sv_utf8_width(cp) != 1)
			cp = bar;
	}
	sv_grid_put(g, x, y, cp, SV_STYLE_CURSOR, 0);
	x++;
	if (e->cur < e->len)
		x += sv_grid_text(g, x, y, w - x - 1, e->buf + e->cur + n,
			style, 0, 0x2026);
	return x;
}

/* Rows Tab's candidates take at most, above the prompt. */
#define PROMPT_CAND_ROWS 5
/* Cells a candidate takes at most (a longer one is cut in the middle
 * where it differs from the others, elide.h). */
#define PROMPT_CAND_MAXW 120

/* Cells candidate i takes in the list w cells wide, its gap included. */
static int prompt_cand_w(const struct prompt_data *d, size_t i, int w)
{
	int cw = sv_grid_text_width(d->cand.v[i], PROMPT_CAND_MAXW);
	if (cw > w - 4)
		cw = w - 4;
	return (cw < 1 ? 1 : cw) + 2;
}

/* The last row (from 0) of Tab's candidates packed in rows lim cells
 * wide, and in *cur_row the row of the one in the line. */
static long prompt_cand_rows(
	const struct prompt_data *d, int lim, long *cur_row)
{
	long row = 0;
	int x = 1;
	size_t i;

	for (i = 0; i < d->cand.n; i++) {
		int cw = prompt_cand_w(d, i, lim + 1);
		if (x + cw > lim && x > 1) {
			row++;
			x = 1;
		}
		if ((long)i == d->cand_at)
			*cur_row = row;
		x += cw;
	}
	return row;
}

/* Tab's candidates packed on up to PROMPT_CAND_ROWS rows ending at row
 * y, the one in the line highlighted: the rows' page that holds it,
 * with how many more there are; a long name is cut where it differs
 * from the others, so the ones on screen stay apart. */
static void prompt_draw_candidates(
	const struct prompt_data *d, struct sv_grid *g, int y, int w)
{
	size_t n = d->cand.n, i, first = n, last = 0, *differ;
	struct sv_elide_entry *order;
	long row, cur_row = 0, page, nrows;
	int x = 1, top, lim = w - 1;
	char buf[4 * PROMPT_CAND_MAXW + 8], more[96];

	if (y < 0 || w < 8 || !n)
		return;
	/* Rows of the whole list, and the row of the one in the line; a
	 * list longer than the rows keeps room on the right for its count. */
	row = prompt_cand_rows(d, w - 1, &cur_row);
	if (row >= PROMPT_CAND_ROWS) {
		lim = w - 1 - 26 > w / 2 ? w - 1 - 26 : w - 1;
		row = prompt_cand_rows(d, lim, &cur_row);
	}
	page = cur_row / PROMPT_CAND_ROWS;
	nrows = row + 1 - page * PROMPT_CAND_ROWS;
	if (nrows > PROMPT_CAND_ROWS)
		nrows = PROMPT_CAND_ROWS;
	if (nrows > y)
		nrows = y > 0 ? y : 1;
	top = y - (int)nrows + 1;
	differ = sv_xmalloc(n * sizeof *differ);
	order = sv_xmalloc(n * sizeof *order);
	sv_elide_differs((const char *const *)d->cand.v, n, order, differ);
	sv_grid_fill(g, 0, top, w, y + 1, ' ', SV_STYLE_PROMPT, 0);
	row = 0;
	x = 1;
	for (i = 0; i < n; i++) {
		int cw = prompt_cand_w(d, i, lim + 1);
		long r;
		if (x + cw > lim && x > 1) {
			row++;
			x = 1;
		}
		r = row - page * PROMPT_CAND_ROWS;
		if (r >= nrows)
			break;
		if (r >= 0) {
			sv_elide(d->cand.v[i], differ[i], cw - 2,
				"\xe2\x80\xa6", buf, sizeof buf);
			sv_grid_text(g, x, top + (int)r, cw - 2, buf,
				(long)i == d->cand_at ? SV_STYLE_SELECTED
						      : SV_STYLE_PROMPT,
				0, 0);
			if (i < first)
				first = i;
			last = i;
		}
		x += cw;
	}
	free(order);
	free(differ);
	if (first == 0 && last + 1 == n)
		return;
	/* Not all on screen: which of them are, right-aligned. */
	snprintf(more, sizeof more, " %zu-%zu of %zu, Tab: next ", first + 1,
		last + 1, n);
	sv_grid_text(g, w - sv_grid_text_width(more, w), top, w, more,
		SV_STYLE_DIM, 0, 0);
}

static void prompt_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct prompt_data *d = m->data;
	const struct sv_glyphs *gl = sv_render_glyphs(m->s->opts.ascii);
	int y = r.y + r.h - 1, w = r.w, x, i;
	static const char *const prompts[] = {
		[SV_PROMPT_SEARCH] = "search /",
		[SV_PROMPT_FILTER] = "filter (regex, !regex excludes): ",
		[SV_PROMPT_RANKS] = "ranks (e.g. 0,2-5; empty = all): ",
		[SV_PROMPT_COMMAND] = ":",
	};
	/* What the prompt takes, right-aligned while there is room: the
	 * longest hint that fits. */
	static const char *const hints[][2] = {
		[SV_PROMPT_SEARCH] = {"regex over region names  Tab completes  "
				      "Enter search  Esc cancel",
			"Enter  Esc"},
		[SV_PROMPT_FILTER] = {"Enter apply  empty clears  Esc cancel",
			"Enter  Esc"},
		[SV_PROMPT_RANKS] = {"Enter apply  Esc cancel", "Enter  Esc"},
		[SV_PROMPT_COMMAND] = {"Tab completes  goto 12.5ms  zoom 1ms  "
				       "rank 0,2-5  region NAME  sort KEY  Esc "
				       "cancel",
			"Tab completes  goto T  region NAME  Esc"},
	};

	if (d->cand.n > 1 && !strcmp(d->cand_line, d->e.buf))
		prompt_draw_candidates(d, g, y - 1, w);
	sv_grid_fill(g, 0, y, w, y + 1, ' ', SV_STYLE_PROMPT, 0);
	x = sv_grid_text(g, 0, y, w, prompts[m->kind], SV_STYLE_PROMPT, 0, 0);
	x = prompt_line(&d->e, g, x, y, w, gl->bar);
	for (i = 0; i < 2; i++) {
		const char *h = hints[m->kind][i];
		int hw = h ? (int)strlen(h) : 0;
		if (hw && w - hw - 1 > x + 3) {
			sv_grid_text(
				g, w - hw - 1, y, hw, h, SV_STYLE_DIM, 0, 0);
			break;
		}
	}
}

const struct sv_mode_ops sv_mode_prompt = {
	.name = "prompt",
	.title = "Prompt",
	.main = false,
	.scopes = {SV_SCOPE_PROMPT, 0},
	.size = sizeof(struct prompt_data),
	.fini = prompt_fini,
	.apply = prompt_apply,
	.key = prompt_key,
	.draw = prompt_draw,
};

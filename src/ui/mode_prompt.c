/*
 * mode_prompt.c: the prompts (search, filter, ranks, commands) as a mode.
 *
 * A prompt is pushed over the main mode by sv_view_push_prompt() (view.h)
 * and draws the status row: what it asks, the text typed with a cursor
 * block, and what it takes on the right while there is room.  Its keys
 * are the SV_SCOPE_PROMPT rows of the action table (editing is
 * lineedit.c's, the history the viewer's); every other key that is text
 * is typed at the cursor.  Enter hands the text to the viewer (SV_REACT_COMMIT),
 * which gives it to the main mode.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/lineedit.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

struct prompt_data {
	struct sv_lineedit e;
};

void sv_mode_prompt_setup(struct sv_mode *m, const char *initial)
{
	struct prompt_data *d = m->data;
	sv_lineedit_set(&d->e, initial, true);
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
		[SV_PROMPT_SEARCH] = {"regex over region names  Enter search  "
				      "Esc cancel",
			"Enter  Esc"},
		[SV_PROMPT_FILTER] = {"Enter apply  empty clears  Esc cancel",
			"Enter  Esc"},
		[SV_PROMPT_RANKS] = {"Enter apply  Esc cancel", "Enter  Esc"},
		[SV_PROMPT_COMMAND] = {"goto 12.5ms  zoom 1ms  rank 0,2-5  "
				       "region NAME  sort KEY  search RE  Esc "
				       "cancel",
			"goto T  rank N  region NAME  Esc"},
	};

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
	.apply = prompt_apply,
	.key = prompt_key,
	.draw = prompt_draw,
};

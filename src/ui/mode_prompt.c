/*
 * mode_prompt.c: the prompts (search, filter, ranks, commands) as a mode.
 *
 * A prompt is pushed over the main mode by sv_view_push_prompt() (view.h)
 * and draws the status row: what it asks, the text typed with a cursor
 * block, and what it takes on the right while there is room.  Its keys
 * are the SV_SCOPE_PROMPT rows of the action table; every other key that
 * is text is typed.  Enter hands the text to the viewer (SV_REACT_COMMIT),
 * which gives it to the main mode.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

struct prompt_data {
	char buf[SV_VIEW_PROMPT_MAX];
	size_t len;
};

void sv_mode_prompt_setup(struct sv_mode *m, const char *initial)
{
	struct prompt_data *d = m->data;
	snprintf(d->buf, sizeof d->buf, "%s", initial ? initial : "");
	d->len = strlen(d->buf);
}

const char *sv_mode_prompt_text(const struct sv_mode *m)
{
	const struct prompt_data *d = m->data;
	return d->buf;
}

static int prompt_apply(struct sv_mode *m, int a)
{
	struct prompt_data *d = m->data;

	switch (a) {
	case SV_ACTION_PROMPT_ENTER:
		return SV_REACT_COMMIT;
	case SV_ACTION_PROMPT_CANCEL:
		return SV_REACT_POP | SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_BACKSPACE:
		if (!d->len)
			return SV_REACT_POP | SV_REACT_REDRAW;
		/* Drop one UTF-8 code point. */
		do
			d->len--;
		while (d->len &&
			((unsigned char)d->buf[d->len] & 0xc0) == 0x80);
		d->buf[d->len] = '\0';
		return SV_REACT_REDRAW;
	case SV_ACTION_PROMPT_CLEAR:
		d->len = 0;
		d->buf[0] = '\0';
		return SV_REACT_REDRAW;
	default:
		return SV_REACT_BELL;
	}
}

/* Text is typed; a mouse event goes to the view below. */
static int prompt_key(struct sv_mode *m, int key)
{
	struct prompt_data *d = m->data;
	char enc[4];
	size_t n;

	if (sv_key_is_mouse(key))
		return -1;
	if (!sv_key_is_text(key))
		return SV_REACT_BELL;
	n = sv_utf8_encode((uint32_t)key, enc);
	if (d->len + n >= SV_VIEW_PROMPT_MAX)
		return SV_REACT_BELL;
	memcpy(d->buf + d->len, enc, n);
	d->len += n;
	d->buf[d->len] = '\0';
	return SV_REACT_REDRAW;
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
	x += sv_grid_text(g, x, y, w - x - 1, d->buf, SV_STYLE_PROMPT, 0, 0);
	sv_grid_put(g, x, y, gl->bar, SV_STYLE_CURSOR, 0);
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

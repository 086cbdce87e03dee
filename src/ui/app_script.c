/*
 * app_script.c: the key-script backend (app.h): keys from a list, a
 * fixed size, and counts of what was drawn and rung, for snapshot and
 * the tests to drive the real loop without a terminal.
 */
#include "scopeview/app.h"

#include <string.h>

#include <unistd.h>

#include "scopeview/keys.h"

static void script_size(void *ctx, int *w, int *h)
{
	struct sv_script *s = ctx;
	*w = s->w;
	*h = s->h;
}

static int script_getkey(void *ctx, int timeout_ms)
{
	struct sv_script *s = ctx;
	int key;

	if (timeout_ms >= 0 && !s->keys_during_load) {
		/* Let a running load finish before the script goes on. */
		usleep((useconds_t)timeout_ms * 1000u);
		return SV_KEY_NONE;
	}
	if (s->pos >= s->nkeys)
		return SV_KEY_EOF;
	key = s->keys[s->pos++];
	if (key == SV_KEY_RESIZE && s->pos + 2 <= s->nkeys) {
		s->w = s->keys[s->pos++];
		s->h = s->keys[s->pos++];
	}
	return key;
}

static void script_present(void *ctx, const struct sv_grid *g)
{
	struct sv_script *s = ctx;
	(void)g;
	s->presents++;
}

static void script_beep(void *ctx)
{
	struct sv_script *s = ctx;
	s->beeps++;
}

void sv_script_backend(struct sv_backend *b, struct sv_script *s)
{
	memset(b, 0, sizeof *b);
	b->size = script_size;
	b->getkey = script_getkey;
	b->present = script_present;
	b->beep = script_beep;
	b->ctx = s;
}

/*
 * session_colors.c: the session's colour map (session.h): every region's
 * colour in the profile on show and in the second run (palette.h; a
 * region of the second run takes the first run's colour of the same
 * name), and the mode the timeline colours calls in.  The maps are made
 * with their profile (on a worker or the loader's thread: they read only
 * the profile) and never change until it does; the mode changes only
 * through sv_session_set_color_mode.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <stdlib.h>
#include <string.h>

struct sv_session_colors {
	struct sv_palette_map map;  /* the profile's regions */
	struct sv_palette_map map2; /* the second run's, or empty */
	int mode;                   /* enum sv_palette_mode */
};

struct sv_session_colors *sv_session_colors_new(void)
{
	struct sv_session_colors *c = sv_xcalloc(1, sizeof *c);
	c->mode = SV_PALETTE_MODE_REGION;
	return c;
}

void sv_session_colors_free(struct sv_session_colors *c)
{
	if (!c)
		return;
	sv_palette_map_fini(&c->map);
	sv_palette_map_fini(&c->map2);
	free(c);
}

/* Take m over into *to (m zeroed, so that its owner's fini frees
 * nothing), or make it of p when m is NULL. */
static void colors_take(struct sv_palette_map *to, struct sv_palette_map *m,
	const struct sv_profile *p)
{
	sv_palette_map_fini(to);
	if (m) {
		*to = *m;
		memset(m, 0, sizeof *m);
	} else {
		sv_palette_map_build(to, p, NULL);
	}
}

void sv_session_colors_make(struct sv_session *s, struct sv_palette_map *m)
{
	colors_take(&s->colors->map, m, s->p);
}

void sv_session_colors_second(
	struct sv_session *s, struct sv_palette_map *m, const long *region1)
{
	struct sv_session_colors *c = s->colors;
	uint32_t r;

	colors_take(&c->map2, m, s->p2);
	for (r = 0; r < s->p2->nregions; r++) {
		long a = region1[r];
		if (a >= 0 && r < c->map2.n && (size_t)a < c->map.n) {
			c->map2.color[r] = c->map.color[a];
			c->map2.alt[r] = c->map.alt[a];
		}
	}
}

void sv_session_colors_second_drop(struct sv_session *s)
{
	if (s->colors) /* NULL: a session finished before */
		sv_palette_map_fini(&s->colors->map2);
}

int sv_session_call_color(const struct sv_session *s, uint32_t c)
{
	return sv_palette_call(&s->colors->map, s->p, c, s->colors->mode);
}

int sv_session_region_color(const struct sv_session *s, uint32_t r)
{
	return sv_palette_region(&s->colors->map, s->p, r);
}

int sv_session_call2_color(const struct sv_session *s, uint32_t c)
{
	return sv_palette_call(&s->colors->map2, s->p2, c, s->colors->mode);
}

int sv_session_region2_color(const struct sv_session *s, uint32_t r)
{
	return sv_palette_region(&s->colors->map2, s->p2, r);
}

int sv_session_color_mode(const struct sv_session *s)
{
	return s->colors->mode;
}

uint64_t sv_session_color_key(const struct sv_session *s, unsigned run)
{
	const struct sv_session_colors *c = s->colors;

	return (run ? c->map2.serial : c->map.serial) * SV_PALETTE_MODE_COUNT +
	       (uint64_t)c->mode + 1;
}

void sv_session_set_color_mode(struct sv_session *s, int mode)
{
	s->colors->mode = mode >= 0 && mode < SV_PALETTE_MODE_COUNT
				  ? mode
				  : SV_PALETTE_MODE_REGION;
	sv_session_message(
		s, false, "colours %s", sv_palette_mode_help(s->colors->mode));
}

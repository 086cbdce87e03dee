/*
 * fuzz_keys.c: libFuzzer harness for the viewer: key sequences at random
 * terminal sizes over generated profiles.
 *
 * The input's first bytes choose a profile (ranks, threads, tasks, calls,
 * seed: generated once each and kept) and a terminal size from 1x1 to
 * 400x200; every further byte is a key: any action's default key, a
 * printable character, a named key, a mouse click, drag or wheel at a
 * place from the input, or a resize.  The keys are handled and the
 * screen drawn as `scopeview snapshot` does, so a crash, a hang or a
 * sanitizer report anywhere in the views, the session or the layout is
 * found without a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"

#define FUZZ_PROFILES 8
#define FUZZ_MAX_KEYS 256

static struct sv_profile *fuzz_cache[FUZZ_PROFILES];

static const struct sv_profile *fuzz_profile(uint8_t k)
{
	unsigned i = k % FUZZ_PROFILES;
	char path[512], name[32];
	struct sv_error e = {0};

	if (fuzz_cache[i])
		return fuzz_cache[i];
	snprintf(name, sizeof name, "keys%u.h5", i);
	fuzz_path(path, sizeof path, name);
	/* Small and large, flat and deep: one rank, many lanes, tasks. */
	fuzz_gen(path, 1 + i % 4, 1 + (i / 2) % 3, i % 3, 50 + 700 * i, i + 1);
	if (sv_load(path, NULL, &fuzz_cache[i], &e) != 0) {
		fprintf(stderr, "fuzz: %s\n", e.msg);
		abort();
	}
	return fuzz_cache[i];
}

static const char *const fuzz_named[] = {
	"Enter",
	"Escape",
	"Tab",
	"BTab",
	"Space",
	"BSpace",
	"Up",
	"Down",
	"Left",
	"Right",
	"PageUp",
	"PageDown",
	"Home",
	"End",
	"Insert",
	"Delete",
	"F1",
	"F5",
	"C-@",
	"C-a",
	"C-l",
	"C-c",
};

static int fuzz_key(struct fuzz_in *in)
{
	uint8_t b = fuzz_u8(in);
	int key = 0;
	struct sv_error e = {0};

	if (b < 0x7f && b >= 0x20)
		return b == 'q' ? 'j' : b; /* printable: most actions' keys;
					     not quit, which ends the run */
	if (b < sizeof fuzz_named / sizeof fuzz_named[0]) {
		if (sv_key_parse(fuzz_named[b], &key, &e) != 0)
			abort();
		return key;
	}
	switch (b % 6) {
	case 0:
		return sv_key_mouse(
			SV_MOUSE_CLICK, fuzz_u8(in) % 64, fuzz_u8(in) % 64);
	case 1:
		return sv_key_mouse(
			SV_MOUSE_DRAG, fuzz_u8(in) % 64, fuzz_u8(in) % 64);
	case 2:
		return sv_key_mouse(
			SV_MOUSE_RELEASE, fuzz_u8(in) % 64, fuzz_u8(in) % 64);
	case 3:
		return sv_key_mouse(
			b & 8 ? SV_MOUSE_WHEEL_UP : SV_MOUSE_WHEEL_DOWN,
			fuzz_u8(in) % 64, fuzz_u8(in) % 64);
	case 4:
		return SV_KEY_RESIZE;
	default:
		return 0x80 + b; /* text beyond ASCII, for prompts */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	const struct sv_profile *p = fuzz_profile(fuzz_u8(&in));
	int w = 1 + (int)(fuzz_u32(&in) % 400),
	    h = 1 + (int)(fuzz_u8(&in) % 200);
	int keys[FUZZ_MAX_KEYS];
	size_t n = 0;

	while (in.n && n < FUZZ_MAX_KEYS)
		keys[n++] = fuzz_key(&in);
	fuzz_exercise(p, w, h, keys, n);
	return 0;
}

/*
 * keys.c: key codes and tmux send-keys names (keys.h).  A key script is
 * parsed here for snapshot and tests; the curses backend folds raw bytes
 * with sv_key_from_byte().  Nothing here knows about curses.
 */
#include "scopeview/keys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Named keys and their tmux names; the first name of a code is the one
 * sv_key_name() prints. */
static const struct {
	const char *name;
	int key;
} keys_named[] = {
	{"Enter", SV_KEY_ENTER},
	{"Escape", SV_KEY_ESCAPE},
	{"Tab", SV_KEY_TAB},
	{"BTab", SV_KEY_BTAB},
	{"Space", ' '},
	{"BSpace", SV_KEY_BACKSPACE},
	{"Up", SV_KEY_UP},
	{"Down", SV_KEY_DOWN},
	{"Left", SV_KEY_LEFT},
	{"Right", SV_KEY_RIGHT},
	{"PageUp", SV_KEY_PAGEUP},
	{"PPage", SV_KEY_PAGEUP},
	{"PgUp", SV_KEY_PAGEUP},
	{"PageDown", SV_KEY_PAGEDOWN},
	{"NPage", SV_KEY_PAGEDOWN},
	{"PgDn", SV_KEY_PAGEDOWN},
	{"Home", SV_KEY_HOME},
	{"End", SV_KEY_END},
	{"IC", SV_KEY_INSERT},
	{"Insert", SV_KEY_INSERT},
	{"DC", SV_KEY_DELETE},
	{"Delete", SV_KEY_DELETE},
	{"C-@", SV_KEY_NUL},
	{"C-Space", SV_KEY_NUL},
};

static const struct {
	const char *name;
	enum sv_mouse_kind kind;
} keys_mouse[] = {
	{"Click", SV_MOUSE_CLICK},
	{"Drag", SV_MOUSE_DRAG},
	{"Release", SV_MOUSE_RELEASE},
	{"WheelUp", SV_MOUSE_WHEEL_UP},
	{"WheelDown", SV_MOUSE_WHEEL_DOWN},
};

#define KEYS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

bool sv_key_is_text(int key)
{
	return key >= 0x20 && key < SV_KEY_BASE &&
	       !sv_utf8_is_control((uint32_t)key);
}

int sv_key_from_byte(int c)
{
	switch (c) {
	case 0:
		return SV_KEY_NUL;
	case 9:
		return SV_KEY_TAB;
	case 10:
	case 13:
		return SV_KEY_ENTER;
	case 27:
		return SV_KEY_ESCAPE;
	case 8:
	case 127:
		return SV_KEY_BACKSPACE;
	default:
		return c;
	}
}

/* Parse "X,Y" (decimal, 0 .. 4095) after a mouse name. */
static bool keys_parse_xy(const char *s, int *x, int *y)
{
	char *end;
	long a, b;

	if (*s < '0' || *s > '9')
		return false;
	a = strtol(s, &end, 10);
	if (*end != ',' || end[1] < '0' || end[1] > '9')
		return false;
	b = strtol(end + 1, &end, 10);
	if (*end || a > 4095 || b > 4095)
		return false;
	*x = (int)a;
	*y = (int)b;
	return true;
}

/* C-x: a letter (either case), or one of @[\]^_ and ?. */
static int keys_parse_ctrl(const char *s)
{
	if (!s[0])
		return -1;
	if (s[1])
		return -1;
	if (s[0] >= 'a' && s[0] <= 'z')
		return sv_key_from_byte(s[0] - 'a' + 1);
	if (s[0] >= 'A' && s[0] <= 'Z')
		return sv_key_from_byte(s[0] - 'A' + 1);
	if (s[0] == '?')
		return SV_KEY_BACKSPACE;
	if (s[0] && strchr("@[\\]^_", s[0]))
		return sv_key_from_byte(s[0] & 0x1f);
	return -1;
}

int sv_key_parse(const char *name, int *key, struct sv_error *err)
{
	size_t i, len;
	uint32_t cp;
	int k;

	if (!name || !*name)
		return sv_error_set(err, -EINVAL, "empty key name");
	len = strlen(name);
	for (i = 0; i < KEYS_COUNT(keys_named); i++)
		if (!strcmp(name, keys_named[i].name)) {
			*key = keys_named[i].key;
			return 0;
		}
	if (name[0] == 'F' && len >= 2 && len <= 3 && name[1] >= '1' &&
		name[1] <= '9') {
		int n = atoi(name + 1);
		if (n >= 1 && n <= 12 && (len == 2 || name[2] >= '0') &&
			(len == 2 || name[2] <= '9')) {
			*key = SV_KEY_F1 + n - 1;
			return 0;
		}
	}
	if (len > 2 && name[0] == 'C' && name[1] == '-') {
		k = keys_parse_ctrl(name + 2);
		if (k > 0) {
			*key = k;
			return 0;
		}
	}
	for (i = 0; i < KEYS_COUNT(keys_mouse); i++) {
		size_t n = strlen(keys_mouse[i].name);
		int x, y;
		if (!strncmp(name, keys_mouse[i].name, n) && name[n] == ':') {
			if (!keys_parse_xy(name + n + 1, &x, &y))
				return sv_error_set(err, -EINVAL,
					"bad mouse key '%s': expected %s:X,Y "
					"with 0-based cells",
					name, keys_mouse[i].name);
			*key = sv_key_mouse(keys_mouse[i].kind, x, y);
			return 0;
		}
	}
	if (sv_utf8_decode(name, len, &cp) == len && cp != 0xfffd &&
		sv_key_is_text((int)cp)) {
		*key = (int)cp;
		return 0;
	}
	return sv_error_set(err, -EINVAL,
		"unknown key name '%s' (use tmux send-keys names such as t, "
		"Enter, Escape, Tab, BTab, Space, BSpace, Up, PageDown, F1, "
		"C-x, Click:X,Y)",
		name);
}

int sv_keys_parse_script(
	const char *script, int **keys, size_t *nkeys, struct sv_error *err)
{
	int *out = NULL;
	size_t n = 0, cap = 0;
	const char *s = script ? script : "";

	for (;;) {
		char word[64];
		size_t len;
		int k, rc;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		len = strcspn(s, " \t\n");
		if (len >= sizeof word) {
			free(out);
			return sv_error_set(err, -EINVAL,
				"unknown key name '%.*s'", (int)len, s);
		}
		memcpy(word, s, len);
		word[len] = '\0';
		rc = sv_key_parse(word, &k, err);
		if (rc < 0) {
			free(out);
			return rc;
		}
		sv_grow((void **)&out, &cap, n + 1, sizeof *out);
		out[n++] = k;
		s += len;
	}
	*keys = out;
	*nkeys = n;
	return 0;
}

char *sv_key_name(int key, char *buf, size_t n)
{
	size_t i;

	if (!buf || !n)
		return buf;
	if (sv_key_is_mouse(key)) {
		for (i = 0; i < KEYS_COUNT(keys_mouse); i++)
			if (keys_mouse[i].kind == sv_key_mouse_kind(key))
				break;
		snprintf(buf, n, "%s:%d,%d",
			i < KEYS_COUNT(keys_mouse) ? keys_mouse[i].name
						   : "Mouse",
			sv_key_mouse_x(key), sv_key_mouse_y(key));
		return buf;
	}
	for (i = 0; i < KEYS_COUNT(keys_named); i++)
		if (keys_named[i].key == key) {
			snprintf(buf, n, "%s", keys_named[i].name);
			return buf;
		}
	if (key >= SV_KEY_F1 && key <= SV_KEY_F12) {
		snprintf(buf, n, "F%d", key - SV_KEY_F1 + 1);
		return buf;
	}
	if (key == SV_KEY_RESIZE) {
		snprintf(buf, n, "Resize");
		return buf;
	}
	if (key == SV_KEY_EOF) {
		snprintf(buf, n, "EOF");
		return buf;
	}
	if (key >= 1 && key <= 26) {
		snprintf(buf, n, "C-%c", 'a' + key - 1);
		return buf;
	}
	if (key >= 28 && key <= 31) {
		/* C-\ C-] C-^ C-_, as keys_parse_ctrl reads them. */
		snprintf(buf, n, "C-%c", "\\]^_"[key - 28]);
		return buf;
	}
	if (sv_key_is_text(key)) {
		char tmp[5];
		size_t len = sv_utf8_encode((uint32_t)key, tmp);
		tmp[len] = '\0';
		snprintf(buf, n, "%s", tmp);
		return buf;
	}
	snprintf(buf, n, "Key-%d", key);
	return buf;
}

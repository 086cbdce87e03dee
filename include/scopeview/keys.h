/*
 * keys.h: the key codes the viewer understands, and tmux send-keys names.
 *
 * A key is an int.  Printable characters are their Unicode code point
 * (' ' for Space, '+' for plus); control keys C-a .. C-z are 1 .. 26 except
 * those a terminal cannot tell apart from named keys (C-i is Tab, C-m is
 * Enter, C-[ is Escape, C-h is BSpace), which are folded into the named
 * codes below by sv_key_from_byte().  Named keys live above the Unicode
 * range.  Mouse events pack a kind and a 0-based cell position into one
 * int (see sv_key_mouse()).  The same codes come from the curses backend
 * (term.c) and from a key script (snapshot, tests), so both drive the view
 * identically.  Nothing here knows about curses.
 */
#ifndef SCOPEVIEW_KEYS_H
#define SCOPEVIEW_KEYS_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/keys.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "scopeview/common.h"

enum {
	SV_KEY_NONE = 0,
	SV_KEY_BASE = 0x110000, /* first code above Unicode */
	SV_KEY_ENTER = SV_KEY_BASE,
	SV_KEY_ESCAPE,
	SV_KEY_TAB,
	SV_KEY_BTAB, /* Shift-Tab */
	SV_KEY_BACKSPACE,
	SV_KEY_UP,
	SV_KEY_DOWN,
	SV_KEY_LEFT,
	SV_KEY_RIGHT,
	SV_KEY_PAGEUP,
	SV_KEY_PAGEDOWN,
	SV_KEY_HOME,
	SV_KEY_END,
	SV_KEY_INSERT,
	SV_KEY_DELETE,
	SV_KEY_F1, /* SV_KEY_F1 + n - 1 is Fn, n = 1 .. 12 */
	SV_KEY_F12 = SV_KEY_F1 + 11,
	SV_KEY_RESIZE, /* the terminal changed size */
	SV_KEY_EOF,    /* no more keys: the loop ends */
	SV_KEY_NUL,    /* C-@ (C-Space): the NUL byte, which is not 0 here */
	SV_KEY_LAST
};

/* Mouse event kinds. */
enum sv_mouse_kind {
	SV_MOUSE_CLICK = 1, /* button 1 pressed */
	SV_MOUSE_DRAG,      /* moved with button 1 held */
	SV_MOUSE_RELEASE,   /* button 1 released */
	SV_MOUSE_WHEEL_UP,
	SV_MOUSE_WHEEL_DOWN,
};

/* Mouse keys: bit 30 set, kind in bits 24..27, x in bits 12..23, y in bits
 * 0..11.  Positions are 0-based cells, clamped to 0 .. 4095. */
#define SV_KEY_MOUSE_FLAG 0x40000000

static inline int sv_key_mouse(enum sv_mouse_kind kind, int x, int y)
{
	x = x < 0 ? 0 : x > 4095 ? 4095 : x;
	y = y < 0 ? 0 : y > 4095 ? 4095 : y;
	return SV_KEY_MOUSE_FLAG | ((int)kind << 24) | (x << 12) | y;
}
static inline bool sv_key_is_mouse(int key)
{
	return key > 0 && (key & SV_KEY_MOUSE_FLAG);
}
static inline enum sv_mouse_kind sv_key_mouse_kind(int key)
{
	return (enum sv_mouse_kind)((key >> 24) & 0xf);
}
static inline int sv_key_mouse_x(int key)
{
	return (key >> 12) & 0xfff;
}
static inline int sv_key_mouse_y(int key)
{
	return key & 0xfff;
}

/* Control key for letter c ('a' .. 'z'): 1 .. 26. */
#define SV_KEY_CTRL(c) ((c)&0x1f)

/* True for keys that insert text into a prompt (printable code points:
 * not a control by sv_utf8_is_control, so neither a bidirectional
 * control, which a config file could otherwise bind and --dump-config
 * print raw). */
bool sv_key_is_text(int key);

/* Fold a raw byte or code point from a terminal into the key space: 9 ->
 * Tab, 10 and 13 -> Enter, 27 -> Escape, 8 and 127 -> Backspace; anything
 * else is returned unchanged. */
int sv_key_from_byte(int c);

/*
 * Parse one tmux send-keys name: a single character (UTF-8), Enter,
 * Escape, Tab, BTab, Space, BSpace, Up, Down, Left, Right, PageUp (PPage),
 * PageDown (NPage), Home, End, IC, DC, F1 .. F12, C-x (x a letter, or one
 * of [\]^_?; C-i, C-m, C-[ and C-? are Tab, Enter, Escape and BSpace),
 * and the mouse forms Click:X,Y, Drag:X,Y,
 * Release:X,Y, WheelUp:X,Y, WheelDown:X,Y (0-based cells).  Names are case
 * sensitive, as in tmux.  Returns 0 and stores the key, or -EINVAL and
 * fills err ("unknown key name 'Foo'").
 */
int sv_key_parse(const char *name, int *key, struct sv_error *err);

/*
 * Parse a key script: names separated by spaces (any amount of blanks).
 * On success stores a malloc'd array in *keys (caller frees; NULL when the
 * script is empty) and its length in *nkeys, returns 0.  On the first
 * unknown name returns -EINVAL and fills err naming it; nothing is stored.
 */
int sv_keys_parse_script(
	const char *script, int **keys, size_t *nkeys, struct sv_error *err);

/* The tmux name of key into buf (at most n bytes, NUL-terminated): "t",
 * "Enter", "C-x", "Click:3,4".  Returns buf. */
char *sv_key_name(int key, char *buf, size_t n);

#endif

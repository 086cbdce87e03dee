/*
 * test_keys.c: tmux key names, key scripts, byte folding and mouse codes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/keys.h"

static const struct {
	const char *name;
	int key;
} good[] = {
	{"t", 't'}, {"+", '+'}, {"/", '/'}, {"\\", '\\'},
	{"Enter", SV_KEY_ENTER}, {"Escape", SV_KEY_ESCAPE}, {"Tab", SV_KEY_TAB},
	{"BTab", SV_KEY_BTAB}, {"Space", ' '}, {"BSpace", SV_KEY_BACKSPACE},
	{"Up", SV_KEY_UP}, {"Down", SV_KEY_DOWN}, {"Left", SV_KEY_LEFT},
	{"Right", SV_KEY_RIGHT}, {"PageUp", SV_KEY_PAGEUP},
	{"PPage", SV_KEY_PAGEUP}, {"PageDown", SV_KEY_PAGEDOWN},
	{"NPage", SV_KEY_PAGEDOWN}, {"Home", SV_KEY_HOME}, {"End", SV_KEY_END},
	{"F1", SV_KEY_F1}, {"F10", SV_KEY_F1 + 9}, {"F12", SV_KEY_F12},
	{"C-x", 24}, {"C-a", 1}, {"C-i", SV_KEY_TAB}, {"C-m", SV_KEY_ENTER},
	{"C-[", SV_KEY_ESCAPE}, {"é", 0xe9}, {"C-@", SV_KEY_NUL},
	{"C-Space", SV_KEY_NUL}, {"C-\\", 28}, {"C-]", 29}, {"C-^", 30},
	{"C-_", 31}, {"Click:3,4", 0}, /* checked below */
};

START_TEST(test_parse_good)
{
	int key = -1;
	struct sv_error err = {0};

	/* given a tmux name, when parsed, then the key code is right */
	ck_assert_msg(sv_key_parse(good[_i].name, &key, &err) == 0, "%s: %s",
		good[_i].name, err.msg);
	if (!strcmp(good[_i].name, "Click:3,4")) {
		ck_assert(sv_key_is_mouse(key));
		ck_assert_int_eq(sv_key_mouse_kind(key), SV_MOUSE_CLICK);
		ck_assert_int_eq(sv_key_mouse_x(key), 3);
		ck_assert_int_eq(sv_key_mouse_y(key), 4);
	} else {
		ck_assert_int_eq(key, good[_i].key);
		ck_assert(!sv_key_is_mouse(key));
	}
}
END_TEST

static const char *const bad[] = {"", "Foo", "enter", "F0", "F13", "F1x", "C-",
	"C-1", "Click", "Click:", "Click:1", "Click:1,", "Click:-1,2",
	"Click:1,2,3", "WheelUp:9999,1", "ab", "Tabs", "\x01",
	/* controls a config file could bind and --dump-config print raw:
	 * DEL, C1 CSI, a bidirectional override, a line separator */
	"\x7f", "\xc2\x9b", "\xe2\x80\xae", "\xe2\x80\xa8"};

START_TEST(test_parse_bad)
{
	int key = 12345;
	struct sv_error err = {0};

	/* given an unknown name, then -EINVAL, a message, key untouched */
	ck_assert_int_eq(sv_key_parse(bad[_i], &key, &err), -EINVAL);
	ck_assert_int_eq(key, 12345);
	ck_assert(err.msg[0] != '\0');
}
END_TEST

START_TEST(test_parse_null)
{
	int key = 7;
	ck_assert_int_eq(sv_key_parse(NULL, &key, NULL), -EINVAL);
	ck_assert_int_eq(key, 7);
}
END_TEST

START_TEST(test_script)
{
	int *keys = NULL;
	size_t n = 99;
	struct sv_error err = {0};

	ck_assert_int_eq(sv_keys_parse_script("  t + Enter\tWheelDown:10,2 "
					      "C-x ",
				 &keys, &n, &err),
		0);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(keys[0], 't');
	ck_assert_int_eq(keys[1], '+');
	ck_assert_int_eq(keys[2], SV_KEY_ENTER);
	ck_assert_int_eq(sv_key_mouse_kind(keys[3]), SV_MOUSE_WHEEL_DOWN);
	ck_assert_int_eq(sv_key_mouse_x(keys[3]), 10);
	ck_assert_int_eq(keys[4], 24);
	free(keys);

	keys = NULL;
	n = 99;
	ck_assert_int_eq(sv_keys_parse_script("", &keys, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(keys);

	/* an unknown name anywhere fails the whole script, naming it */
	n = 99;
	keys = NULL;
	ck_assert_int_eq(
		sv_keys_parse_script("t Bogus q", &keys, &n, &err), -EINVAL);
	ck_assert_ptr_null(keys);
	ck_assert_uint_eq(n, 99);
	ck_assert_ptr_nonnull(strstr(err.msg, "Bogus"));
}
END_TEST

START_TEST(test_name_roundtrip)
{
	/* every good name prints as a name that parses to the same key */
	size_t i;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		int key, again;
		char buf[32];
		ck_assert_int_eq(sv_key_parse(good[i].name, &key, NULL), 0);
		sv_key_name(key, buf, sizeof buf);
		ck_assert_msg(sv_key_parse(buf, &again, NULL) == 0, "%s -> %s",
			good[i].name, buf);
		ck_assert_int_eq(again, key);
	}
}
END_TEST

START_TEST(test_from_byte)
{
	ck_assert_int_eq(sv_key_from_byte(9), SV_KEY_TAB);
	ck_assert_int_eq(sv_key_from_byte(13), SV_KEY_ENTER);
	ck_assert_int_eq(sv_key_from_byte(10), SV_KEY_ENTER);
	ck_assert_int_eq(sv_key_from_byte(27), SV_KEY_ESCAPE);
	ck_assert_int_eq(sv_key_from_byte(127), SV_KEY_BACKSPACE);
	ck_assert_int_eq(sv_key_from_byte(8), SV_KEY_BACKSPACE);
	ck_assert_int_eq(sv_key_from_byte('q'), 'q');
	ck_assert(sv_key_is_text('a'));
	ck_assert(sv_key_is_text(0x4e2d));
	ck_assert(!sv_key_is_text(SV_KEY_ENTER));
	ck_assert(!sv_key_is_text(27));
	ck_assert(!sv_key_is_text(0x85));
}
END_TEST

START_TEST(test_mouse_clamp)
{
	int k = sv_key_mouse(SV_MOUSE_DRAG, -5, 99999);
	ck_assert(sv_key_is_mouse(k));
	ck_assert_int_eq(sv_key_mouse_x(k), 0);
	ck_assert_int_eq(sv_key_mouse_y(k), 4095);
	ck_assert(!sv_key_is_mouse(SV_KEY_EOF));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("names");
	tcase_add_loop_test(
		tc, test_parse_good, 0, sizeof good / sizeof good[0]);
	tcase_add_loop_test(tc, test_parse_bad, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, test_parse_null);
	tcase_add_test(tc, test_name_roundtrip);
	suite_add_tcase(s, tc);
	tc = tcase_create("scripts");
	tcase_add_test(tc, test_script);
	tcase_add_test(tc, test_from_byte);
	tcase_add_test(tc, test_mouse_clamp);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}

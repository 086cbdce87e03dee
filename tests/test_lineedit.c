/*
 * test_lineedit.c: the prompts' line editor (lineedit.h): typing at the
 * cursor, moves and deletions by code points and words, a pre-filled line
 * replaced by typing, the length limit, and the history (Up, Down, the
 * line typed kept, no repeats, the oldest dropped).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/lineedit.h"

START_TEST(test_type_and_move)
{
	struct sv_lineedit e;

	/* given an empty line */
	sv_lineedit_set(&e, NULL, true);
	ck_assert(!e.fresh);
	/* when text is typed, the cursor moved left and more typed */
	ck_assert_int_eq(sv_lineedit_insert(&e, "solve"), 0);
	ck_assert(sv_lineedit_move(&e, -1));
	ck_assert(sv_lineedit_move(&e, -1));
	ck_assert_int_eq(sv_lineedit_insert(&e, "XY"), 0);
	/* then it is inserted at the cursor */
	ck_assert_str_eq(e.buf, "solXYve");
	ck_assert_uint_eq(e.cur, 5);
	/* Home, End and the ends of the line */
	sv_lineedit_home(&e);
	ck_assert_uint_eq(e.cur, 0);
	ck_assert(!sv_lineedit_move(&e, -1));
	ck_assert(!sv_lineedit_backspace(&e));
	sv_lineedit_end(&e);
	ck_assert_uint_eq(e.cur, e.len);
	ck_assert(!sv_lineedit_move(&e, 1));
	ck_assert(sv_lineedit_backspace(&e));
	ck_assert_str_eq(e.buf, "solXYv");
}
END_TEST

START_TEST(test_utf8_steps)
{
	struct sv_lineedit e;

	/* given a line of two- and three-byte code points */
	sv_lineedit_set(&e, "aé求b", false);
	/* moves step over whole code points */
	ck_assert(sv_lineedit_move(&e, -1));
	ck_assert_uint_eq(e.cur, strlen("aé求"));
	ck_assert(sv_lineedit_move(&e, -1));
	ck_assert_uint_eq(e.cur, strlen("aé"));
	ck_assert(sv_lineedit_backspace(&e));
	ck_assert_str_eq(e.buf, "a求b");
	ck_assert_uint_eq(e.cur, 1);
	ck_assert(sv_lineedit_move(&e, 1));
	ck_assert_uint_eq(e.cur, strlen("a求"));
}
END_TEST

START_TEST(test_words_and_start)
{
	struct sv_lineedit e;

	sv_lineedit_set(&e, "goto  12.5ms", false);
	/* C-w takes the word before the cursor and the spaces after it */
	sv_lineedit_delete_word(&e);
	ck_assert_str_eq(e.buf, "goto  ");
	sv_lineedit_delete_word(&e);
	ck_assert_str_eq(e.buf, "");
	sv_lineedit_delete_word(&e);
	ck_assert_str_eq(e.buf, "");
	/* C-u deletes what is before the cursor, keeps the rest */
	sv_lineedit_set(&e, "region solve", false);
	sv_lineedit_home(&e);
	ck_assert(sv_lineedit_move(&e, 1));
	ck_assert(sv_lineedit_move(&e, 1));
	sv_lineedit_delete_to_start(&e);
	ck_assert_str_eq(e.buf, "gion solve");
	ck_assert_uint_eq(e.cur, 0);
}
END_TEST

START_TEST(test_fresh_is_replaced)
{
	struct sv_lineedit e;

	/* given a pre-filled line: typing replaces it */
	sv_lineedit_set(&e, "!fetch", true);
	ck_assert(e.fresh);
	ck_assert_int_eq(sv_lineedit_insert(&e, "s"), 0);
	ck_assert_str_eq(e.buf, "s");
	ck_assert(!e.fresh);
	/* a move first makes it an ordinary line, extended by typing */
	sv_lineedit_set(&e, "!fetch", true);
	sv_lineedit_end(&e);
	ck_assert_int_eq(sv_lineedit_insert(&e, "|io"), 0);
	ck_assert_str_eq(e.buf, "!fetch|io");
	/* and Backspace deletes from it */
	sv_lineedit_set(&e, "0-3", true);
	ck_assert(sv_lineedit_backspace(&e));
	ck_assert_str_eq(e.buf, "0-");
}
END_TEST

START_TEST(test_full_line)
{
	struct sv_lineedit e;
	char big[SV_LINEEDIT_MAX + 8];

	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	/* a text longer than a line is cut to fit, whole code points */
	sv_lineedit_set(&e, big, false);
	ck_assert_uint_eq(e.len, SV_LINEEDIT_MAX - 1);
	ck_assert_int_eq(sv_lineedit_insert(&e, "y"), -ENOSPC);
	ck_assert_uint_eq(e.len, SV_LINEEDIT_MAX - 1);
	memset(big, 0, sizeof big);
	memset(big, 'x', SV_LINEEDIT_MAX - 2);
	strcat(big, "é");
	sv_lineedit_set(&e, big, false);
	ck_assert_uint_eq(e.len, SV_LINEEDIT_MAX - 2);
}
END_TEST

START_TEST(test_history)
{
	struct sv_lineedit_history h;
	struct sv_lineedit e;
	char line[16];
	int i;

	memset(&h, 0, sizeof h);
	/* given three lines entered, one twice in a row, and an empty one */
	sv_lineedit_history_add(&h, "solve");
	sv_lineedit_history_add(&h, "fetch");
	sv_lineedit_history_add(&h, "fetch");
	sv_lineedit_history_add(&h, "");
	sv_lineedit_history_add(&h, "kernel:.*");
	ck_assert_uint_eq(h.n, 3);
	/* when Up is pressed on a line being typed */
	sv_lineedit_set(&e, "par", false);
	ck_assert(!sv_lineedit_history_step(&e, &h, 1));
	ck_assert(sv_lineedit_history_step(&e, &h, -1));
	ck_assert_str_eq(e.buf, "kernel:.*");
	ck_assert(sv_lineedit_history_step(&e, &h, -1));
	ck_assert(sv_lineedit_history_step(&e, &h, -1));
	ck_assert_str_eq(e.buf, "solve");
	ck_assert_uint_eq(e.cur, 5);
	ck_assert(!sv_lineedit_history_step(&e, &h, -1));
	ck_assert_str_eq(e.buf, "solve");
	/* then Down comes back to the line typed */
	ck_assert(sv_lineedit_history_step(&e, &h, 1));
	ck_assert(sv_lineedit_history_step(&e, &h, 1));
	ck_assert_str_eq(e.buf, "kernel:.*");
	ck_assert(sv_lineedit_history_step(&e, &h, 1));
	ck_assert_str_eq(e.buf, "par");
	ck_assert(!sv_lineedit_history_step(&e, &h, 1));
	/* a full history drops the oldest */
	for (i = 0; i < SV_LINEEDIT_HISTORY + 5; i++) {
		snprintf(line, sizeof line, "q%d", i);
		sv_lineedit_history_add(&h, line);
	}
	ck_assert_uint_eq(h.n, SV_LINEEDIT_HISTORY);
	ck_assert_str_eq(h.lines[0], "q5");
	sv_lineedit_history_fini(&h);
	ck_assert_uint_eq(h.n, 0);
	sv_lineedit_history_fini(NULL);
	/* an empty history has nothing to step to */
	ck_assert(!sv_lineedit_history_step(&e, &h, -1));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lineedit");
	TCase *t = tcase_create("edit");
	tcase_add_test(t, test_type_and_move);
	tcase_add_test(t, test_utf8_steps);
	tcase_add_test(t, test_words_and_start);
	tcase_add_test(t, test_fresh_is_replaced);
	tcase_add_test(t, test_full_line);
	suite_add_tcase(s, t);
	t = tcase_create("history");
	tcase_add_test(t, test_history);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}

/*
 * test_elide.c: names fitted into few cells so that they stay apart
 * (elide.h): as they are when they fit, cut at the end while the place
 * where they differ shows, else in the middle keeping the word where they
 * differ, by whole code points and escaped cells; the sideways skip; the
 * differ of each of a set of names, from its neighbours in byte order.
 */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/elide.h"
#include "scopeview/grid.h"

static const struct {
	const char *name, *other; /* other: the neighbour it differs from */
	int width;
	const char *want;
} cases[] = {
	/* fits: as it is */
	{"solve", "", 18, "solve"},
	{"kernel:spmv", "kernel:precondition", 11, "kernel:spmv"},
	/* differs early: cut at the end */
	{"kernel:precondition", "kernel:spmv", 12, "kernel:prec~"},
	/* differs at the end: the end kept from its word */
	{"mpi:wait kind=wait peer=12", "mpi:wait kind=wait peer=3", 18,
		"mpi:wait k~peer=12"},
	/* differs in the middle of a long end: a window on that word */
	{"mpi:wait kind=wait bytes=32768 peer=2 root=-1 tag=7 comm=0",
		"mpi:wait kind=wait bytes=32768 peer=3 root=-1 tag=7 comm=0",
		18, "mpi:wa~peer=2 roo~"},
	/* alone (no neighbour): cut at the end */
	{"a_very_long_region_name", NULL, 10, "a_very_lo~"},
	/* too narrow to cut in the middle */
	{"mpi:wait peer=12", "mpi:wait peer=13", 6, "mpi:w~"},
	/* code points, not bytes */
	{"求解器求解器 peer=1", "求解器求解器 peer=2", 12, "求解~peer=1"},
};

START_TEST(test_elide_cases)
{
	char out[256];
	size_t differ = cases[_i].other ? sv_elide_common(cases[_i].name,
						  cases[_i].other)
					: 0;
	int cells = sv_elide(
		cases[_i].name, differ, cases[_i].width, "~", out, sizeof out);

	ck_assert_str_eq(out, cases[_i].want);
	ck_assert_int_eq(cells, sv_grid_text_width(out, 1000));
	ck_assert_int_le(cells, cases[_i].width);
}
END_TEST

START_TEST(test_elide_edges)
{
	char out[64];
	int c;

	/* printable ASCII takes one cell each, as elide counts it without
	 * asking the grid; a name of them is kept whole when it fits */
	for (c = 0x20; c < 0x7f; c++) {
		char one[2] = {(char)c, '\0'}, name[12];
		ck_assert_int_eq(sv_grid_text_width(one, 8), 1);
		snprintf(name, sizeof name, "ab%ccd", c);
		ck_assert_int_eq(sv_elide(name, 0, 5, "~", out, sizeof out), 5);
		ck_assert_str_eq(out, name);
	}

	/* common prefixes in whole code points */
	ck_assert_uint_eq(sv_elide_common("abc", "abd"), 2);
	ck_assert_uint_eq(sv_elide_common("é", "è"), 0);
	ck_assert_uint_eq(sv_elide_common("xé", "xé"), 3);
	ck_assert_uint_eq(sv_elide_common(NULL, "a"), 0);
	/* a control character takes its escaped cells */
	ck_assert_int_le(
		sv_elide("ab\x1b[2Jcdefgh", 0, 6, "~", out, sizeof out), 6);
	ck_assert_int_le(sv_grid_text_width(out, 100), 6);
	/* degenerate widths and buffers */
	ck_assert_int_eq(sv_elide("abc", 0, 0, "~", out, sizeof out), 0);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(sv_elide(NULL, 0, 5, "~", out, sizeof out), 0);
	ck_assert_int_eq(sv_elide("abc", 0, 5, "~", out, 0), 0);
	/* a differ past the end is the end */
	ck_assert_int_le(
		sv_elide("abcdefghij", 99, 8, "~", out, sizeof out), 8);
	/* the sideways skip, by cells */
	ck_assert_str_eq(sv_elide_skip("mpi:wait", 4), "wait");
	ck_assert_str_eq(sv_elide_skip("求解器", 2), "解器");
	ck_assert_str_eq(sv_elide_skip("abc", 10), "");
	ck_assert_str_eq(sv_elide_skip(NULL, 1), "");
}
END_TEST

/* sv_elide_differs against each name compared with every other: names
 * from a few parts that share starts, in bytes and in code points, with
 * duplicates, in many random sets. */
START_TEST(test_elide_drop)
{
	char t[128];

	/* a title that fits keeps every part */
	strcpy(t, "Regions (3) all lanes, range 1 .. 2 (calls clipped)");
	sv_elide_drop(t, " (calls clipped)", 60);
	ck_assert_str_eq(
		t, "Regions (3) all lanes, range 1 .. 2 (calls clipped)");
	/* one too wide loses the part, and only it */
	sv_elide_drop(t, " (calls clipped)", 40);
	ck_assert_str_eq(t, "Regions (3) all lanes, range 1 .. 2");
	/* a part not in it, or empty, changes nothing */
	sv_elide_drop(t, ", B: x.h5", 10);
	sv_elide_drop(t, "", 10);
	ck_assert_str_eq(t, "Regions (3) all lanes, range 1 .. 2");
}
END_TEST

START_TEST(test_elide_differs)
{
	static const char *const parts[] = {"mpi:", "wait ", "peer=1",
		"peer=12", "\xc3\xa9", "\xc3\xa8", "k", "", "tag=7 ", "x"};
	enum { NAMES = 24 };
	char names[NAMES][64];
	const char *ptr[NAMES];
	struct sv_elide_entry order[NAMES];
	size_t differ[NAMES], n, i, j;
	unsigned seed = 12345;
	int round, k;

	for (round = 0; round < 300; round++) {
		n = 1 + (size_t)(round % NAMES);
		for (i = 0; i < n; i++) {
			names[i][0] = '\0';
			for (k = 0; k < 1 + round % 5; k++) {
				seed = seed * 1103515245u + 12345u;
				strcat(names[i], parts[(seed >> 16) % 10]);
			}
			ptr[i] = names[i];
		}
		sv_elide_differs(ptr, n, order, differ);
		for (i = 0; i < n; i++) {
			size_t want = 0;
			for (j = 0; j < n; j++) {
				size_t c = j == i ? 0
						  : sv_elide_common(
							    names[i], names[j]);
				want = c > want ? c : want;
			}
			ck_assert_msg(differ[i] == want,
				"round %d name %zu '%s': %zu, want %zu", round,
				i, names[i], differ[i], want);
		}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("elide");
	TCase *t = tcase_create("elide");
	tcase_add_loop_test(
		t, test_elide_cases, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(t, test_elide_edges);
	tcase_add_test(t, test_elide_differs);
	tcase_add_test(t, test_elide_drop);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}

/*
 * test_action.c: the action table: every action has a name, help and a
 * key that parses; no key is bound twice; the README key table equals the
 * generated one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/keys.h"

START_TEST(test_rows_complete)
{
	int a;
	for (a = 1; a < SV_ACTION_COUNT; a++) {
		const struct sv_action_info *ai = sv_action_info(a);
		ck_assert_ptr_nonnull(ai);
		ck_assert_msg(ai->name[0] && ai->help[0] && ai->keys[0],
			"action %d lacks a name, help or key", a);
		ck_assert_int_eq(sv_action_by_name(ai->name), a);
	}
	ck_assert_ptr_null(sv_action_info(SV_ACTION_NONE));
	ck_assert_ptr_null(sv_action_info(SV_ACTION_COUNT));
	ck_assert_int_eq(sv_action_by_name("no-such"), SV_ACTION_NONE);
	ck_assert_int_eq(sv_action_by_name(NULL), SV_ACTION_NONE);
}
END_TEST

START_TEST(test_keys_parse_and_unique)
{
	int a, b, si;
	/* every key name of the table parses and maps back to its action in
	 * each of its scopes */
	for (a = 1; a < SV_ACTION_COUNT; a++) {
		const struct sv_action_info *ai = sv_action_info(a);
		char buf[128], *save = NULL, *w;
		ck_assert_msg(ai->scopes != 0, "%s has no scope", ai->name);
		snprintf(buf, sizeof buf, "%s", ai->keys);
		for (w = strtok_r(buf, " ", &save); w;
			w = strtok_r(NULL, " ", &save)) {
			int key;
			struct sv_error err = {0};
			ck_assert_msg(sv_key_parse(w, &key, &err) == 0,
				"%s: %s", ai->name, err.msg);
			for (si = 0; si < SV_SCOPE_COUNT; si++) {
				unsigned sc = 1u << si;
				if (!(ai->scopes & sc))
					continue;
				ck_assert_msg(sv_action_for_key(sc, key) == a,
					"key %s of %s in %s is bound to %d", w,
					ai->name, sv_scope_name(sc),
					sv_action_for_key(sc, key));
			}
			/* no other action of a shared scope lists it */
			for (b = a + 1; b < SV_ACTION_COUNT; b++) {
				const struct sv_action_info *bi =
					sv_action_info(b);
				char buf2[128], *s2 = NULL, *w2;
				if (!(bi->scopes & ai->scopes))
					continue;
				snprintf(buf2, sizeof buf2, "%s", bi->keys);
				for (w2 = strtok_r(buf2, " ", &s2); w2;
					w2 = strtok_r(NULL, " ", &s2)) {
					int k2;
					ck_assert_int_eq(
						sv_key_parse(w2, &k2, NULL), 0);
					ck_assert_msg(k2 != key,
						"%s bound to %s and %s in one "
						"scope",
						w, ai->name, bi->name);
				}
			}
		}
	}
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, 'Q'), SV_ACTION_NONE);
	/* one key, a meaning per scope */
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, 'j'), SV_ACTION_MOVE_DOWN);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_LIST, 'j'), SV_ACTION_LIST_DOWN);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_POPUP, 'q'), SV_ACTION_POPUP_CLOSE);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_PROMPT, 'j'), SV_ACTION_NONE);
	ck_assert_str_eq(sv_scope_name(SV_SCOPE_STATS), "stats");
	ck_assert_ptr_null(sv_scope_name(3));
}
END_TEST

static char *action_doc(enum sv_action_doc doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(sv_action_write_keys(f, doc), 0);
	fclose(f);
	return buf;
}

/* Whether some action binds in scope s (a list view's keys may all be
 * the list's). */
static bool scope_has_keys(unsigned s)
{
	int a;
	for (a = 1; a < SV_ACTION_COUNT; a++)
		if (sv_action_info(a)->scopes & s)
			return true;
	return false;
}

START_TEST(test_docs)
{
	char *text = action_doc(SV_ACTION_DOC_TEXT);
	char *md = action_doc(SV_ACTION_DOC_MARKDOWN);
	int a;

	for (a = 1; a < SV_ACTION_COUNT; a++) {
		ck_assert_ptr_nonnull(strstr(text, sv_action_info(a)->name));
		ck_assert_ptr_nonnull(strstr(text, sv_action_info(a)->help));
		ck_assert_ptr_nonnull(strstr(md, sv_action_info(a)->help));
	}
	ck_assert_ptr_nonnull(strstr(text, "Shift-Tab"));
	ck_assert_ptr_nonnull(strstr(md, "| Keys | Action | What it does |"));
	/* a section per scope that has keys of its own, in both */
	for (a = 0; a < SV_SCOPE_COUNT; a++) {
		if (!scope_has_keys(1u << a))
			continue;
		ck_assert_ptr_nonnull(strstr(text, sv_scope_title(1u << a)));
		ck_assert_ptr_nonnull(strstr(md, sv_scope_title(1u << a)));
	}
	free(text);
	free(md);
}
END_TEST

/* The man page's section: every action as "*KEY* (name)" and its help,
 * a "## Title" per scope, the backslash key escaped for scdoc. */
START_TEST(test_docs_scdoc)
{
	char *man = action_doc(SV_ACTION_DOC_SCDOC);
	char *line;
	int a;

	ck_assert_int_eq(strncmp(man, "# KEYS\n\n", 8), 0);
	for (a = 1; a < SV_ACTION_COUNT; a++) {
		line = sv_xasprintf("(%s)\n\t%s\n", sv_action_info(a)->name,
			sv_action_info(a)->help);
		ck_assert_msg(strstr(man, line), "no %s", line);
		free(line);
	}
	for (a = 0; a < SV_SCOPE_COUNT; a++) {
		if (!scope_has_keys(1u << a))
			continue;
		line = sv_xasprintf("## %s\n", sv_scope_title(1u << a));
		ck_assert_ptr_nonnull(strstr(man, line));
		free(line);
	}
	ck_assert_ptr_nonnull(strstr(man, "*\\\\* (filter)"));
	ck_assert_ptr_nonnull(strstr(man, "*Shift-Tab* (prev-call)"));
	free(man);
}
END_TEST

/* Rebinding at run time: per scope, refused where the action does not
 * bind, undone by a reset. */
START_TEST(test_rebind)
{
	char keys[64];
	int key = 0, action = 0;
	unsigned scopes = 0;

	ck_assert_int_eq(
		sv_action_bind(SV_SCOPE_TIMELINE, 'j', SV_ACTION_ZOOM_IN), 0);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, 'j'), SV_ACTION_ZOOM_IN);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_LIST, 'j'), SV_ACTION_LIST_DOWN);
	/* twice is the same as once */
	ck_assert_int_eq(
		sv_action_bind(SV_SCOPE_TIMELINE, 'j', SV_ACTION_ZOOM_IN), 0);
	sv_action_key_list_in(
		SV_ACTION_ZOOM_IN, SV_SCOPE_TIMELINE, " ", keys, sizeof keys);
	ck_assert_str_eq(keys, "+ = w j");
	sv_action_key_list(SV_ACTION_MOVE_DOWN, keys, sizeof keys);
	ck_assert_str_eq(keys, "Down");
	/* 0 scopes: every scope of the action */
	ck_assert_int_eq(sv_action_bind(0, 'x', SV_ACTION_SOURCE), 0);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_POPUP, 'x'), SV_ACTION_SOURCE);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_STATS, 'x'), SV_ACTION_SOURCE);
	/* unbinding */
	ck_assert_int_eq(
		sv_action_bind(SV_SCOPE_GLOBAL, 'q', SV_ACTION_NONE), 0);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_GLOBAL, 'q'), SV_ACTION_NONE);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_POPUP, 'q'), SV_ACTION_POPUP_CLOSE);
	/* refused */
	ck_assert_int_eq(sv_action_bind(SV_SCOPE_TIMELINE, 'Q', SV_ACTION_QUIT),
		-EINVAL);
	ck_assert_int_eq(sv_action_bind(0, 'Q', SV_ACTION_NONE), -EINVAL);
	ck_assert_int_eq(sv_action_bind(0, 'Q', SV_ACTION_COUNT), -EINVAL);
	ck_assert_int_eq(sv_action_bind(0, 'Q', -1), -EINVAL);
	ck_assert_int_eq(
		sv_action_bind(1u << 30, 'Q', SV_ACTION_NONE), -EINVAL);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, 'Q'), SV_ACTION_NONE);
	/* the bindings in effect, then the table's again */
	ck_assert_int_eq(sv_action_binding(0, &key, &action, &scopes), 0);
	ck_assert_int_eq(action, SV_ACTION_MOVE_LEFT);
	ck_assert_int_eq(key, 'h');
	ck_assert_uint_eq(scopes, SV_SCOPE_TIMELINE);
	ck_assert_int_eq(sv_action_binding(100000, NULL, NULL, NULL), -ENOENT);
	sv_action_reset_bindings();
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, 'j'), SV_ACTION_MOVE_DOWN);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_GLOBAL, 'q'), SV_ACTION_CLOSE);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_GLOBAL, 'Q'), SV_ACTION_QUIT);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_STATS, 'x'), SV_ACTION_NONE);
	sv_action_key_list_in(SV_ACTION_NONE, ~0u, NULL, keys, sizeof keys);
	ck_assert_str_eq(keys, "");
	sv_action_key_list_in(SV_ACTION_QUIT, ~0u, NULL, NULL, 0);
}
END_TEST

START_TEST(test_readme_table)
{
	/* The README's key table is the generated Markdown, verbatim. */
	char *path = sv_xasprintf("%s/README.md", svt_source_root());
	char *readme = svt_read_file(path, NULL);
	char *md = action_doc(SV_ACTION_DOC_MARKDOWN);
	char *table_end = strstr(md, "\n\nMouse:");

	ck_assert_msg(readme != NULL, "cannot read %s", path);
	ck_assert_ptr_nonnull(table_end);
	*table_end = '\0';
	ck_assert_msg(strstr(readme, md) != NULL,
		"README key table differs from "
		"`scopeview --list-keys=markdown`");
	free(readme);
	free(md);
	free(path);
}
END_TEST

START_TEST(test_key_label)
{
	char buf[32];
	ck_assert_str_eq(
		sv_action_key_label("BTab", buf, sizeof buf), "Shift-Tab");
	ck_assert_str_eq(sv_action_key_label("C-l", buf, sizeof buf), "Ctrl-l");
	ck_assert_str_eq(sv_action_key_label("h", buf, sizeof buf), "h");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("action");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_rows_complete);
	tcase_add_test(tc, test_keys_parse_and_unique);
	tcase_add_test(tc, test_docs);
	tcase_add_test(tc, test_docs_scdoc);
	tcase_add_test(tc, test_rebind);
	tcase_add_test(tc, test_readme_table);
	tcase_add_test(tc, test_key_label);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}

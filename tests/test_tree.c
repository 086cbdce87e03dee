/*
 * test_tree.c: `scopeview tree` and `export --format collapsed` (tree.h):
 * the JSON, CSV, text and folded-stack writers on a small profile built
 * in memory (exact text, escaping of ';' and newlines in names, filters),
 * and the command lines' exit statuses on a written file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/callpath.h"
#include "scopeview/cli.h"
#include "scopeview/profile.h"
#include "scopeview/tree.h"
#include "scopeview/demo.h"

static void add(struct sv_profile *p, const char *name, int64_t s, int64_t e)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, 0, (uint32_t)reg, 1, NULL);
	p->start_ns[r->first] = s;
	p->end_ns[r->first] = e;
}

static struct sv_profile *small(void)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	add(p, "main", 0, 1000);
	add(p, "a;b\nc", 100, 400);
	add(p, "k\\", 500, 600);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* What writer wrote to a memory stream, in a new string. */
static char *written(const struct sv_callpath *t, const struct sv_tree_opts *o,
	bool collapsed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	if (collapsed)
		ck_assert_int_eq(sv_tree_write_collapsed(f, t, o->show), 0);
	else
		ck_assert_int_eq(sv_tree_write(f, t, o), 0);
	fclose(f);
	return buf;
}

START_TEST(test_tree_json_exact)
{
	struct sv_profile *p = small();
	struct sv_callpath t;
	struct sv_tree_opts o = {0};
	char *s;

	ck_assert_int_eq(sv_callpath_build(&t, p, NULL, NULL), 0);
	o.format = SV_TREE_JSON;
	o.file = "x.h5";
	s = written(&t, &o, false);
	ck_assert_str_eq(s,
		"{\"file\": \"x.h5\",\n"
		" \"scope\": {\"ranks\": null, \"range\": null, "
		"\"recursion\": \"collapsed\", \"num_calls\": 3, "
		"\"total_ns\": 1000, \"total\": 1e-06},\n"
		" \"roots\": [\n"
		"  {\"name\": \"main\", \"path\": [\"main\"], \"num_calls\": "
		"1, "
		"\"inclusive_ns\": 1000, \"inclusive\": 1e-06, "
		"\"exclusive_ns\": 600, \"exclusive\": 6e-07, "
		"\"average_ns\": 1000, \"average\": 1e-06, \"min_ns\": 1000, "
		"\"min\": 1e-06, \"max_ns\": 1000, \"max\": 1e-06, "
		"\"pct\": 100.0, \"recursive\": false, \"children\": [\n"
		"    {\"name\": \"a;b\\nc\", \"path\": [\"main\", "
		"\"a;b\\nc\"], "
		"\"num_calls\": 1, \"inclusive_ns\": 300, \"inclusive\": "
		"3e-07, \"exclusive_ns\": 300, \"exclusive\": 3e-07, "
		"\"average_ns\": 300, \"average\": 3e-07, \"min_ns\": 300, "
		"\"min\": 3e-07, \"max_ns\": 300, \"max\": 3e-07, \"pct\": "
		"30.0, \"recursive\": false, \"children\": []},\n"
		"    {\"name\": \"k\\\\\", \"path\": [\"main\", \"k\\\\\"], "
		"\"num_calls\": 1, \"inclusive_ns\": 100, \"inclusive\": "
		"1e-07, \"exclusive_ns\": 100, \"exclusive\": 1e-07, "
		"\"average_ns\": 100, \"average\": 1e-07, \"min_ns\": 100, "
		"\"min\": 1e-07, \"max_ns\": 100, \"max\": 1e-07, \"pct\": "
		"10.0, \"recursive\": false, \"children\": []}\n"
		"  ]}\n"
		" ]}\n");
	free(s);
	sv_callpath_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_tree_collapsed_escapes)
{
	struct sv_profile *p = small();
	struct sv_callpath t;
	struct sv_tree_opts o = {0};
	bool show[3];
	char *s;

	/* given a tree whose names hold ';', a newline and a backslash */
	ck_assert_int_eq(sv_callpath_build(&t, p, NULL, NULL), 0);

	/* then each stack is one line, frames split at ';' only */
	s = written(&t, &o, true);
	ck_assert_str_eq(s, "main 600\n"
			    "main;a\\x3bb\\nc 300\n"
			    "main;k\\\\ 100\n");
	free(s);
	s = sv_tree_frame("x;y\r");
	ck_assert_str_eq(s, "x\\x3by\\r");
	free(s);

	/* and a hidden node leaves its line out */
	show[0] = show[1] = true;
	show[2] = false;
	o.show = show;
	s = written(&t, &o, true);
	ck_assert_str_eq(s, "main 600\nmain;a\\x3bb\\nc 300\n");
	free(s);
	sv_callpath_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_tree_csv_and_text)
{
	struct sv_profile *p = small();
	struct sv_callpath t;
	struct sv_tree_opts o = {0};
	char *s;

	ck_assert_int_eq(sv_callpath_build(&t, p, NULL, NULL), 0);
	o.format = SV_TREE_CSV;
	s = written(&t, &o, false);
	ck_assert_str_eq(s,
		"depth,name,path,num_calls,inclusive_ns,exclusive_ns,"
		"average_ns,min_ns,max_ns,pct,recursive\n"
		"0,main,main,1,1000,600,1000,1000,1000,100.0,false\n"
		"1,\"a;b\nc\",main;a\\x3bb\\nc,1,300,300,300,300,300,30.0,"
		"false\n"
		"1,k\\,main;k\\\\,1,100,100,100,100,100,10.0,false\n");
	free(s);
	o.format = SV_TREE_TEXT;
	s = written(&t, &o, false);
	ck_assert(strstr(s, "whole run, recursion collapsed; 3 calls"));
	ck_assert(strstr(s, "├─ a;b\\x0ac\n"));
	ck_assert(strstr(s, "└─ k\\\n"));
	free(s);
	sv_callpath_fini(&t);
	sv_profile_free(p);
}
END_TEST

static int run(const struct sv_cli_command *cmd, const char *a1, const char *a2,
	const char *a3, const char *a4)
{
	char *argv[6] = {(char *)"cmd", (char *)a1, (char *)a2, (char *)a3,
		(char *)a4, NULL};
	int argc = 1;
	while (argc < 5 && argv[argc])
		argc++;
	return sv_cli_run(cmd, argc, argv);
}

START_TEST(test_tree_command_lines)
{
	char *h5 = svt_tmp_path("tree_cli.h5"), *out = svt_tmp_path("out.txt");
	struct sv_error err = {0};
	char *text;

	/* given the demo profile in a file */
	ck_assert_int_eq(sv_demo_write(h5, &err), 0);
	ck_assert_int_eq(run(&sv_cli_tree_cmd, "--format", "csv", h5, NULL), 0);
	ck_assert_int_eq(
		run(&sv_cli_tree_cmd, "--range", "100:50", h5, NULL), 2);
	ck_assert_int_eq(run(&sv_cli_tree_cmd, "--sort", "nope", h5, NULL), 2);
	ck_assert_int_eq(run(&sv_cli_tree_cmd, "--include", "(", h5, NULL), 2);
	ck_assert_int_eq(
		run(&sv_cli_tree_cmd, "/no/such.h5", NULL, NULL, NULL), 1);
	ck_assert_int_eq(run(&sv_cli_export_cmd, h5, NULL, NULL, NULL), 2);
	ck_assert_int_eq(
		run(&sv_cli_export_cmd, "--format", "nope", h5, NULL), 2);
	{
		char *argv[] = {(char *)"export", (char *)"--format=collapsed",
			(char *)"-o", out, h5, NULL};
		ck_assert_int_eq(sv_cli_run(&sv_cli_export_cmd, 5, argv), 0);
	}
	text = svt_read_file(out, NULL);
	ck_assert(strstr(text, "\nmain;timestep;solve;kernel:precondition "));
	free(text);
	free(h5);
	free(out);
}
END_TEST

static Suite *tree_suite(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("writers");
	tcase_add_test(tc, test_tree_json_exact);
	tcase_add_test(tc, test_tree_collapsed_escapes);
	tcase_add_test(tc, test_tree_csv_and_text);
	tcase_add_test(tc, test_tree_command_lines);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(tree_suite());
}

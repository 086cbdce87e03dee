/*
 * test_policy.c: the architecture rules of STYLE.md that a compiler does
 * not check.  Only term.c includes curses; only the loader and the writer
 * include HDF5; every source file opens with a purpose comment; every
 * module has a public header and a test suite.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/common.h"

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static bool file_includes(const char *text, const char *header)
{
	const char *p = text;
	while ((p = strstr(p, "#include"))) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512];
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		if (strstr(line, header))
			return true;
		p += 8;
	}
	return false;
}

/* Calls fn(name, text) for every .c/.h file in dir. */
static void each_source(
	const char *dir, void (*fn)(const char *name, const char *text))
{
	char *path = sv_xasprintf("%s/%s", svt_source_root(), dir);
	DIR *d = opendir(path);
	struct dirent *e;
	ck_assert_msg(d != NULL, "cannot open %s", path);
	while ((e = readdir(d))) {
		char *f;
		char *text;
		if (!has_suffix(e->d_name, ".c") &&
			!has_suffix(e->d_name, ".h"))
			continue;
		f = sv_xasprintf("%s/%s", path, e->d_name);
		text = svt_read_file(f, NULL);
		ck_assert_msg(text != NULL, "cannot read %s", f);
		fn(e->d_name, text);
		free(text);
		free(f);
	}
	closedir(d);
	free(path);
}

static void check_curses(const char *name, const char *text)
{
	bool curses = file_includes(text, "curses.h");
	ck_assert_msg(!curses || !strcmp(name, "term.c"),
		"%s includes curses; only term.c may", name);
}

static void check_hdf5(const char *name, const char *text)
{
	bool hdf5 = file_includes(text, "hdf5.h");
	ck_assert_msg(!hdf5 || !strncmp(name, "load_h5", 7) ||
			      !strcmp(name, "write_h5.c"),
		"%s includes hdf5.h; only load_h5*.c and write_h5.c may", name);
}

static void check_purpose(const char *name, const char *text)
{
	ck_assert_msg(!strncmp(text, "/*", 2),
		"%s does not open with a purpose comment", name);
}

START_TEST(test_curses_only_in_term)
{
	each_source("src", check_curses);
	each_source("include/scopeview", check_curses);
}
END_TEST

START_TEST(test_hdf5_only_in_loader_and_writer)
{
	each_source("src", check_hdf5);
	each_source("include/scopeview", check_hdf5);
}
END_TEST

START_TEST(test_purpose_comments)
{
	each_source("src", check_purpose);
	each_source("include/scopeview", check_purpose);
	each_source("tests", check_purpose);
}
END_TEST

static void check_module_has_header_and_test(const char *name, const char *text)
{
	char base[256];
	char *hdr, *test;
	size_t n;
	(void)text;
	if (!has_suffix(name, ".c") || !strcmp(name, "main.c") ||
		!strncmp(name, "load_h5", 7))
		return;
	n = strlen(name) - 2;
	if (n >= sizeof base)
		return;
	memcpy(base, name, n);
	base[n] = '\0';
	if (!strcmp(base, "write_h5"))
		strcpy(base, "write");
	hdr = sv_xasprintf(
		"%s/include/scopeview/%s.h", svt_source_root(), base);
	test = sv_xasprintf("%s/tests/test_%s.c", svt_source_root(), base);
	ck_assert_msg(
		access(hdr, R_OK) == 0, "src/%s has no header %s", name, hdr);
	ck_assert_msg(access(test, R_OK) == 0, "src/%s has no test suite %s",
		name, test);
	free(hdr);
	free(test);
}

START_TEST(test_modules_have_header_and_tests)
{
	each_source("src", check_module_has_header_and_test);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("policy");
	TCase *t = tcase_create("includes");
	tcase_add_test(t, test_curses_only_in_term);
	tcase_add_test(t, test_hdf5_only_in_loader_and_writer);
	tcase_add_test(t, test_purpose_comments);
	tcase_add_test(t, test_modules_have_header_and_tests);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}

/*
 * helpers.c: temporary paths, fixture lookup and the Check runner shared
 * by every test suite.
 */
#include "helpers.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scopeview/common.h"

#ifndef SV_TEST_SOURCE_DIR
#define SV_TEST_SOURCE_DIR "."
#endif

static char tmp_dir[256];
static pid_t tmp_owner;

static void helpers_rm_tmp(void)
{
	DIR *d;
	struct dirent *e;

	if (!tmp_dir[0] || getpid() != tmp_owner)
		return;
	d = opendir(tmp_dir);
	if (d) {
		while ((e = readdir(d))) {
			char *p;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = sv_xasprintf("%s/%s", tmp_dir, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(tmp_dir);
}

char *svt_tmp_path(const char *name)
{
	if (!tmp_dir[0]) {
		const char *base = getenv("TMPDIR");
		snprintf(tmp_dir, sizeof tmp_dir, "%s/scopeview-test-XXXXXX",
			base && *base ? base : "/tmp");
		if (!mkdtemp(tmp_dir))
			sv_die("cannot make a temporary directory");
		tmp_owner = getpid();
		atexit(helpers_rm_tmp);
	}
	return sv_xasprintf("%s/%s", tmp_dir, name);
}

const char *svt_source_root(void)
{
	const char *s = getenv("SCOPEVIEW_SOURCE_ROOT");
	return s && *s ? s : SV_TEST_SOURCE_DIR "/..";
}

const char *svt_fixtures_dir(void)
{
	static char buf[4096];
	struct stat st;
	const char *env = getenv("SCOPEVIEW_FIXTURES");

	if (env && *env)
		return stat(env, &st) == 0 && S_ISDIR(st.st_mode) ? env : NULL;
	snprintf(buf, sizeof buf, "%s/tests/fixtures", svt_source_root());
	if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		return buf;
	return NULL;
}

char *svt_fixture(const char *name)
{
	const char *d = svt_fixtures_dir();
	return d ? sv_xasprintf("%s/%s", d, name) : NULL;
}

char *svt_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;
		sv_grow((void **)&buf, &cap, n + 65536, 1);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int svt_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

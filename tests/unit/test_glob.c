/* Path globs: matching and local expansion over a temporary directory tree. */
#include "check.h"
#include "base/err.h"
#include "io/glob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

static void touch(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs("x\n", f);
        fclose(f);
    }
}

static void mk(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    mkdir(p, 0755);
}

/* Expands root/pat and returns the matches relative to root joined with ' '. */
static const char *ex(const char *pat)
{
    static char res[4096];
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, pat);
    char **v;
    size_t n;
    if (glob_expand_local(p, &v, &n) < 0)
        return "ERROR";
    res[0] = 0;
    size_t rl = strlen(root) + 1;
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(res, " ");
        strcat(res, v[i] + rl);
    }
    glob_free(v, n);
    return res;
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/shale_glob_test_%d", (int)getpid());
    mkdir(root, 0755);
    mk("a");
    mk("a/b");
    mk("a/b/c");
    touch("f1.csv");
    touch("f2.csv");
    touch("f3.csv");
    touch("f01.csv");
    touch("f02.csv");
    touch("f10.csv");
    touch("g.tsv");
    touch("a/x.csv");
    touch("a/b/y.csv");
    touch("a/b/c/z.csv");

    CHECK(glob_has_magic("a*b") && glob_has_magic("a?") && glob_has_magic("{a,b}") && !glob_has_magic("/tmp/x.csv"));

    CHECK_STR(ex("f{3..1}.csv"), "f1.csv f2.csv f3.csv");
    CHECK_STR(ex("f{01..02}.csv"), "f01.csv f02.csv");
    CHECK_STR(ex("f{1..10}.csv"), "f1.csv f10.csv f2.csv f3.csv");
    CHECK_STR(ex("f{1,2,nope}.csv"), "f1.csv f2.csv");
    CHECK_STR(ex("f?.csv"), "f1.csv f2.csv f3.csv");
    CHECK_STR(ex("f*"), "f01.csv f02.csv f1.csv f10.csv f2.csv f3.csv");
    CHECK_STR(ex("*.tsv"), "g.tsv");
    CHECK_STR(ex("**.csv"), "f01.csv f02.csv f1.csv f10.csv f2.csv f3.csv");
    CHECK_STR(ex("**/*.csv"), "a/b/c/z.csv a/b/y.csv a/x.csv f01.csv f02.csv f1.csv f10.csv f2.csv f3.csv");
    CHECK_STR(ex("a/**"), "a/b/c/z.csv a/b/y.csv a/x.csv");
    CHECK_STR(ex("*/x.csv"), "a/x.csv");
    CHECK_STR(ex("{a/x,a/b/y}.csv"), "a/b/y.csv a/x.csv");
    CHECK_STR(ex("a/*/*/z.csv"), "a/b/c/z.csv");
    CHECK_STR(ex("nope*.csv"), "");
    CHECK_STR(ex("f1.csv"), "f1.csv");
    CHECK_STR(ex("nope.csv"), "");
    CHECK_STR(ex("{f1,f1}.csv"), "f1.csv"); /* no duplicates */
    CHECK_STR(ex("f{1..3.csv"), "ERROR");
    CHECK(err_code() == ERR_BAD_ARGUMENTS);

    CHECK(glob_match("data/*.csv", "data/a.csv"));
    CHECK(!glob_match("data/*.csv", "data/x/a.csv"));
    CHECK(glob_match("data/**.csv", "data/x/a.csv"));
    CHECK(glob_match("data/**/a.csv", "data/x/y/a.csv"));
    CHECK(glob_match("data/f?.csv", "data/f1.csv"));
    CHECK(!glob_match("data/f?.csv", "data/f12.csv"));
    CHECK(!glob_match("a?b", "a/b"));
    CHECK(glob_match("data/f{1..3}.csv", "data/f2.csv"));
    CHECK(!glob_match("data/f{1..3}.csv", "data/f4.csv"));
    CHECK(glob_match("data/f{001..010}.csv", "data/f007.csv"));
    CHECK(!glob_match("data/f{001..010}.csv", "data/f7.csv"));
    CHECK(glob_match("{a,b/c}/*.csv", "b/c/x.csv"));
    CHECK(glob_match("*a*b*c", "xxaxxbxxc"));
    CHECK(!glob_match("*a*b*c", "xxaxxbxx"));
    CHECK(glob_match("", ""));

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    return check_done("glob");
}

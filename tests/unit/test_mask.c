/* Secrets out of logged text: the query (mask_secrets) and error messages about it
 * (mask_message), as the query log and the text log record them. */
#include "check.h"
#include "base/arena.h"
#include "base/err.h"
#include "interp/mask.h"
#include "parse/ast.h"

#include <stdlib.h>
#include <string.h>

static ast *parse(arena *a, const char *sql)
{
    size_t pos = 0;
    ast *st = NULL;
    CHECK(sql_parse_statement(a, sql, strlen(sql), &pos, 1000, &st) == 0 && st);
    return st;
}

int main(void)
{
    arena a;
    arena_init(&a);
    const char *sql = "SELECT * FROM s3('http://h/b/k.csv', 'AKIA1', 'sEcReT/9', 'CSV')";
    ast *st = parse(&a, sql);
    char *t = mask_secrets(sql, strlen(sql), 0, st);
    CHECK_STR(t, "SELECT * FROM s3('http://h/b/k.csv', 'AKIA1', '[HIDDEN]', 'CSV')");
    free(t);
    char *m = mask_message("Cannot read with key AKIA1 and secret sEcReT/9 (twice: sEcReT/9)", st);
    CHECK_STR(m, "Cannot read with key AKIA1 and secret [HIDDEN] (twice: [HIDDEN])");
    free(m);
    /* a format name in the key's place: nothing is secret */
    const char *plain = "SELECT * FROM s3('http://h/b/k.csv', 'CSV', 'a String')";
    st = parse(&a, plain);
    m = mask_message("no CSV here", st);
    CHECK_STR(m, "no CSV here");
    free(m);
    m = mask_message("x", NULL);
    CHECK_STR(m, "x");
    free(m);
    arena_free(&a);
    return check_done("mask");
}

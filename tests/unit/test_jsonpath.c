/* The JSONPath parser and evaluator (func/scalar/jsonpath.h) and the JSON document scanner
 * under it (func/scalar/json_doc.h): the steps a path parses into, the errors it gives, and
 * the values a path reaches. Expected values are ClickHouse's (checked through chdb). */
#include "check.h"

#include "base/err.h"
#include "func/scalar/jsonpath.h"

#include <stdlib.h>
#include <string.h>

static jp_path *parse(const char *s)
{
    jp_path *p = NULL;
    if (jp_parse(s, strlen(s), &p) < 0)
        return NULL;
    return p;
}

/* The error code a path fails with (0 when it parses). */
static int parse_err(const char *s)
{
    jp_path *p = parse(s);
    if (p) {
        jp_free(p);
        return 0;
    }
    int code = err_code();
    err_clear();
    return code;
}

static bool collect(const jd_val *v, void *ctx)
{
    buf *b = ctx;
    if (b->len)
        buf_putc(b, '|');
    jd_to_text(v, b);
    return true;
}

/* The values path reaches in doc, as raw JSON joined by '|' (static buffer). */
static const char *eval(const char *doc, const char *path)
{
    static char out[256];
    jp_path *p = parse(path);
    jd_val root;
    if (!p || !jd_parse(doc, strlen(doc), &root)) {
        jp_free(p);
        return "<error>";
    }
    buf b = {0};
    jp_eval(p, &root, collect, &b);
    size_t n = b.len < sizeof out - 1 ? b.len : sizeof out - 1;
    memcpy(out, b.p ? (const char *)b.p : "", n);
    out[n] = 0;
    buf_free(&b);
    jp_free(p);
    return out;
}

int main(void)
{
    /* the steps */
    jp_path *p = parse(" $ .a[\"b c\"][1 to 3, 5]['d'].`e`[*] /* c */ ");
    CHECK(p && p->nsteps == 6);
    if (p && p->nsteps == 6) {
        CHECK(p->steps[0].kind == JP_KEY && strcmp(p->steps[0].key, "a") == 0);
        CHECK(p->steps[1].kind == JP_KEY && strcmp(p->steps[1].key, "b c") == 0);
        CHECK(p->steps[2].kind == JP_RANGES && p->steps[2].nranges == 2 && p->steps[2].ranges[0] == 1 &&
              p->steps[2].ranges[1] == 3 && p->steps[2].ranges[2] == 5 && p->steps[2].ranges[3] == 6);
        CHECK(p->steps[3].kind == JP_KEY && strcmp(p->steps[3].key, "d") == 0);
        CHECK(p->steps[4].kind == JP_KEY && strcmp(p->steps[4].key, "e") == 0);
        CHECK(p->steps[5].kind == JP_STAR);
    }
    jp_free(p);
    p = parse("$[0x10]");
    CHECK(p && p->nsteps == 1 && p->steps[0].ranges[0] == 16);
    jp_free(p);
    CHECK(parse_err("$") == 0);
    CHECK(parse_err("$.1a") == 0);
    CHECK(parse_err("$ -- comment") == 0);

    /* what ClickHouse rejects */
    const char *bad[] = {"", "a", "$$", "$.", "$..a", "$.a.*", "$[-1]", "$.a[", "$.a[]", "$[*, 1]", "$.a b",
                         "$.a-b", "$[\"x", "$.`x", "$[1 to]", "$[to 2]", "$[1,]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(parse_err(bad[i]) == ERR_BAD_ARGUMENTS);
    CHECK(parse_err("$[3 to 1]") == ERR_BAD_ARGUMENTS);
    CHECK(parse_err("$[0 to 0]") == ERR_BAD_ARGUMENTS);
    CHECK(parse_err("$[1.5]") == ERR_BAD_GET);

    /* evaluation */
    CHECK_STR(eval("{\"a\":{\"b\":[1,2,3]}}", "$.a.b[0]"), "1");
    CHECK_STR(eval("{\"a\":[{\"b\":1},{\"c\":2},{\"b\":3}]}", "$.a[*].b"), "1|3");
    CHECK_STR(eval("{\"a\":[1,2,3,4]}", "$.a[1 to 3]"), "2|3");
    CHECK_STR(eval("{\"a\":[1,2,3]}", "$.a[0 to 2, 2]"), "1|2|3");
    CHECK_STR(eval("{\"a\":[1,2,3]}", "$.a[2, 0, 9]"), "3|1");
    CHECK_STR(eval("{\"a\":[[1,2],[3]]}", "$.a[*][0]"), "1|3");
    CHECK_STR(eval("{\"a\":{\"b\":1}}", "$.a[0]"), "");
    CHECK_STR(eval("{\"a\":{\"b\":1}}", "$.a[*]"), "");
    CHECK_STR(eval("{\"a\":1,\"a\":2}", "$.a"), "1");
    CHECK_STR(eval("{\"a\\u0062\":5}", "$.ab"), "5");
    CHECK_STR(eval("{\"a\":1}", "$"), "{\"a\":1}");
    CHECK_STR(eval("{\"a\":1", "$"), "<error>");

    /* the document scanner's validity rules */
    jd_val v;
    const char *valid[] = {"1", "-0", "1e-400", "18446744073709551615", "\"\\ud83d\\ude00\"", " [ ] ", "{\"\":\"\"}"};
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++)
        CHECK(jd_parse(valid[i], strlen(valid[i]), &v));
    const char *invalid[] = {"", "01", "1.", ".5", "+1", "1e400", "18446744073709551616", "-9223372036854775809",
                             "\"\\ud83d\"", "\"\\udc00\"", "[1,]", "{\"a\":1,}", "\"\t\"", "\"\xff\"", "nul", "1 2"};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        CHECK(!jd_parse(invalid[i], strlen(invalid[i]), &v));
    CHECK(jd_parse("18446744073709551615", 20, &v) && v.kind == JD_UINT64);
    CHECK(jd_parse("-9223372036854775808", 20, &v) && v.kind == JD_INT64 && jd_int64(&v) == INT64_MIN);
    return check_done("jsonpath");
}

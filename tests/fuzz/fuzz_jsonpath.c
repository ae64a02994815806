/* libFuzzer target: the JSONPath parser and evaluator and the JSON document scanner
 * (func/scalar/jsonpath.h, json_doc.h). The input is "path\ndocument": the path is parsed
 * (it must parse or fail with an error, never crash), the document validated, and a parsed
 * path evaluated over a valid document, every value reached serialized back. */
#include "base/err.h"
#include "func/scalar/jsonpath.h"

#include <string.h>

static bool visit(const jd_val *v, void *ctx)
{
    buf *b = ctx;
    jd_to_text(v, b);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *s = (const char *)d;
    const char *nl = memchr(s, '\n', n);
    size_t pl = nl ? (size_t)(nl - s) : n;
    const char *doc = nl ? nl + 1 : s + n;
    size_t dl = n - pl - (nl ? 1 : 0);
    jp_path *p = NULL;
    if (jp_parse(s, pl, &p) < 0)
        err_clear();
    jd_val root;
    if (jd_parse(doc, dl, &root)) {
        buf b = {0};
        jd_to_text(&root, &b);
        if (p)
            jp_eval(p, &root, visit, &b);
        buf_free(&b);
    }
    jp_free(p);
    return 0;
}

/* libFuzzer target: parses every statement of the input and formats it; must never crash. */
#include "base/err.h"
#include "parse/ast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    arena a;
    arena_init(&a);
    const char *s = (const char *)d;
    size_t pos = 0;
    (void)sql_statement_end(s, n, 0);
    while (pos < n) {
        ast *st = NULL;
        size_t before = pos;
        if (sql_parse_statement(&a, s, n, &pos, 1000, &st) < 0 || !st)
            break;
        buf b = {0};
        ast_format_sql(&b, st);
        ast_dump(&b, st, 0);
        if (st->sub && st->sub->kind == AST_SELECT)
            for (int k = 0; k < st->sub->select.n; k++)
                ast_format_name(&b, st->sub->select.items[k]);
        buf_free(&b);
        if (pos <= before)
            break;
    }
    arena_free(&a);
    return 0;
}

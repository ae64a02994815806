#include "storage/structure.h"

#include "base/err.h"
#include "base/mem.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int structure_parse(const char *s, size_t n, schema **out)
{
    /* Split on commas at parenthesis depth 0 outside quotes. */
    size_t starts[4096], ends[4096];
    int count = 0, depth = 0;
    char quote = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : ',';
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '`' || c == '"')
            quote = c;
        else if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if (c == ',' && depth == 0) {
            if (count == 4096)
                return err_set(ERR_BAD_ARGUMENTS, "Too many columns in the structure");
            starts[count] = start;
            ends[count] = i;
            count++;
            start = i + 1;
        }
    }
    schema *sch = schema_new(count);
    for (int k = 0; k < count; k++) {
        const char *p = s + starts[k], *e = s + ends[k];
        while (p < e && isspace((unsigned char)*p))
            p++;
        const char *name_start, *name_end;
        if (p < e && (*p == '`' || *p == '"')) {
            char q = *p++;
            name_start = p;
            while (p < e && *p != q)
                p++;
            name_end = p;
            if (p < e)
                p++;
        } else {
            name_start = p;
            while (p < e && !isspace((unsigned char)*p))
                p++;
            name_end = p;
        }
        while (p < e && isspace((unsigned char)*p))
            p++;
        while (e > p && isspace((unsigned char)e[-1]))
            e--;
        if (name_end == name_start || p == e) {
            schema_free(sch);
            return err_set(ERR_SYNTAX_ERROR, "Cannot parse the table structure '%.*s': expected 'name Type' in element %d",
                           (int)n, s, k + 1);
        }
        const type *t = type_parse(p, (size_t)(e - p));
        if (!t) {
            schema_free(sch);
            return err_prefix("In the table structure '%.*s': ", (int)n, s);
        }
        char *name = xstrndup(name_start, (size_t)(name_end - name_start));
        schema_set(sch, k, name, t);
        free(name);
    }
    *out = sch;
    return 0;
}

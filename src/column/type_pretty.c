#include "column/type_pretty.h"

#include <string.h>

/* min_fields: the fewest fields a named tuple needs to go over several lines (1 for type
 * names, 2 for SHOW CREATE, which formats the column's type AST). */
static bool has_pretty(const type *t, int min_fields)
{
    if (t->id == T_TUPLE) {
        if (t->field_names && t->nfields >= min_fields)
            return true;
        for (int i = 0; i < t->nfields; i++)
            if (has_pretty(t->fields[i], min_fields))
                return true;
        return false;
    }
    if (t->id == T_ARRAY || t->id == T_NULLABLE || t->id == T_LOWCARDINALITY)
        return has_pretty(t->inner, min_fields);
    if (t->id == T_MAP) /* the keys and values, not the Tuple that stores them */
        return has_pretty(t->inner->fields[0], min_fields) || has_pretty(t->inner->fields[1], min_fields);
    return false;
}

bool type_has_pretty_name(const type *t) { return has_pretty(t, 1); }

static void pretty(buf *out, const type *t, int indent, int min_fields)
{
    if (!has_pretty(t, min_fields)) {
        buf_puts(out, t->name);
        return;
    }
    switch (t->id) {
    case T_ARRAY: buf_puts(out, "Array("); break;
    case T_NULLABLE: buf_puts(out, "Nullable("); break;
    case T_LOWCARDINALITY: buf_puts(out, "LowCardinality("); break;
    default: break;
    }
    if (t->id == T_MAP) {
        buf_puts(out, "Map(");
        pretty(out, t->inner->fields[0], indent, min_fields);
        buf_puts(out, ", ");
        pretty(out, t->inner->fields[1], indent, min_fields);
        buf_putc(out, ')');
        return;
    }
    if (t->id != T_TUPLE) {
        pretty(out, t->inner, indent, min_fields);
        buf_putc(out, ')');
        return;
    }
    buf_puts(out, "Tuple(");
    for (int i = 0; i < t->nfields; i++) {
        if (t->field_names && t->nfields >= min_fields) {
            buf_puts(out, i ? ",\n" : "\n");
            for (int k = 0; k < 4 * (indent + 1); k++)
                buf_putc(out, ' ');
            buf_puts(out, t->field_names[i]);
            buf_putc(out, ' ');
            pretty(out, t->fields[i], indent + 1, min_fields);
        } else {
            if (i)
                buf_puts(out, ", ");
            if (t->field_names) {
                buf_puts(out, t->field_names[i]);
                buf_putc(out, ' ');
            }
            pretty(out, t->fields[i], indent, min_fields);
        }
    }
    buf_putc(out, ')');
}

void type_pretty_name(buf *out, const type *t, int indent) { pretty(out, t, indent, 1); }

void type_pretty_name_ddl(buf *out, const type *t, int indent) { pretty(out, t, indent, 2); }

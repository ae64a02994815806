#include "column/type_pretty.h"

#include <string.h>

bool type_has_pretty_name(const type *t)
{
    if (t->id == T_TUPLE) {
        if (t->field_names && t->nfields > 0)
            return true;
        for (int i = 0; i < t->nfields; i++)
            if (type_has_pretty_name(t->fields[i]))
                return true;
        return false;
    }
    if (t->id == T_ARRAY || t->id == T_NULLABLE || t->id == T_LOWCARDINALITY)
        return type_has_pretty_name(t->inner);
    return false;
}

void type_pretty_name(buf *out, const type *t, int indent)
{
    if (!type_has_pretty_name(t)) {
        buf_puts(out, t->name);
        return;
    }
    switch (t->id) {
    case T_ARRAY: buf_puts(out, "Array("); break;
    case T_NULLABLE: buf_puts(out, "Nullable("); break;
    case T_LOWCARDINALITY: buf_puts(out, "LowCardinality("); break;
    default: break;
    }
    if (t->id != T_TUPLE) {
        type_pretty_name(out, t->inner, indent);
        buf_putc(out, ')');
        return;
    }
    buf_puts(out, "Tuple(");
    for (int i = 0; i < t->nfields; i++) {
        if (t->field_names) {
            buf_puts(out, i ? ",\n" : "\n");
            for (int k = 0; k < 4 * (indent + 1); k++)
                buf_putc(out, ' ');
            buf_puts(out, t->field_names[i]);
            buf_putc(out, ' ');
            type_pretty_name(out, t->fields[i], indent + 1);
        } else {
            if (i)
                buf_puts(out, ", ");
            type_pretty_name(out, t->fields[i], indent);
        }
    }
    buf_putc(out, ')');
}

/* ClickHouse's "pretty" type names (setting print_pretty_type_names, on by default), used
 * by DESCRIBE, toTypeName and SHOW CREATE TABLE: a named Tuple puts each field on its own
 * line, indented by four spaces per nesting level of named tuples:
 *
 *   Tuple(a Int32, b Tuple(c UInt8))  →  Tuple(\n    a Int32,\n    b Tuple(\n        c UInt8))
 *
 * Unnamed tuples and every other type keep their one-line spelling around the tuples
 * they contain (Array(Tuple(\n    x UInt8))).
 *
 * Pure functions of the type; thread-safe. */
#ifndef SHALE_COLUMN_TYPE_PRETTY_H
#define SHALE_COLUMN_TYPE_PRETTY_H

#include "base/buf.h"
#include "column/type.h"

#include <stdbool.h>

/* Appends t's pretty name to out; indent is the nesting level (0 at the top). */
void type_pretty_name(buf *out, const type *t, int indent);
/* SHOW CREATE TABLE's spelling: the same, but a named tuple of one field stays on one line.
 * A column's type there starts at indent 1. */
void type_pretty_name_ddl(buf *out, const type *t, int indent);
/* Whether the pretty name differs from t->name (t contains a named tuple). */
bool type_has_pretty_name(const type *t);

#endif

/* block: a horizontal slice of a result, one column per output column, all of `rows` rows.
 * schema: the names and types that describe the columns of a stream of blocks.
 *
 * A block owns its columns (one reference each). Blocks flow between operators by
 * ownership transfer: whoever receives a block frees it. Not thread-safe. */
#ifndef SHALE_COLUMN_BLOCK_H
#define SHALE_COLUMN_BLOCK_H

#include "column/column.h"

typedef struct schema {
    int n;
    char **names;          /* owned */
    const type **types;
} schema;

schema *schema_new(int n);
void schema_set(schema *s, int i, const char *name, const type *t);
schema *schema_clone(const schema *s);
int schema_find(const schema *s, const char *name); /* index or -1 */
void schema_free(schema *s);

typedef struct block {
    size_t rows;
    int ncols;
    column **cols;
} block;

block *block_new(int ncols, size_t rows);           /* columns NULL until set */
block *block_new_empty(const schema *s);            /* empty columns of s's types */
void block_free(block *b);
size_t block_bytes(const block *b);
/* Appends all rows of src to dst (same column types). */
void block_append(block *dst, const block *src);
block *block_slice(const block *b, size_t from, size_t n);

#endif

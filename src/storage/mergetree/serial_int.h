/* Internals shared by serial.c and serial_lowcard.c (not a public interface). */
#ifndef SHALE_STORAGE_MERGETREE_SERIAL_INT_H
#define SHALE_STORAGE_MERGETREE_SERIAL_INT_H

#include "storage/mergetree/serial.h"

typedef enum { N_FIXED, N_STRING, N_NULLABLE, N_ARRAY, N_TUPLE, N_LOWCARD, N_SPARSE, N_AGGSTATE } mt_node_kind;

typedef struct mt_lc_state mt_lc_state;

typedef struct mt_node {
    mt_node_kind kind;
    const type *t;          /* physical type of the column at this level */
    size_t width;           /* N_FIXED */
    int stream;             /* data / .null / .sizeN / LowCardinality keys (indexes) */
    int stream2;            /* LowCardinality .dict; String .size (-1: single-stream form) */
    struct mt_node **kids;
    int nkids;
    bool lc_nullable;       /* LowCardinality(Nullable(K)) */
    const type *lc_key_type; /* K */
    mt_lc_state *lc;
    /* N_SPARSE (stream = .sparse.idx, kids[0] = the values): the decoder's position in
     * the offsets — sp_defaults default rows are still due before the next token, then a
     * non-default value when sp_value. */
    uint64_t sp_defaults;
    bool sp_value;
    buf sp_pos; /* scratch: row positions (uint64) of the non-default values of one read */
} mt_node;

struct mt_serial {
    char *name;  /* column name */
    char *base;  /* escaped name */
    char **names;
    int nstreams, cap_streams;
    mt_node *root;
    buf scratch;
    buf scratch2; /* coded reading: one value that crosses a block's end */
    size_t lc_max_dict; /* low_cardinality_max_dictionary_size */
    mt_serial_opts opts;
};

void mt_put_varuint(buf *b, uint64_t v);
void mt_leaf_bulk(const column *c, size_t from, size_t n, buf *b);
int mt_src_read(mt_serial *s, int stream, mt_byte_src *srcs, void *dst, size_t n);
int mt_src_varuint(mt_serial *s, int stream, mt_byte_src *srcs, uint64_t *v);
int mt_read_leaf(mt_serial *s, int stream, mt_byte_src *srcs, column *c, size_t n);

void mt_lc_free(mt_node *nd);
void mt_lc_write_prefix(mt_serial *s, mt_node *nd, mt_byte_sink *sinks);
void mt_lc_write(mt_serial *s, mt_node *nd, const column *c, size_t from, size_t n, mt_byte_sink *sinks);
void mt_lc_write_suffix(mt_serial *s, mt_node *nd, mt_byte_sink *sinks);
int mt_lc_read_start(mt_serial *s, mt_node *nd, mt_byte_src *srcs, bool at_part_start);
int mt_lc_read(mt_serial *s, mt_node *nd, column *c, size_t n, mt_byte_src *srcs);

#endif

/* Parquet input format: schema mapping (ClickHouse's rules) and the column reader that
 * plugs into the input-format registry through rd_bin (format/rd.h).
 *
 * The reader reads the file with positioned reads when the rbuf is over a local file
 * (only the footer and the column chunks of the selected columns), and otherwise reads the
 * whole stream into memory first. Row groups are read one after another; each selected
 * column chunk is decoded whole and handed out in blocks of at most 65409 rows.
 * Errors: -1 with err_set naming the file, column and byte offset. Not thread-safe. */
#ifndef SHALE_FORMAT_PARQUET_READER_H
#define SHALE_FORMAT_PARQUET_READER_H

#include "format/parquet/thrift.h"
#include "format/rd.h"

int parquet_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out);
int parquet_infer_schema(rbuf *in, const fmt_settings *st, schema **out);

/* Reads and decodes the footer of a Parquet file held in memory (tests, fuzzing). */
pq_meta *parquet_read_meta_mem(const uint8_t *p, size_t n, const char *name);

#endif

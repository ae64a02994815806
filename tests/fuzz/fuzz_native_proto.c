/* libFuzzer target: arbitrary bytes as what a client sends to the native protocol's
 * server (src/format/native_proto.h). The first byte picks the peer's revision (an old,
 * a middle and the current layout) and whether Data blocks are compressed; the rest is a
 * stream of client packets, parsed as the server parses them until one fails. Whatever
 * block decodes is encoded again for the same revision. */
#include "base/err.h"
#include "format/native_block.h"
#include "format/native_proto.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 1)
        return 0;
    static const uint64_t revisions[] = {54429, 54454, 54460, NATIVE_SERVER_REVISION};
    uint64_t rev = revisions[d[0] & 3];
    bool compressed = (d[0] >> 2) & 1;
    rbuf *in = rbuf_new(instream_from_memory(d + 1, n - 1, "fuzz"), 64);
    for (int packets = 0; packets < 64; packets++) {
        uint64_t type;
        if (native_read_varuint(in, &type))
            break;
        int rc = -1;
        if (type == NC_HELLO) {
            native_hello h;
            rc = native_read_hello(in, &h);
            native_hello_free(&h);
            if (!rc)
                rc = native_read_addendum(in, rev);
        } else if (type == NC_QUERY) {
            native_query q;
            rc = native_read_query(in, rev, &q);
            native_query_free(&q);
        } else if (type == NC_DATA || type == NC_SCALAR) {
            schema *s;
            block *b;
            rc = native_read_data(in, rev, compressed, &s, &b);
            if (!rc) {
                buf out = {0};
                native_block_write(&out, s, b, rev);
                buf_free(&out);
                schema_free(s);
                block_free(b);
            }
        } else if (type == NC_TABLES_STATUS_REQUEST) {
            char **names;
            int count;
            rc = native_read_tables_status(in, &names, &count);
            for (int i = 0; !rc && i < 2 * count; i++)
                free(names[i]);
            free(names);
        } else if (type == NC_PING || type == NC_CANCEL) {
            rc = 0;
        }
        if (rc)
            break;
    }
    err_clear();
    rbuf_free(in);
    return 0;
}

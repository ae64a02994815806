/* libFuzzer target: arbitrary bytes as what a server sends to shale's native-protocol
 * client (the server-packet readers of src/format/native_proto.h that
 * storage/native_client.c uses). The first byte picks the negotiated revision and whether
 * Data blocks are compressed; then the server's Hello, then a stream of server packets
 * parsed as the client parses them until one fails. */
#include "base/err.h"
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
    native_server_hello h = {0};
    uint64_t type;
    int rc = native_read_varuint(in, &type);
    if (!rc)
        rc = native_read_server_hello(in, rev, &h);
    native_server_hello_free(&h);
    for (int packets = 0; !rc && packets < 64; packets++) {
        if (native_read_varuint(in, &type))
            break;
        rc = -1;
        if (type == NS_DATA || type == NS_TOTALS || type == NS_EXTREMES || type == NS_LOG ||
            type == NS_PROFILE_EVENTS) {
            schema *s;
            block *b;
            rc = native_read_data(in, rev, compressed && type <= NS_EXTREMES, &s, &b);
            if (!rc) {
                schema_free(s);
                block_free(b);
            }
        } else if (type == NS_EXCEPTION) {
            int code;
            char *msg;
            rc = native_read_exception(in, &code, &msg);
            free(msg);
        } else if (type == NS_PROGRESS) {
            native_progress p;
            rc = native_read_progress(in, rev, &p);
        } else if (type == NS_PROFILE_INFO) {
            native_profile_info p;
            rc = native_read_profile_info(in, rev, &p);
        } else if (type == NS_TABLE_COLUMNS) {
            char *text;
            rc = native_read_table_columns(in, &text);
            free(text);
        } else if (type == NS_TIMEZONE_UPDATE) {
            char *tz;
            rc = native_read_string(in, "the time zone", &tz);
            free(tz);
        } else if (type == NS_PONG || type == NS_END_OF_STREAM) {
            rc = 0;
        }
    }
    err_clear();
    rbuf_free(in);
    return 0;
}

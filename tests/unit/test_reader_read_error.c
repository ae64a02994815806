/* A read error on a text format's first read is an error, not an empty input: the reader
 * used to peek for a byte order mark and drop the failure, and a stream that answers its
 * next read with a clean end (an HTTP body, a decompressor) then inserted nothing, silently. */
#include "check.h"
#include "base/err.h"
#include "column/block.h"
#include "format/format.h"
#include "storage/structure.h"

#include <stdlib.h>
#include <string.h>

typedef struct flaky {
    instream base;
    int reads;
} flaky;

static int flaky_read(instream *s, void *dst, size_t cap, size_t *got)
{
    flaky *f = (flaky *)s;
    (void)dst;
    (void)cap;
    *got = 0;
    if (f->reads++ == 0)
        return err_set(ERR_CANNOT_READ_ALL_DATA, "the first read fails");
    return 0; /* then a clean end */
}

static void flaky_close(instream *s) { free(s); }

int main(void)
{
    const char *formats[] = {"TabSeparated", "CSV", "JSONEachRow", "TSVWithNames"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        schema *sch;
        CHECK(structure_parse("n UInt64", 8, &sch) == 0);
        flaky *f = calloc(1, sizeof *f);
        f->base.read = flaky_read;
        f->base.close = flaky_close;
        f->base.name = "flaky";
        fmt_settings st;
        fmt_settings_default(&st);
        fmt_reader *r = NULL;
        int rc = fmt_reader_new(formats[i], rbuf_new(&f->base, 1 << 16), sch, &st, &r);
        block *b = NULL;
        if (rc == 0)
            rc = fmt_reader_next(r, &b);
        CHECK(rc == -1 && err_code() == ERR_CANNOT_READ_ALL_DATA);
        if (b)
            block_free(b);
        if (r)
            fmt_reader_free(r);
        schema_free(sch);
    }
    return check_done("reader_read_error");
}

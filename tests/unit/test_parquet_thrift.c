/* Thrift compact protocol decoding and FileMetaData, including malformed input. */
#include "check.h"

#include "base/err.h"
#include "format/parquet/thrift.h"

int main(void)
{
    /* varints, zigzag, field deltas, long field ids, bools, binary, lists, skipping */
    {
        const uint8_t d[] = {
            0x15, 0x04,             /* field 1 i32 zigzag(2) */
            0x16, 0xd1, 0x0f,       /* field 2 i64 zigzag(1000) = -1001? -> value -1001 */
            0x11,                   /* field 3 bool true */
            0x18, 0x03, 'a', 'b', 'c', /* field 4 binary */
            0x19, 0x35, 0x02, 0x04, 0x06, /* field 5 list<i32> of 3: 1, 2, 3 */
            0x05, 0xc8, 0x01, 0x02, /* field id 100 (long form), i32 1 */
            0x1c, 0x15, 0x02, 0x00, /* field 101 struct { field 1 i32 } skipped */
            0x00};
        th_rd t;
        th_init(&t, d, sizeof d, 0, "test");
        int16_t last = 0, id;
        int ft;
        CHECK(th_field(&t, &last, &id, &ft) && id == 1 && ft == TH_I32);
        CHECK(th_i32(&t, ft) == 2);
        CHECK(th_field(&t, &last, &id, &ft) && id == 2 && ft == TH_I64);
        CHECK(th_i64(&t, ft) == -1001);
        CHECK(th_field(&t, &last, &id, &ft) && id == 3 && th_bool(&t, ft));
        CHECK(th_field(&t, &last, &id, &ft) && id == 4);
        uint32_t n;
        const uint8_t *p = th_binary(&t, &n);
        CHECK(n == 3 && memcmp(p, "abc", 3) == 0);
        CHECK(th_field(&t, &last, &id, &ft) && id == 5 && ft == TH_LIST);
        int et;
        CHECK(th_list(&t, &et) == 3 && et == TH_I32);
        CHECK(th_i32(&t, et) == 1 && th_i32(&t, et) == 2 && th_i32(&t, et) == 3);
        CHECK(th_field(&t, &last, &id, &ft) && id == 100 && th_i32(&t, ft) == 1);
        CHECK(th_field(&t, &last, &id, &ft) && id == 101 && ft == TH_STRUCT);
        th_skip(&t, ft);
        CHECK(!th_field(&t, &last, &id, &ft) && !t.failed);
    }
    /* errors: truncated varint, oversized binary, oversized list, deep nesting */
    {
        const uint8_t d[] = {0x15, 0x80};
        th_rd t;
        th_init(&t, d, sizeof d, 100, "footer");
        int16_t last = 0, id;
        int ft;
        CHECK(th_field(&t, &last, &id, &ft));
        th_i32(&t, ft);
        CHECK(t.failed && strstr(t.msg, "at byte 102"));
    }
    {
        const uint8_t d[] = {0x08, 0x7f, 'x'};
        th_rd t;
        th_init(&t, d + 1, 2, 0, "x");
        uint32_t n;
        th_binary(&t, &n);
        CHECK(t.failed && n == 0);
        (void)d;
    }
    {
        const uint8_t d[] = {0xf5, 0xff, 0x7f};
        th_rd t;
        th_init(&t, d, sizeof d, 0, "x");
        int et;
        CHECK(th_list(&t, &et) == 0 && t.failed);
    }
    {
        uint8_t d[400];
        for (int i = 0; i < 400; i++)
            d[i] = 0x1c; /* struct field inside struct field ... */
        th_rd t;
        th_init(&t, d, sizeof d, 0, "x");
        th_skip(&t, TH_STRUCT);
        CHECK(t.failed);
    }
    /* FileMetaData: version 1, schema [root(1 child), a INT32 REQUIRED], num_rows 5, no row groups */
    {
        const uint8_t d[] = {0x15, 0x02,                                                   /* version 1 */
                             0x19, 0x2c,                                                   /* schema: 2 structs */
                             0x48, 0x06, 's', 'c', 'h', 'e', 'm', 'a', 0x15, 0x02, 0x00,  /* name, num_children 1 */
                             0x15, 0x02, 0x25, 0x00, 0x18, 0x01, 'a', 0x00,               /* type INT32, REQUIRED, a */
                             0x16, 0x0a,                                                   /* num_rows 5 */
                             0x19, 0x0c,                                                   /* row groups: empty */
                             0x00};
        pq_meta *m = pq_meta_decode(d, sizeof d, 0, "t.parquet");
        CHECK(m != NULL);
        if (m) {
            CHECK(m->version == 1 && m->nschema == 2 && m->num_rows == 5 && m->nrgs == 0);
            CHECK_STR(m->schema[1].name, "a");
            CHECK(m->schema[1].type == PQ_INT32 && m->schema[1].repetition == PQ_REQUIRED);
            CHECK(m->schema[0].num_children == 1 && m->schema[0].type == -1);
        }
        pq_meta_free(m);
        /* every truncation fails cleanly */
        for (size_t k = 0; k < sizeof d; k++) {
            pq_meta *x = pq_meta_decode(d, k, 1000, "t.parquet");
            CHECK(x == NULL && err_code() == ERR_INCORRECT_DATA && strstr(err_msg(), "t.parquet"));
            pq_meta_free(x);
        }
    }
    /* page header */
    {
        const uint8_t d[] = {0x15, 0x00, 0x15, 0x14, 0x15, 0x14, 0x2c, 0x15, 0x06, 0x15, 0x00, 0x15, 0x06, 0x15,
                             0x06, 0x00, 0x00};
        pq_page_header h;
        size_t used;
        CHECK(pq_page_header_decode(d, sizeof d, 0, "f", &h, &used) == 0);
        CHECK(h.type == PQ_PAGE_DATA && h.compressed_size == 10 && h.num_values == 3 && h.def_encoding == 3);
        CHECK(used == sizeof d);
        CHECK(pq_page_header_decode(d, 5, 0, "f", &h, &used) == 1);
    }
    return check_done("parquet_thrift");
}

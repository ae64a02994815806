#include "format/parquet/thrift_write.h"

#include <string.h>

void tw_init(tw *t, buf *b)
{
    t->b = b;
    t->depth = 0;
    t->last[0] = 0;
}

void tw_varint(buf *b, uint64_t v)
{
    uint8_t tmp[10];
    int n = 0;
    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    buf_append(b, tmp, (size_t)n);
}

static void zigzag(buf *b, int64_t v) { tw_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

void tw_field(tw *t, int16_t id, int type)
{
    int16_t *last = &t->last[t->depth];
    int delta = id - *last;
    if (delta > 0 && delta <= 15) {
        buf_putc(t->b, (char)(delta << 4 | type));
    } else {
        buf_putc(t->b, (char)type);
        zigzag(t->b, id);
    }
    *last = id;
}

void tw_i32(tw *t, int16_t id, int32_t v)
{
    tw_field(t, id, TH_I32);
    zigzag(t->b, v);
}

void tw_i64(tw *t, int16_t id, int64_t v)
{
    tw_field(t, id, TH_I64);
    zigzag(t->b, v);
}

void tw_bool(tw *t, int16_t id, bool v) { tw_field(t, id, v ? TH_TRUE : TH_FALSE); }

void tw_binary(tw *t, int16_t id, const void *p, size_t n)
{
    tw_field(t, id, TH_BINARY);
    tw_varint(t->b, n);
    buf_append(t->b, p, n);
}

void tw_string(tw *t, int16_t id, const char *s) { tw_binary(t, id, s, strlen(s)); }

static void push(tw *t)
{
    if (t->depth < TW_MAX_DEPTH - 1)
        t->depth++;
    t->last[t->depth] = 0;
}

void tw_struct_begin(tw *t, int16_t id)
{
    tw_field(t, id, TH_STRUCT);
    push(t);
}

void tw_struct_end(tw *t)
{
    buf_putc(t->b, TH_STOP);
    if (t->depth > 0)
        t->depth--;
}

void tw_list(tw *t, int16_t id, int etype, uint32_t n)
{
    tw_field(t, id, TH_LIST);
    if (n < 15) {
        buf_putc(t->b, (char)(n << 4 | (uint32_t)etype));
    } else {
        buf_putc(t->b, (char)(0xF0 | etype));
        tw_varint(t->b, n);
    }
}

void tw_elem_begin(tw *t) { push(t); }
void tw_elem_i32(tw *t, int32_t v) { zigzag(t->b, v); }

void tw_elem_binary(tw *t, const void *p, size_t n)
{
    tw_varint(t->b, n);
    buf_append(t->b, p, n);
}

void tw_stop(tw *t) { buf_putc(t->b, TH_STOP); }

/* Output formats against outputs of ClickHouse 26.7 (chdb) for the same data. */
#include "check.h"
#include "out_test_util.h"

typedef struct memout {
    outstream os;
    buf b;
} memout;

static int mem_write(outstream *s, const void *p, size_t n)
{
    buf_append(&((memout *)s)->b, p, n);
    return 0;
}

/* Runs format over the blocks and returns the output (static buffer). */
static const char *run(const char *fmt, const schema *sc, block **blocks, int nb, const fmt_stats *st)
{
    static memout m;
    m.os.write = mem_write;
    m.b.len = 0;
    fmt_settings fs;
    fmt_settings_default(&fs);
    fmt_writer *w;
    if (fmt_writer_new(fmt, sc, &fs, &m.os, &w) < 0)
        return "(error)";
    for (int i = 0; i < nb; i++)
        fmt_writer_write(w, blocks[i]);
    fmt_writer_finish(w, st);
    fmt_writer_free(w);
    return buf_cstr(&m.b);
}

/* SELECT number, toString(number) s FROM numbers(n) [split in blocks of `per` rows] */
static int numbers_blocks(size_t n, size_t per, schema **sc, block **out)
{
    *sc = schema_new(2);
    schema_set(*sc, 0, "number", type_parse_cstr("UInt64"));
    schema_set(*sc, 1, "s", type_parse_cstr("String"));
    int nb = 0;
    for (size_t from = 0; from < n; from += per) {
        block *b = block_new_empty(*sc);
        for (size_t i = from; i < n && i < from + per; i++) {
            uint64_t v = i;
            col_push_fixed(b->cols[0], &v);
            char t[24];
            int l = snprintf(t, sizeof t, "%zu", i);
            col_push_str(b->cols[1], t, (size_t)l);
        }
        b->rows = b->cols[0]->len;
        out[nb++] = b;
    }
    return nb;
}

int main(void)
{
    CHECK_STR(fmt_output_canonical("TSV"), "TabSeparated");
    CHECK_STR(fmt_output_canonical("JSONLines"), "JSONEachRow");
    CHECK(fmt_output_canonical("Nope") == NULL);

    schema *sc;
    block *bl[16];
    int nb = numbers_blocks(3, 2, &sc, bl); /* two blocks: 2 + 1 rows */
    fmt_stats st = {.elapsed = 0.011432701, .rows_read = 3, .bytes_read = 24};

    CHECK_STR(run("TSV", sc, bl, nb, &st), "0\t0\n1\t1\n2\t2\n");
    CHECK_STR(run("TSVWithNamesAndTypes", sc, bl, nb, &st), "number\ts\nUInt64\tString\n0\t0\n1\t1\n2\t2\n");
    CHECK_STR(run("CSVWithNames", sc, bl, nb, &st), "\"number\",\"s\"\n0,\"0\"\n1,\"1\"\n2,\"2\"\n");
    CHECK_STR(run("JSONEachRow", sc, bl, nb, &st),
              "{\"number\":0,\"s\":\"0\"}\n{\"number\":1,\"s\":\"1\"}\n{\"number\":2,\"s\":\"2\"}\n");
    CHECK_STR(run("JSONCompactEachRow", sc, bl, nb, &st), "[0, \"0\"]\n[1, \"1\"]\n[2, \"2\"]\n");
    CHECK_STR(run("Values", sc, bl, nb, &st), "(0,'0'),(1,'1'),(2,'2')");
    CHECK_STR(run("Null", sc, bl, nb, &st), "");
    CHECK_STR(run("Markdown", sc, bl, nb, &st), "| number | s |\n|-:|:-|\n| 0 | 0 |\n| 1 | 1 |\n| 2 | 2 |\n");
    CHECK_STR(run("JSON", sc, bl, nb, &st),
              "{\n\t\"meta\":\n\t[\n\t\t{\n\t\t\t\"name\": \"number\",\n\t\t\t\"type\": \"UInt64\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"s\",\n\t\t\t\"type\": \"String\"\n\t\t}\n\t],\n\n"
              "\t\"data\":\n\t[\n\t\t{\n\t\t\t\"number\": 0,\n\t\t\t\"s\": \"0\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"number\": 1,\n\t\t\t\"s\": \"1\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"number\": 2,\n\t\t\t\"s\": \"2\"\n\t\t}\n\t],\n\n"
              "\t\"rows\": 3,\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0.011432701,\n"
              "\t\t\"rows_read\": 3,\n\t\t\"bytes_read\": 24\n\t}\n}\n");
    fmt_stats st2 = {.elapsed = 0.5, .rows_read = 2, .bytes_read = 16, .rows_before_limit = 2,
                     .has_rows_before_limit = true};
    CHECK_STR(run("JSONCompact", sc, bl, 1, &st2),
              "{\n\t\"meta\":\n\t[\n\t\t{\n\t\t\t\"name\": \"number\",\n\t\t\t\"type\": \"UInt64\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"s\",\n\t\t\t\"type\": \"String\"\n\t\t}\n\t],\n\n"
              "\t\"data\":\n\t[\n\t\t[0, \"0\"],\n\t\t[1, \"1\"]\n\t],\n\n"
              "\t\"rows\": 2,\n\n\t\"rows_before_limit_at_least\": 2,\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0.5,\n"
              "\t\t\"rows_read\": 2,\n\t\t\"bytes_read\": 16\n\t}\n}\n");
    /* 0 rows */
    fmt_stats st0 = {.elapsed = 0.25};
    CHECK_STR(run("JSON", sc, bl, 0, &st0),
              "{\n\t\"meta\":\n\t[\n\t\t{\n\t\t\t\"name\": \"number\",\n\t\t\t\"type\": \"UInt64\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"s\",\n\t\t\t\"type\": \"String\"\n\t\t}\n\t],\n\n"
              "\t\"data\":\n\t[\n\n\t],\n\n\t\"rows\": 0,\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0.25,\n"
              "\t\t\"rows_read\": 0,\n\t\t\"bytes_read\": 0\n\t}\n}\n");
    CHECK_STR(run("PrettyCompact", sc, bl, 0, &st0), "");
    CHECK_STR(run("Pretty", sc, bl, 0, &st0), "");

    /* Pretty family; blocks are squashed into one table as 26.7 does */
    CHECK_STR(run("PrettyCompact", sc, bl, nb, &st),
              "   ┌─number─┬─s─┐\n1. │      0 │ 0 │\n2. │      1 │ 1 │\n3. │      2 │ 2 │\n   └────────┴───┘\n");
    CHECK_STR(run("Pretty", sc, bl, nb, &st),
              "   ┏━━━━━━━━┳━━━┓\n   ┃ number ┃ s ┃\n   ┡━━━━━━━━╇━━━┩\n1. │      0 │ 0 │\n"
              "   ├────────┼───┤\n2. │      1 │ 1 │\n   ├────────┼───┤\n3. │      2 │ 2 │\n   └────────┴───┘\n");
    CHECK_STR(run("PrettySpace", sc, bl, 1, &st), "    number   s\n\n1.       0   0 \n2.       1   1 \n");
    CHECK_STR(run("Vertical", sc, bl, nb, &st),
              "Row 1:\n──────\nnumber: 0\ns:      0\n\nRow 2:\n──────\nnumber: 1\ns:      1\n\n"
              "Row 3:\n──────\nnumber: 2\ns:      2\n");
    for (int i = 0; i < nb; i++)
        block_free(bl[i]);
    schema_free(sc);

    /* UTF-8 width, multi-line values, NULL: SELECT 'é世' u, 'x\nyyy' s2, NULL n */
    schema *s2 = schema_new(3);
    schema_set(s2, 0, "u", type_parse_cstr("String"));
    schema_set(s2, 1, "s2", type_parse_cstr("String"));
    schema_set(s2, 2, "n", type_parse_cstr("Nullable(Nothing)"));
    block *b2 = block_new_empty(s2);
    col_push_str(b2->cols[0], "é世", strlen("é世"));
    col_push_str(b2->cols[1], "x\nyyy", 5);
    col_push_null(b2->cols[2]);
    b2->rows = 1;
    CHECK_STR(run("PrettyCompact", s2, &b2, 1, &st),
              "   ┌─u───┬─s2──┬─n────┐\n1. │ é世 │ x  ↴│ ᴺᵁᴸᴸ │\n   │     │↳yyy │      │\n   └─────┴─────┴──────┘\n");
    CHECK_STR(run("TSV", s2, &b2, 1, &st), "é世\tx\\nyyy\t\\N\n");
    CHECK_STR(run("CSV", s2, &b2, 1, &st), "\"é世\",\"x\nyyy\",\\N\n");
    CHECK_STR(run("JSONEachRow", s2, &b2, 1, &st), "{\"u\":\"é世\",\"s2\":\"x\\nyyy\",\"n\":null}\n");
    CHECK_STR(run("RawBLOB", s2, &b2, 1, &st), "é世x\nyyy\\N");
    block_free(b2);
    schema_free(s2);

    /* Single large number tip: SELECT 1234567 x */
    schema *s3 = schema_new(1);
    schema_set(s3, 0, "x", type_parse_cstr("UInt32"));
    block *b3 = block_new_empty(s3);
    uint32_t big = 1234567;
    col_push_fixed(b3->cols[0], &big);
    b3->rows = 1;
    CHECK_STR(run("PrettyCompact", s3, &b3, 1, &st),
              "   ┌───────x─┐\n1. │ 1234567 │ -- 1.23 million\n   └─────────┘\n");
    block_free(b3);
    schema_free(s3);

    /* Many rows: footer with names from 50 rows; cut after pretty_max_rows (1000) */
    nb = numbers_blocks(1001, 400, &sc, bl);
    const char *out = run("PrettyCompact", sc, bl, nb, &st);
    CHECK(strstr(out, " 500. │    499 │ 499  │\n      ─ ─ ─ ─ ─ ─ ─ ─ ─\n 502. │    501 │ 501  │\n") != NULL);
    CHECK(strstr(out, "1001. │   1000 │ 1000 │\n      └─number─┴─s────┘\nShowed 1000 out of 1001 rows.\n") != NULL);
    for (int i = 0; i < nb; i++)
        block_free(bl[i]);
    schema_free(sc);
    return check_done("formats_out");
}

/* Backup manifests: JSON round trip, LSNs, malformed input, lookup. */
#include "check.h"
#include "backup/backup.h"
#include "backup/manifest.h"
#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

int main(void)
{
    char s[24];
    bk_lsn_format(0x1600000028ull, s);
    CHECK_STR(s, "16/28");
    uint64_t lsn;
    CHECK(bk_lsn_parse("0/9005FB0", &lsn) == 0 && lsn == 0x9005FB0ull);
    CHECK(bk_lsn_parse("A/0", &lsn) == 0 && lsn == 0xA00000000ull);
    CHECK(bk_lsn_parse("12", &lsn) == -1);
    CHECK(bk_lsn_parse("0/1x", &lsn) == -1);

    bk_manifest m = {0};
    m.name = xstrdup("20261201T100000Z");
    m.parent = xstrdup("20261130T100000Z");
    m.tool_version = xstrdup(BK_TOOL_VERSION);
    m.start_time = xstrdup("2026-12-01T10:00:00Z");
    m.stop_time = xstrdup("2026-12-01T10:00:05Z");
    m.start_lsn = 0x1000000028ull;
    m.stop_lsn = 0x1000000100ull;
    m.timeline = 3;
    m.system_id = xstrdup("7301234567890123456");
    m.pg_version = 150018;
    m.backup_label = xstrdup("START WAL LOCATION: 10/28 (file 000000030000001000000000)\nLABEL: \"x\"\t\\\n");
    m.tablespace_map = xstrdup("16390 /data/ts one\n");
    m.compression = xstrdup("lz4");
    m.settings = (bk_settings_used){.read_size = 4u << 20, .concurrency = 24, .direct_io = true,
                                    .buffer_limit = 1u << 30, .buffer_planned = 100u << 20, .part_size = 16u << 20,
                                    .parts_in_flight = 3, .cpu_weight = 25, .compression = "lz4"};
    m.objects = calloc(2, sizeof *m.objects);
    m.objects[m.nobjects++] = xstrdup("data/0-0.lz4");
    m.objects[m.nobjects++] = xstrdup("data/1-0.lz4");
    m.tblspcs = calloc(1, sizeof *m.tblspcs);
    m.tblspcs[0] = (bk_tblspc){xstrdup("16390"), xstrdup("/data/ts one")};
    m.ntblspcs = 1;
    m.files = calloc(3, sizeof *m.files);
    m.files[0] = (bk_file){.path = xstrdup("global/1262"), .type = BK_FILE, .mode = 0600, .mtime = 1764583200,
                           .size = 3u << 20, .direct = true, .sum = 0xfedcba9876543210ull};
    m.files[0].blocks = calloc(2, sizeof(bk_block));
    m.files[0].blocks[0] = (bk_block){0, 0, 0, 1234, 1u << 20, 0x0123456789abcdefull};
    m.files[0].blocks[1] = (bk_block){2, 1, 99999, 77, 5000, 42};
    m.files[0].nblocks = 2;
    m.files[1] = (bk_file){.path = xstrdup("base"), .type = BK_DIR, .mode = 0700, .mtime = 5};
    m.files[2] = (bk_file){.path = xstrdup("base/5/16384"), .type = BK_FILE, .mode = 0600, .delta = true,
                           .size = 8192 * 3};
    m.nfiles = 3;
    m.stored_bytes = 1311;
    m.sum_of_blocks = true;
    m.block_sum = BK_SUM_XXH3;
    bk_manifest_sort(&m);
    buf j = {0};
    bk_manifest_to_json(&m, &j);

    bk_manifest r;
    CHECK(bk_manifest_from_json((const char *)j.p, j.len, "test", &r) == 0);
    CHECK_STR(r.name, m.name);
    CHECK_STR(r.parent, m.parent);
    CHECK_STR(r.backup_label, m.backup_label);
    CHECK_STR(r.tablespace_map, m.tablespace_map);
    CHECK_STR(r.system_id, m.system_id);
    CHECK(r.start_lsn == m.start_lsn && r.stop_lsn == m.stop_lsn && r.timeline == 3 && r.pg_version == 150018);
    CHECK(r.settings.read_size == 4u << 20 && r.settings.concurrency == 24 && r.settings.direct_io &&
          r.settings.cpu_weight == 25 && r.settings.parts_in_flight == 3 && !strcmp(r.settings.compression, "lz4"));
    CHECK(r.nobjects == 2 && r.ntblspcs == 1 && !strcmp(r.tblspcs[0].path, "/data/ts one"));
    CHECK(r.nfiles == 3 && r.stored_bytes == 1311 && r.sum_of_blocks && r.block_sum == BK_SUM_XXH3);
    const bk_file *f = bk_manifest_find(&r, "global/1262");
    CHECK(f && f->type == BK_FILE && f->size == 3u << 20 && f->sum == 0xfedcba9876543210ull && f->direct && !f->delta);
    CHECK(f && f->nblocks == 2 && f->blocks[1].idx == 2 && f->blocks[1].obj == 1 && f->blocks[1].off == 99999 &&
          f->blocks[1].zlen == 77 && f->blocks[1].rawlen == 5000 && f->blocks[1].sum == 42 &&
          f->blocks[0].sum == 0x0123456789abcdefull);
    f = bk_manifest_find(&r, "base/5/16384");
    CHECK(f && f->delta && f->nblocks == 0);
    f = bk_manifest_find(&r, "base");
    CHECK(f && f->type == BK_DIR && f->mode == 0700);
    CHECK(bk_manifest_find(&r, "base/5") == NULL);
    /* the same JSON again */
    buf j2 = {0};
    bk_manifest_to_json(&r, &j2);
    CHECK(j.len == j2.len && memcmp(j.p, j2.p, j.len) == 0);
    bk_manifest_free(&r);

    /* malformed manifests are errors, never crashes */
    const char *bad[] = {"", "{", "[]", "{\"format\": \"other\"}", "{\"format\": \"shale-backup-manifest-1\"}",
                         "{\"format\": \"shale-backup-manifest-1\", \"name\": 5}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(bk_manifest_from_json(bad[i], strlen(bad[i]), "bad", &r) == -1);
    }
    /* a block pointing at an object that does not exist */
    char *t = xstrdup((const char *)buf_cstr(&j));
    char *p = strstr(t, "[2, 1, 99999");
    CHECK(p != NULL);
    if (p) {
        p[4] = '7';
        CHECK(bk_manifest_from_json(t, strlen(t), "bad", &r) == -1);
        CHECK(strstr(err_msg(), "out of range") != NULL);
    }
    free(t);
    /* file_checksum: absent = a manifest from before it (bytes hashed directly); unknown = error */
    t = xstrdup((const char *)buf_cstr(&j));
    p = strstr(t, "\"file_checksum\": \"xxh64-of-blocks\",");
    CHECK(p != NULL);
    if (p) {
        memmove(p, p + strlen("\"file_checksum\": \"xxh64-of-blocks\","),
                strlen(p + strlen("\"file_checksum\": \"xxh64-of-blocks\",")) + 1);
        CHECK(bk_manifest_from_json(t, strlen(t), "old", &r) == 0 && !r.sum_of_blocks);
        bk_manifest_free(&r);
    }
    free(t);
    t = xstrdup((const char *)buf_cstr(&j));
    p = strstr(t, "xxh64-of-blocks");
    CHECK(p != NULL);
    if (p) {
        p[0] = 'y';
        CHECK(bk_manifest_from_json(t, strlen(t), "new", &r) == -1 && strstr(err_msg(), "file_checksum") != NULL);
    }
    free(t);
    /* block_checksum: absent = XXH64 (manifests from before it); unknown = error; the two
     * algorithms give different sums, so a manifest read with the wrong one fails verify */
    t = xstrdup((const char *)buf_cstr(&j));
    p = strstr(t, "\"block_checksum\": \"xxh3\",");
    CHECK(p != NULL);
    if (p) {
        const size_t fl = strlen("\"block_checksum\": \"xxh3\",");
        memmove(p, p + fl, strlen(p + fl) + 1);
        CHECK(bk_manifest_from_json(t, strlen(t), "old", &r) == 0 && r.block_sum == BK_SUM_XXH64);
        CHECK(bk_block_sum(&r, "shale", 5) == XXH64("shale", 5, 0));
        r.block_sum = BK_SUM_XXH3;
        CHECK(bk_block_sum(&r, "shale", 5) == XXH3_64bits("shale", 5) &&
              bk_block_sum(&r, "shale", 5) != XXH64("shale", 5, 0));
        bk_manifest_free(&r);
    }
    free(t);
    t = xstrdup((const char *)buf_cstr(&j));
    p = strstr(t, "\"xxh3\"");
    CHECK(p != NULL);
    if (p) {
        p[1] = 'y';
        CHECK(bk_manifest_from_json(t, strlen(t), "new", &r) == -1 && strstr(err_msg(), "block_checksum") != NULL);
    }
    free(t);
    /* every truncation of a valid manifest fails cleanly */
    for (size_t cut = 0; cut + 1 < j.len; cut += 97)
        CHECK(bk_manifest_from_json((const char *)j.p, cut, "cut", &r) == -1);
    buf_free(&j);
    buf_free(&j2);
    bk_manifest_free(&m);
    return check_done("backup_manifest");
}

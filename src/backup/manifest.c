/* Backup manifests: JSON form, lookup and the listing of complete backups (manifest.h). */
#include "backup/manifest.h"

#include "backup/bjson.h"
#include "base/err.h"
#include "base/mem.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxh_x86dispatch.h>
#include <xxhash.h>

#define MANIFEST_FORMAT "shale-backup-manifest-1"

void bk_lsn_format(uint64_t lsn, char out[24])
{
    snprintf(out, 24, "%X/%X", (unsigned)(lsn >> 32), (unsigned)lsn);
}

int bk_lsn_parse(const char *s, uint64_t *lsn)
{
    unsigned hi, lo;
    int used = 0;
    if (!s || sscanf(s, "%X/%X%n", &hi, &lo, &used) != 2 || s[used])
        return err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse LSN '%s' (expected X/X in hexadecimal)", s ? s : "");
    *lsn = (uint64_t)hi << 32 | lo;
    return 0;
}

void bk_manifest_free(bk_manifest *m)
{
    free(m->name);
    free(m->parent);
    free(m->tool_version);
    free(m->start_time);
    free(m->stop_time);
    free(m->system_id);
    free(m->backup_label);
    free(m->tablespace_map);
    free(m->compression);
    for (size_t i = 0; i < m->nobjects; i++)
        free(m->objects[i]);
    free(m->objects);
    for (size_t i = 0; i < m->nfiles; i++) {
        free(m->files[i].path);
        free(m->files[i].blocks);
    }
    free(m->files);
    for (size_t i = 0; i < m->ntblspcs; i++) {
        free(m->tblspcs[i].oid);
        free(m->tblspcs[i].path);
    }
    free(m->tblspcs);
    memset(m, 0, sizeof *m);
}

static void put_kv_str(buf *b, const char *k, const char *v, bool comma)
{
    buf_printf(b, "  \"%s\": ", k);
    bjson_put_str(b, v);
    buf_puts(b, comma ? ",\n" : "\n");
}

void bk_manifest_to_json(const bk_manifest *m, buf *b)
{
    char a[24], z[24];
    bk_lsn_format(m->start_lsn, a);
    bk_lsn_format(m->stop_lsn, z);
    buf_puts(b, "{\n");
    put_kv_str(b, "format", MANIFEST_FORMAT, true);
    put_kv_str(b, "name", m->name, true);
    put_kv_str(b, "kind", m->parent ? "delta" : "full", true);
    put_kv_str(b, "parent", m->parent, true);
    put_kv_str(b, "tool_version", m->tool_version, true);
    put_kv_str(b, "start_time", m->start_time, true);
    put_kv_str(b, "stop_time", m->stop_time, true);
    put_kv_str(b, "start_lsn", a, true);
    put_kv_str(b, "stop_lsn", z, true);
    buf_printf(b, "  \"timeline\": %u,\n", m->timeline);
    put_kv_str(b, "system_identifier", m->system_id, true);
    buf_printf(b, "  \"pg_version\": %d,\n", m->pg_version);
    put_kv_str(b, "compression", m->compression, true);
    if (m->sum_of_blocks)
        put_kv_str(b, "file_checksum", "xxh64-of-blocks", true);
    if (m->block_sum == BK_SUM_XXH3)
        put_kv_str(b, "block_checksum", "xxh3", true);
    buf_printf(b, "  \"block_size\": %u,\n", 1u << 20);
    buf_printf(b, "  \"stored_bytes\": %" PRIu64 ",\n", m->stored_bytes);
    const bk_settings_used *s = &m->settings;
    buf_printf(b,
               "  \"settings\": {\"read_size\": %" PRIu64 ", \"concurrency\": %d, \"direct_io\": %s, "
               "\"buffer_limit\": %" PRIu64 ", \"buffer_planned\": %" PRIu64 ", \"part_size\": %" PRIu64
               ", \"parts_in_flight\": %d, \"cpu_weight\": %d, \"compression\": \"%s\", \"level\": %d},\n",
               s->read_size, s->concurrency, s->direct_io ? "true" : "false", s->buffer_limit, s->buffer_planned,
               s->part_size, s->parts_in_flight, s->cpu_weight, s->compression, s->level);
    put_kv_str(b, "backup_label", m->backup_label, true);
    put_kv_str(b, "tablespace_map", m->tablespace_map, true);
    buf_puts(b, "  \"tablespaces\": [");
    for (size_t i = 0; i < m->ntblspcs; i++) {
        buf_puts(b, i ? ", {\"oid\": " : "{\"oid\": ");
        bjson_put_str(b, m->tblspcs[i].oid);
        buf_puts(b, ", \"path\": ");
        bjson_put_str(b, m->tblspcs[i].path);
        buf_putc(b, '}');
    }
    buf_puts(b, "],\n  \"objects\": [");
    for (size_t i = 0; i < m->nobjects; i++) {
        if (i)
            buf_puts(b, ", ");
        bjson_put_str(b, m->objects[i]);
    }
    buf_puts(b, "],\n  \"files\": [\n");
    for (size_t i = 0; i < m->nfiles; i++) {
        const bk_file *f = &m->files[i];
        buf_puts(b, "    {\"path\": ");
        bjson_put_str(b, f->path);
        buf_printf(b, ", \"type\": \"%s\", \"mode\": %u, \"mtime\": %" PRId64, f->type == BK_DIR ? "dir" : "file",
                   f->mode, f->mtime);
        if (f->type == BK_FILE) {
            buf_printf(b, ", \"size\": %" PRIu64 ", \"delta\": %s, \"direct_io\": %s, \"checksum\": \"%016" PRIx64 "\"",
                       f->size, f->delta ? "true" : "false", f->direct ? "true" : "false", f->sum);
            buf_puts(b, ", \"blocks\": [");
            for (size_t k = 0; k < f->nblocks; k++) {
                const bk_block *bl = &f->blocks[k];
                buf_printf(b, "%s[%u, %u, %" PRIu64 ", %u, %u, \"%016" PRIx64 "\"]", k ? ", " : "", bl->idx, bl->obj,
                           bl->off, bl->zlen, bl->rawlen, bl->sum);
            }
            buf_putc(b, ']');
        }
        buf_puts(b, i + 1 < m->nfiles ? "},\n" : "}\n");
    }
    buf_puts(b, "  ]\n}\n");
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static int bad(const char *what, const char *why)
{
    return err_set(ERR_CORRUPTED_DATA, "Manifest %s is invalid: %s", what, why);
}

static int parse_hex64(const bjson *v, uint64_t *out)
{
    if (!v || v->kind != BJ_STR || strlen(v->s) != 16)
        return -1;
    char *end;
    *out = strtoull(v->s, &end, 16);
    return *end ? -1 : 0;
}

int bk_manifest_from_json(const char *text, size_t len, const char *what, bk_manifest *m)
{
    memset(m, 0, sizeof *m);
    bjson *j = bjson_parse(text, len, what);
    if (!j)
        return err_code() == ERR_CORRUPTED_DATA ? -1 : (err_prefix("Manifest: "), -1);
    int rc = 0;
    const char *fmt = bjson_str(j, "format");
    if (j->kind != BJ_OBJ || !fmt || strcmp(fmt, MANIFEST_FORMAT) != 0) {
        rc = bad(what, "not a shale backup manifest (format)");
        goto done;
    }
    m->name = dup_or_null(bjson_str(j, "name"));
    m->parent = dup_or_null(bjson_str(j, "parent"));
    m->tool_version = dup_or_null(bjson_str(j, "tool_version"));
    m->start_time = dup_or_null(bjson_str(j, "start_time"));
    m->stop_time = dup_or_null(bjson_str(j, "stop_time"));
    m->system_id = dup_or_null(bjson_str(j, "system_identifier"));
    m->backup_label = dup_or_null(bjson_str(j, "backup_label"));
    m->tablespace_map = dup_or_null(bjson_str(j, "tablespace_map"));
    m->compression = dup_or_null(bjson_str(j, "compression"));
    const char *fsum = bjson_str(j, "file_checksum");
    if (fsum && strcmp(fsum, "xxh64-of-blocks") != 0) {
        rc = bad(what, "unknown file_checksum (written by a newer shale?)");
        goto done;
    }
    m->sum_of_blocks = fsum != NULL;
    const char *bsum = bjson_str(j, "block_checksum");
    if (bsum && strcmp(bsum, "xxh3") != 0) {
        rc = bad(what, "unknown block_checksum (written by a newer shale?)");
        goto done;
    }
    m->block_sum = bsum ? BK_SUM_XXH3 : BK_SUM_XXH64;
    m->timeline = (uint32_t)bjson_u64(j, "timeline", 0);
    m->pg_version = (int)bjson_i64(j, "pg_version", 0);
    m->stored_bytes = bjson_u64(j, "stored_bytes", 0);
    if (!m->name || !m->compression || bk_lsn_parse(bjson_str(j, "start_lsn"), &m->start_lsn) ||
        bk_lsn_parse(bjson_str(j, "stop_lsn"), &m->stop_lsn)) {
        err_clear();
        rc = bad(what, "name, compression or LSNs missing");
        goto done;
    }
    if (bjson_u64(j, "block_size", 0) != (1u << 20)) {
        rc = bad(what, "block_size is not 1048576");
        goto done;
    }
    const bjson *s = bjson_get(j, "settings");
    bk_settings_used *su = &m->settings;
    su->read_size = bjson_u64(s, "read_size", 0);
    su->concurrency = (int)bjson_i64(s, "concurrency", 0);
    su->direct_io = bjson_bool(s, "direct_io", false);
    su->buffer_limit = bjson_u64(s, "buffer_limit", 0);
    su->buffer_planned = bjson_u64(s, "buffer_planned", 0);
    su->part_size = bjson_u64(s, "part_size", 0);
    su->parts_in_flight = (int)bjson_i64(s, "parts_in_flight", 0);
    su->cpu_weight = (int)bjson_i64(s, "cpu_weight", 0);
    su->level = (int)bjson_i64(s, "level", 0);
    snprintf(su->compression, sizeof su->compression, "%s", bjson_str(s, "compression") ? bjson_str(s, "compression") : "");
    const bjson *ts = bjson_get(j, "tablespaces");
    if (ts && ts->kind == BJ_ARR) {
        m->tblspcs = xcalloc(ts->n + 1, sizeof *m->tblspcs);
        for (size_t i = 0; i < ts->n; i++) {
            const char *oid = bjson_str(ts->items[i], "oid"), *p = bjson_str(ts->items[i], "path");
            if (!oid || !p) {
                rc = bad(what, "a tablespace without oid or path");
                goto done;
            }
            m->tblspcs[m->ntblspcs].oid = xstrdup(oid);
            m->tblspcs[m->ntblspcs++].path = xstrdup(p);
        }
    }
    const bjson *objs = bjson_get(j, "objects");
    const bjson *files = bjson_get(j, "files");
    if (!objs || objs->kind != BJ_ARR || !files || files->kind != BJ_ARR) {
        rc = bad(what, "objects or files missing");
        goto done;
    }
    m->objects = xcalloc(objs->n + 1, sizeof *m->objects);
    for (size_t i = 0; i < objs->n; i++) {
        if (objs->items[i]->kind != BJ_STR) {
            rc = bad(what, "an object name is not a string");
            goto done;
        }
        m->objects[m->nobjects++] = xstrdup(objs->items[i]->s);
    }
    m->files = xcalloc(files->n + 1, sizeof *m->files);
    for (size_t i = 0; i < files->n; i++) {
        const bjson *fj = files->items[i];
        const char *path = bjson_str(fj, "path"), *type = bjson_str(fj, "type");
        if (!path || !type || (strcmp(type, "file") && strcmp(type, "dir"))) {
            rc = bad(what, "a file entry without path or type");
            goto done;
        }
        bk_file *f = &m->files[m->nfiles++];
        f->path = xstrdup(path);
        f->type = type[0] == 'd' ? BK_DIR : BK_FILE;
        f->mode = (uint32_t)bjson_u64(fj, "mode", 0600);
        f->mtime = bjson_i64(fj, "mtime", 0);
        if (f->type == BK_DIR)
            continue;
        f->size = bjson_u64(fj, "size", 0);
        f->delta = bjson_bool(fj, "delta", false);
        f->direct = bjson_bool(fj, "direct_io", false);
        const bjson *bl = bjson_get(fj, "blocks");
        if (parse_hex64(bjson_get(fj, "checksum"), &f->sum) || !bl || bl->kind != BJ_ARR) {
            rc = bad(what, "a file without checksum or blocks");
            goto done;
        }
        f->blocks = xcalloc(bl->n + 1, sizeof *f->blocks);
        for (size_t k = 0; k < bl->n; k++) {
            const bjson *e = bl->items[k];
            bk_block *b = &f->blocks[f->nblocks++];
            if (e->kind != BJ_ARR || e->n != 6 || parse_hex64(e->items[5], &b->sum)) {
                rc = bad(what, "a malformed block entry");
                goto done;
            }
            b->idx = (uint32_t)bjson_as_u64(e->items[0]);
            b->obj = (uint32_t)bjson_as_u64(e->items[1]);
            b->off = bjson_as_u64(e->items[2]);
            b->zlen = (uint32_t)bjson_as_u64(e->items[3]);
            b->rawlen = (uint32_t)bjson_as_u64(e->items[4]);
            if (b->obj >= m->nobjects || b->rawlen > (1u << 20) + 16 ||
                (uint64_t)b->idx * (1u << 20) >= f->size + (1u << 20)) {
                rc = bad(what, "a block entry out of range");
                goto done;
            }
        }
    }
    bk_manifest_sort(m);
done:
    bjson_free(j);
    if (rc)
        bk_manifest_free(m);
    return rc;
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const bk_file *)a)->path, ((const bk_file *)b)->path);
}

void bk_manifest_sort(bk_manifest *m)
{
    if (m->nfiles)
        qsort(m->files, m->nfiles, sizeof *m->files, cmp_file);
}

uint64_t bk_block_sum(const bk_manifest *m, const void *p, size_t n)
{
    /* the _dispatch entry picks SSE2, AVX2 or AVX-512 at run time (Debian's libxxhash) */
    return m->block_sum == BK_SUM_XXH3 ? XXH3_64bits_dispatch(p, n) : XXH64(p, n, 0);
}

const bk_file *bk_manifest_find(const bk_manifest *m, const char *path)
{
    bk_file key = {.path = (char *)path};
    return m->nfiles ? bsearch(&key, m->files, m->nfiles, sizeof *m->files, cmp_file) : NULL;
}

char *bk_backup_key(const char *name, const char *tail)
{
    size_t n = strlen(name) + strlen(tail) + 16;
    char *k = xmalloc(n);
    snprintf(k, n, "backups/%s/%s", name, tail);
    return k;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int bk_list_names(bk_repo *r, char ***names, size_t *n)
{
    char **keys;
    uint64_t *sizes;
    size_t nk;
    if (bk_repo_list(r, "backups/", &keys, &sizes, &nk))
        return -1;
    char **out = xcalloc(nk + 1, sizeof *out);
    size_t no = 0;
    for (size_t i = 0; i < nk; i++) {
        const char *k = keys[i] + strlen("backups/");
        const char *sl = strchr(k, '/');
        if (strncmp(keys[i], "backups/", 8) == 0 && sl && strcmp(sl, "/manifest.json") == 0) {
            out[no] = xmalloc((size_t)(sl - k) + 1);
            memcpy(out[no], k, (size_t)(sl - k));
            out[no++][sl - k] = 0;
        }
    }
    bk_repo_list_free(keys, sizes, nk);
    qsort(out, no, sizeof *out, cmp_str);
    *names = out;
    *n = no;
    return 0;
}

void bk_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int bk_manifest_load(bk_repo *r, const char *name, bk_manifest *m)
{
    char *chosen = NULL;
    if (strcmp(name, "LATEST") == 0) {
        char **names;
        size_t n;
        if (bk_list_names(r, &names, &n))
            return -1;
        if (n == 0) {
            bk_names_free(names, n);
            return err_set(ERR_FILE_DOESNT_EXIST, "Repository %s holds no complete backup (LATEST)", bk_repo_url(r));
        }
        chosen = xstrdup(names[n - 1]);
        bk_names_free(names, n);
    } else {
        if (!*name || strchr(name, '/') || strstr(name, ".."))
            return err_set(ERR_BAD_ARGUMENTS, "Bad backup name '%s'", name);
        chosen = xstrdup(name);
    }
    char *key = bk_backup_key(chosen, "manifest.json");
    buf b = {0};
    bool missing = false;
    int rc = bk_repo_get(r, key, &b, &missing);
    if (!rc && missing)
        rc = err_set(ERR_FILE_DOESNT_EXIST, "Backup '%s' does not exist in %s (no complete backup of that name)", chosen,
                     bk_repo_url(r));
    if (!rc)
        rc = bk_manifest_from_json((const char *)b.p, b.len, key, m);
    if (!rc && strcmp(m->name, chosen) != 0) {
        rc = err_set(ERR_CORRUPTED_DATA, "Manifest %s names another backup ('%s')", key, m->name);
        bk_manifest_free(m);
    }
    buf_free(&b);
    free(key);
    free(chosen);
    return rc;
}

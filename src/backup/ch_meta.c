/* The `.backup` file of a ClickHouse BACKUP (see ch_meta.h). */
#include "backup/ch_meta.h"

#include "base/err.h"
#include "base/mem.h"
#include "io/xml.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ch_meta_add(ch_meta *m, const char *name, uint64_t size, u128 checksum, bool use_base, const char *data_file)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 32;
        m->files = xrealloc(m->files, m->cap * sizeof *m->files);
    }
    m->files[m->n++] = (ch_meta_file){.name = xstrdup(name),
                                      .size = size,
                                      .checksum = checksum,
                                      .use_base = use_base,
                                      .data_file = data_file ? xstrdup(data_file) : NULL};
}

const ch_meta_file *ch_meta_find(const ch_meta *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->files[i].name, name) == 0)
            return &m->files[i];
    return NULL;
}

void ch_meta_checksum_hex(u128 sum, char out[33])
{
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, sum.hi, sum.lo);
}

/* Text content needs only & < > escaped (ClickHouse writes quotes as they are). */
static void put_escaped(buf *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': buf_puts(out, "&amp;"); break;
        case '<': buf_puts(out, "&lt;"); break;
        case '>': buf_puts(out, "&gt;"); break;
        default: buf_putc(out, *s);
        }
    }
}

static void put_elem(buf *out, const char *tag, const char *text)
{
    buf_printf(out, "<%s>", tag);
    put_escaped(out, text);
    buf_printf(out, "</%s>", tag);
}

void ch_meta_format(const ch_meta *m, buf *out)
{
    buf_puts(out, "<config><version>1</version>");
    buf_printf(out, "<deduplicate_files>%d</deduplicate_files>", m->deduplicate_files ? 1 : 0);
    put_elem(out, "timestamp", m->timestamp);
    put_elem(out, "uuid", m->uuid);
    put_elem(out, "backup_id", m->uuid);
    if (m->base_backup) {
        put_elem(out, "base_backup", m->base_backup);
        put_elem(out, "base_backup_uuid", m->base_uuid);
    }
    buf_puts(out, "<contents>");
    for (size_t i = 0; i < m->n; i++) {
        const ch_meta_file *f = &m->files[i];
        buf_puts(out, "<file>");
        put_elem(out, "name", f->name);
        buf_printf(out, "<size>%" PRIu64 "</size>", f->size);
        if (f->size) {
            char hex[33];
            ch_meta_checksum_hex(f->checksum, hex);
            buf_printf(out, "<checksum>%s</checksum>", hex);
        }
        if (f->use_base)
            buf_puts(out, "<use_base>true</use_base>");
        if (f->data_file)
            put_elem(out, "data_file", f->data_file);
        buf_puts(out, "</file>");
    }
    buf_puts(out, "</contents></config>");
}

static int parse_hex128(const char *s, size_t n, u128 *out)
{
    if (n != 32)
        return -1;
    uint64_t part[2] = {0, 0};
    for (size_t i = 0; i < 32; i++) {
        char c = s[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0)
            return -1;
        part[i / 16] = part[i / 16] << 4 | (uint64_t)v;
    }
    out->hi = part[0];
    out->lo = part[1];
    return 0;
}

static int parse_u64(const char *s, size_t n, uint64_t *out)
{
    if (n == 0 || n > 20)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

/* The unescaped text of <tag> in [p, end) into a fixed buffer; false when absent. */
static bool text_into(const char *p, const char *end, const char *tag, char *dst, size_t cap)
{
    const char *v;
    size_t n;
    if (!xml_find(p, end, tag, &v, &n, NULL))
        return false;
    buf b = {0};
    xml_unescape(&b, v, n);
    snprintf(dst, cap, "%.*s", (int)b.len, b.p ? (const char *)b.p : "");
    buf_free(&b);
    return true;
}

int ch_meta_parse(const char *text, size_t len, const char *where, ch_meta *out)
{
    memset(out, 0, sizeof *out);
    const char *end = text + len, *v;
    size_t n;
    if (!xml_find(text, end, "config", &v, &n, NULL))
        return err_set(ERR_BACKUP_DAMAGED, "Backup %s is damaged: its .backup file has no <config> element", where);
    const char *cfg = v, *cend = v + n;
    char version[16] = "";
    text_into(cfg, cend, "version", version, sizeof version);
    if (strcmp(version, "1") != 0)
        return err_set(ERR_BACKUP_DAMAGED, "Backup %s: version '%s' of its .backup file is not supported (1 is)",
                       where, version);
    char dedup[8] = "0";
    text_into(cfg, cend, "deduplicate_files", dedup, sizeof dedup);
    out->deduplicate_files = strcmp(dedup, "1") == 0 || strcmp(dedup, "true") == 0;
    text_into(cfg, cend, "timestamp", out->timestamp, sizeof out->timestamp);
    text_into(cfg, cend, "uuid", out->uuid, sizeof out->uuid);
    /* The base is named before <contents>: search only there (file entries have no such tag). */
    const char *contents;
    size_t clen;
    if (!xml_find(cfg, cend, "contents", &contents, &clen, NULL)) {
        contents = cend;
        clen = 0;
    }
    if (xml_find(cfg, contents, "base_backup", &v, &n, NULL)) {
        buf b = {0};
        xml_unescape(&b, v, n);
        out->base_backup = xstrndup(b.p ? (const char *)b.p : "", b.len);
        buf_free(&b);
        text_into(cfg, contents, "base_backup_uuid", out->base_uuid, sizeof out->base_uuid);
    }
    const char *p = contents, *pend = contents + clen;
    int rc = 0;
    while (!rc && xml_find(p, pend, "file", &v, &n, &p)) {
        const char *fe = v + n, *x;
        size_t xl;
        buf name = {0};
        if (!xml_find(v, fe, "name", &x, &xl, NULL)) {
            rc = err_set(ERR_BACKUP_DAMAGED, "Backup %s is damaged: a file entry of its .backup has no name", where);
            break;
        }
        xml_unescape(&name, x, xl);
        const char *nm = buf_cstr(&name);
        uint64_t size = 0;
        u128 sum = {0, 0};
        if (!xml_find(v, fe, "size", &x, &xl, NULL) || parse_u64(x, xl, &size))
            rc = err_set(ERR_BACKUP_DAMAGED, "Backup %s is damaged: file %s has no valid <size>", where, nm);
        if (!rc && size && (!xml_find(v, fe, "checksum", &x, &xl, NULL) || parse_hex128(x, xl, &sum)))
            rc = err_set(ERR_BACKUP_DAMAGED, "Backup %s is damaged: file %s has no valid <checksum>", where, nm);
        if (!rc && (xml_find(v, fe, "base_size", &x, &xl, NULL) || xml_find(v, fe, "encrypted_by_disk", &x, &xl, NULL)))
            rc = err_set(ERR_NOT_IMPLEMENTED, "Backup %s: file %s is stored partly in the base backup (base_size) or "
                         "encrypted; shale restores only whole files", where, nm);
        bool use_base = false;
        if (!rc && xml_find(v, fe, "use_base", &x, &xl, NULL))
            use_base = (xl == 4 && memcmp(x, "true", 4) == 0) || (xl == 1 && *x == '1');
        buf data_file = {0};
        if (!rc && xml_find(v, fe, "data_file", &x, &xl, NULL))
            xml_unescape(&data_file, x, xl);
        if (!rc)
            ch_meta_add(out, nm, size, sum, use_base, data_file.len ? buf_cstr(&data_file) : NULL);
        buf_free(&data_file);
        buf_free(&name);
    }
    if (rc)
        ch_meta_free(out);
    return rc;
}

void ch_meta_free(ch_meta *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->files[i].name);
        free(m->files[i].data_file);
    }
    free(m->files);
    free(m->base_backup);
    memset(m, 0, sizeof *m);
}

int ch_meta_file_checksum(const char *path, uint64_t *size, u128 *sum)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(ERR_CANNOT_OPEN_FILE, "Cannot open %s: %s", path, strerror(errno));
    mt_hasher h;
    mt_hasher_init(&h);
    enum { CHUNK = 1 << 20 };
    char *b = xmalloc(CHUNK);
    int rc = 0;
    for (;;) {
        ssize_t r = read(fd, b, CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = err_set(ERR_CANNOT_READ_ALL_DATA, "Cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (r == 0)
            break;
        mt_hasher_update(&h, b, (size_t)r);
    }
    free(b);
    close(fd);
    if (!rc) {
        *size = h.total;
        *sum = mt_hasher_final(&h);
    }
    return rc;
}

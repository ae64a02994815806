#include "storage/schema_cache.h"

#include "base/buf.h"
#include "base/mem.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct entry {
    char *storage, *source, *format, *info, *version;
    schema *sch;
    time_t registered;
} entry;

/* A small process-wide list: a session sees few distinct objects, and a linear scan under
 * the mutex costs nothing next to one object's inference. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *entries;
static size_t nentries, capentries;

static void entry_free(entry *e)
{
    free(e->storage);
    free(e->source);
    free(e->format);
    free(e->info);
    free(e->version);
    schema_free(e->sch);
}

static schema *schema_copy(const schema *s)
{
    schema *c = schema_new(s->n);
    for (int i = 0; i < s->n; i++)
        schema_set(c, i, s->names[i], s->types[i]);
    return c;
}

static bool same_key(const entry *e, const schema_cache_key *k)
{
    return strcmp(e->storage, k->storage) == 0 && strcmp(e->source, k->source) == 0 &&
           strcmp(e->format, k->format) == 0 && strcmp(e->info, k->info ? k->info : "") == 0;
}

static bool cacheable(const schema_cache_key *k) { return k->version && k->version[0]; }

char *schema_cache_format_info(const fmt_settings *fs)
{
    buf b = {0};
    buf_printf(&b,
               "max_rows_to_read_for_schema_inference=%lld, schema_inference_make_columns_nullable=%s, "
               "try_infer_integers=%s, try_infer_dates=%s, try_infer_datetimes=%s, delimiter=%c, "
               "with_names_use_header=%s, csv_detect_header=%s, tsv_detect_header=%s",
               (long long)fs->max_rows_to_read_for_schema_inference,
               fs->schema_inference_make_columns_nullable ? "true" : "false", fs->try_infer_integers ? "true" : "false",
               fs->try_infer_dates ? "true" : "false", fs->try_infer_datetimes ? "true" : "false",
               fs->csv_delimiter ? fs->csv_delimiter : ',', fs->with_names_use_header ? "true" : "false",
               fs->csv_detect_header ? "true" : "false", fs->tsv_detect_header ? "true" : "false");
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

schema *schema_cache_get(const schema_cache_key *k)
{
    if (!cacheable(k))
        return NULL;
    schema *out = NULL;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nentries; i++) {
        if (!same_key(&entries[i], k))
            continue;
        if (strcmp(entries[i].version, k->version) == 0) {
            out = schema_copy(entries[i].sch);
        } else { /* the object changed since: its old structure is of no use */
            entry_free(&entries[i]);
            entries[i] = entries[--nentries];
        }
        break;
    }
    pthread_mutex_unlock(&lock);
    return out;
}

void schema_cache_put(const schema_cache_key *k, const schema *s)
{
    if (!cacheable(k))
        return;
    entry e = {.storage = xstrdup(k->storage), .source = xstrdup(k->source), .format = xstrdup(k->format),
               .info = xstrdup(k->info ? k->info : ""), .version = xstrdup(k->version), .sch = schema_copy(s),
               .registered = time(NULL)};
    pthread_mutex_lock(&lock);
    size_t i = 0;
    while (i < nentries && !same_key(&entries[i], k))
        i++;
    if (i < nentries) {
        entry_free(&entries[i]);
    } else {
        if (nentries == capentries) {
            capentries = capentries ? capentries * 2 : 16;
            entries = xrealloc(entries, sizeof *entries * capentries);
        }
        nentries++;
    }
    entries[i] = e;
    pthread_mutex_unlock(&lock);
}

void schema_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nentries; i++)
        entry_free(&entries[i]);
    free(entries);
    entries = NULL;
    nentries = capentries = 0;
    pthread_mutex_unlock(&lock);
}

/* "a Nullable(Int64), `b c` String", as ClickHouse prints a columns description. */
static void format_schema(buf *b, const schema *s)
{
    for (int i = 0; i < s->n; i++) {
        const char *nm = s->names[i];
        bool plain = (isalpha((unsigned char)nm[0]) || nm[0] == '_');
        for (const char *p = nm; plain && *p; p++)
            plain = isalnum((unsigned char)*p) || *p == '_';
        if (i)
            buf_printf(b, ", ");
        if (plain) {
            buf_printf(b, "%s", nm);
        } else {
            buf_printf(b, "`");
            for (const char *p = nm; *p; p++)
                buf_printf(b, *p == '`' || *p == '\\' ? "\\%c" : "%c", *p);
            buf_printf(b, "`");
        }
        buf_printf(b, " %s", s->types[i]->name);
    }
}

static void push_cstr(column *c, const char *s) { col_push_str(c, s, strlen(s)); }

int schema_cache_source(query_ctx *q, source **out)
{
    (void)q;
    static const char *names[] = {"storage", "source", "format", "additional_format_info", "registration_time",
                                  "schema", "number_of_rows", "schema_inference_mode"};
    const type *str = type_simple(T_STRING), *nstr = type_nullable(str);
    const type *types[] = {str, str, str, str, type_datetime(NULL), nstr, type_nullable(type_simple(T_UINT64)), nstr};
    schema *sch = schema_new(8);
    for (int i = 0; i < 8; i++)
        schema_set(sch, i, names[i], types[i]);
    block *b = block_new_empty(sch);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nentries; i++) {
        const entry *e = &entries[i];
        push_cstr(b->cols[0], e->storage);
        push_cstr(b->cols[1], e->source);
        push_cstr(b->cols[2], e->format);
        push_cstr(b->cols[3], e->info);
        uint32_t t = (uint32_t)e->registered;
        col_push_fixed(b->cols[4], &t);
        buf sb = {0};
        format_schema(&sb, e->sch);
        push_cstr(b->cols[5]->inner, buf_cstr(&sb));
        col_nullable_commit(b->cols[5], false);
        buf_free(&sb);
        col_push_null(b->cols[6]);
        push_cstr(b->cols[7]->inner, "DEFAULT");
        col_nullable_commit(b->cols[7], false);
        b->rows++;
    }
    pthread_mutex_unlock(&lock);
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    *out = source_from_blocks(sch, bs, 1);
    return 0;
}

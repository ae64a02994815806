/* AWS Signature Version 4; see sigv4.h. Hashing and HMAC come from OpenSSL's libcrypto (io/crypto.h). */
#include "io/sigv4.h"

#include "base/mem.h"
#include "io/crypto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(const unsigned char *d, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = 0;
}

void sigv4_sha256_hex(const void *data, size_t n, char out[65])
{
    unsigned char md[32];
    crypto_sha256(data, n, md);
    hex(md, 32, out);
}

static void hmac(const void *key, size_t klen, const char *msg, unsigned char out[32])
{
    crypto_hmac_sha256(key, klen, msg, strlen(msg), out);
}

void sigv4_amz_date(time_t t, char out[17])
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

static bool unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

void sigv4_uri_encode(buf *out, const char *s, size_t n, bool keep_slash)
{
    static const char digits[] = "0123456789ABCDEF";
    buf_reserve(out, n * 3);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (unreserved(c) || (keep_slash && c == '/')) {
            out->p[out->len++] = c;
        } else {
            out->p[out->len++] = '%';
            out->p[out->len++] = (uint8_t)digits[c >> 4];
            out->p[out->len++] = (uint8_t)digits[c & 15];
        }
    }
}

typedef struct enc_pair {
    char *k, *v;
} enc_pair;

static int cmp_pair(const void *a, const void *b)
{
    const enc_pair *x = a, *y = b;
    int c = strcmp(x->k, y->k);
    return c ? c : strcmp(x->v, y->v);
}

void sigv4_canonical_query(buf *out, const sigv4_kv *q, int n)
{
    if (n <= 0)
        return;
    enc_pair *e = xcalloc((size_t)n, sizeof *e);
    for (int i = 0; i < n; i++) {
        buf b = {0};
        sigv4_uri_encode(&b, q[i].k, strlen(q[i].k), false);
        e[i].k = xstrdup(buf_cstr(&b));
        b.len = 0;
        sigv4_uri_encode(&b, q[i].v ? q[i].v : "", q[i].v ? strlen(q[i].v) : 0, false);
        e[i].v = xstrdup(buf_cstr(&b));
        buf_free(&b);
    }
    qsort(e, (size_t)n, sizeof *e, cmp_pair);
    for (int i = 0; i < n; i++) {
        if (i)
            buf_putc(out, '&');
        buf_puts(out, e[i].k);
        buf_putc(out, '=');
        buf_puts(out, e[i].v);
        free(e[i].k);
        free(e[i].v);
    }
    free(e);
}

typedef struct canon_header {
    char *name;  /* lower-case */
    buf value;   /* trimmed, folded; duplicates joined by ',' */
} canon_header;

static int cmp_header(const void *a, const void *b)
{
    return strcmp(((const canon_header *)a)->name, ((const canon_header *)b)->name);
}

/* Trims the value and folds runs of spaces/tabs into one space, as SigV4 requires. */
static void append_folded(buf *b, const char *v)
{
    while (*v == ' ' || *v == '\t')
        v++;
    size_t n = strlen(v);
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        if (v[i] == ' ' || v[i] == '\t') {
            space = true;
            continue;
        }
        if (space)
            buf_putc(b, ' ');
        space = false;
        buf_putc(b, v[i]);
    }
}

void sigv4_sign(const sigv4_params *p, sigv4_result *out)
{
    memset(out, 0, sizeof *out);
    canon_header *h = xcalloc((size_t)p->nheaders + 1, sizeof *h);
    int nh = 0;
    for (int i = 0; i < p->nheaders; i++) {
        char *name = xstrdup(p->headers[i].k);
        for (char *c = name; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        int j;
        for (j = 0; j < nh; j++)
            if (strcmp(h[j].name, name) == 0)
                break;
        if (j < nh) {
            free(name);
            buf_putc(&h[j].value, ',');
        } else {
            h[nh++].name = name;
        }
        append_folded(&h[j].value, p->headers[i].v);
    }
    qsort(h, (size_t)nh, sizeof *h, cmp_header);

    buf cr = {0}, sh = {0};
    buf_printf(&cr, "%s\n%s\n", p->method, p->path);
    sigv4_canonical_query(&cr, p->query, p->nquery);
    buf_putc(&cr, '\n');
    for (int i = 0; i < nh; i++) {
        buf_printf(&cr, "%s:%s\n", h[i].name, buf_cstr(&h[i].value));
        if (i)
            buf_putc(&sh, ';');
        buf_puts(&sh, h[i].name);
        free(h[i].name);
        buf_free(&h[i].value);
    }
    free(h);
    buf_printf(&cr, "\n%s\n%s", buf_cstr(&sh), p->payload_hash);

    char date[9];
    snprintf(date, sizeof date, "%.8s", p->amz_date);
    char creq_hash[65];
    sigv4_sha256_hex(cr.p, cr.len, creq_hash);
    buf sts = {0};
    buf_printf(&sts, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n%s", p->amz_date, date, p->region, p->service,
               creq_hash);

    /* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request") */
    size_t slen = strlen(p->secret);
    char *k0 = xmalloc(slen + 5);
    memcpy(k0, "AWS4", 4);
    memcpy(k0 + 4, p->secret, slen + 1);
    unsigned char k1[32], k2[32], k3[32], k4[32], sig[32];
    hmac(k0, slen + 4, date, k1);
    memset(k0, 0, slen + 4); /* do not leave the secret in freed memory */
    free(k0);
    hmac(k1, 32, p->region, k2);
    hmac(k2, 32, p->service, k3);
    hmac(k3, 32, "aws4_request", k4);
    hmac(k4, 32, buf_cstr(&sts), sig);
    hex(sig, 32, out->signature);

    buf auth = {0};
    buf_printf(&auth, "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request, SignedHeaders=%s, Signature=%s", p->key_id,
               date, p->region, p->service, buf_cstr(&sh), out->signature);
    out->canonical_request = xstrdup(buf_cstr(&cr));
    out->string_to_sign = xstrdup(buf_cstr(&sts));
    out->signed_headers = xstrdup(buf_cstr(&sh));
    out->authorization = xstrdup(buf_cstr(&auth));
    buf_free(&cr);
    buf_free(&sh);
    buf_free(&sts);
    buf_free(&auth);
}

void sigv4_result_free(sigv4_result *r)
{
    free(r->canonical_request);
    free(r->string_to_sign);
    free(r->signed_headers);
    free(r->authorization);
    memset(r, 0, sizeof *r);
}

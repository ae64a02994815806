/* CSV row splitting (RFC 4180): fields separated by the delimiter, rows by LF, CRLF or CR;
 * a field starting with '"' is quoted and "" inside it is one quote; unquoted fields are
 * trimmed of spaces and tabs as ClickHouse does (input_format_csv_trim_whitespaces). */
#include "format/rd.h"

#include "base/err.h"

/* Advances *k past bytes that are not the delimiter or a line break, refilling the buffer
 * as needed (offsets from in->pos survive a refill). Returns the stopping byte, -1 at the
 * end of the stream, -2 on a read error. */
static int scan_unquoted(rbuf *in, size_t *k, char delim)
{
    for (;;) {
        const char *b = in->pos, *e = in->end;
        size_t j = *k;
        while (b + j < e) {
            char ch = b[j];
            if (ch == delim || ch == '\n' || ch == '\r')
                break;
            j++;
        }
        *k = j;
        if (b + j < e)
            return (unsigned char)b[j];
        if (in->eof)
            return -1;
        if (rbuf_fill(in) < 0)
            return -2;
    }
}

int csv_split_row(rbuf *in, char delim, rowf *f, uint64_t row)
{
    rowf_clear(f);
    size_t k = 0;
    int c = rd_peek(in, 0);
    if (c == -2)
        return -1;
    if (c == -1)
        return 1;
    for (;;) {
        if (delim != ' ' && delim != '\t')
            while ((c = rd_peek(in, k)) == ' ' || c == '\t')
                k++;
        c = rd_peek(in, k);
        if (c == -2)
            return -1;
        size_t st = f->data.len;
        int kind = FK_PLAIN;
        if (c == '"') {
            kind = FK_QUOTED;
            k++;
            for (;;) {
                c = rd_peek(in, k);
                if (c == -2)
                    return -1;
                if (c == -1)
                    return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                                   "Cannot parse input: expected '\"' at end of stream (unterminated quoted field): "
                                   "(at row %llu, byte offset %llu)",
                                   (unsigned long long)row, (unsigned long long)(rbuf_offset(in) + k));
                if (c == '"') {
                    if (rd_peek(in, k + 1) == '"') {
                        buf_putc(&f->data, '"');
                        k += 2;
                        continue;
                    }
                    k++;
                    break;
                }
                buf_putc(&f->data, (char)c);
                k++;
            }
            while ((c = rd_peek(in, k)) == ' ' || (c == '\t' && delim != '\t'))
                k++;
        } else {
            size_t fs = k;
            c = scan_unquoted(in, &k, delim);
            if (c == -2)
                return -1;
            buf_append(&f->data, in->pos + fs, k - fs);
            while (f->data.len > st && (f->data.p[f->data.len - 1] == ' ' || f->data.p[f->data.len - 1] == '\t'))
                f->data.len--;
            if (f->data.len - st == 2 && f->data.p[st] == '\\' && f->data.p[st + 1] == 'N')
                kind = FK_NULL;
        }
        rowf_add(f, 0, 0, st, f->data.len, kind);
        if (c == delim) {
            k++;
            continue;
        }
        if (c == '\r') {
            k++;
            if (rd_peek(in, k) == '\n')
                k++;
            break;
        }
        if (c == '\n') {
            k++;
            break;
        }
        if (c == -1)
            break;
        {
            char shown[32];
            size_t m = 0;
            while (m < 20 && rd_peek(in, k + m) >= 0)
                m++;
            memcpy(shown, in->pos + k, m);
            shown[m] = 0;
            return err_set(ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                           "Cannot parse input: expected '%c' before: '%s': (at row %llu, byte offset %llu)", delim,
                           shown, (unsigned long long)row, (unsigned long long)(rbuf_offset(in) + k));
        }
    }
    in->pos += k;
    return 0;
}

/* TabSeparated row splitting: fields separated by TAB, rows by LF; backslash escapes
 * (\t \n \\ \0 \b \f \r \a \v \' \xHH) are decoded unless raw (TSVRaw); a field that is
 * exactly \N is NULL. */
#include "format/rd.h"

#include "base/err.h"

int tsv_split_row(rbuf *in, bool raw, rowf *f, uint64_t row)
{
    (void)row;
    rowf_clear(f);
    size_t k = 0;
    int c = rd_peek(in, 0);
    if (c == -2)
        return -1;
    if (c == -1)
        return 1;
    for (;;) {
        size_t st = f->data.len, rawst = k;
        bool null_mark = false;
        for (;;) {
            c = rd_peek(in, k);
            if (c < 0 || c == '\t' || c == '\n')
                break;
            if (c == '\\' && !raw) {
                int e = rd_peek(in, k + 1);
                if (e < 0) {
                    buf_putc(&f->data, '\\');
                    k++;
                    continue;
                }
                k += 2;
                switch (e) {
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'r': c = '\r'; break;
                case '0': c = '\0'; break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'a': c = '\a'; break;
                case 'v': c = '\v'; break;
                case 'N':
                    if (k - rawst == 2)
                        null_mark = true;
                    c = 'N';
                    break;
                case 'x': {
                    int h1 = rd_peek(in, k), h2 = rd_peek(in, k + 1);
                    if (text_hex_digit(h1) >= 0 && text_hex_digit(h2) >= 0) {
                        c = text_hex_digit(h1) * 16 + text_hex_digit(h2);
                        k += 2;
                    } else {
                        c = 'x';
                    }
                    break;
                }
                default: c = e; break;
                }
                buf_putc(&f->data, (char)c);
                continue;
            }
            buf_putc(&f->data, (char)c);
            k++;
        }
        if (c == -2)
            return -1;
        int kind = null_mark && k - rawst == 2 ? FK_NULL : FK_PLAIN;
        rowf_add(f, 0, 0, st, f->data.len, kind);
        if (c == '\t') {
            k++;
            continue;
        }
        if (c == '\n')
            k++;
        break;
    }
    in->pos += k;
    return 0;
}

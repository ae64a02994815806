/* Just enough XML to read S3 responses (ListObjectsV2, errors, multipart results):
 * find an element by name and unescape its text. S3's XML has no attributes we need, no
 * CDATA and no nesting of same-named elements, which is what makes this sufficient.
 *
 * Thread-safety: reentrant. Ownership: results point into the input. Errors: none; a
 * missing element is reported as false. */
#ifndef SHALE_IO_XML_H
#define SHALE_IO_XML_H

#include "base/buf.h"

#include <stdbool.h>
#include <stddef.h>

/* Finds the first <tag>...</tag> (or <tag/>, or <tag attr="...">) in [p, end): *val and
 * *len are its raw inner text, *after points past the closing tag. */
bool xml_find(const char *p, const char *end, const char *tag, const char **val, size_t *len, const char **after);

/* Appends s[0..n) with &amp; &lt; &gt; &quot; &apos; &#N; &#xN; decoded (UTF-8). */
void xml_unescape(buf *out, const char *s, size_t n);

/* xml_find + xml_unescape into a new malloc'ed string, or NULL when absent. */
char *xml_text(const char *p, const char *end, const char *tag);

#endif

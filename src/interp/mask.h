/* Masking of secrets in query text before it is logged: the secret access key of s3()
 * (and INSERT INTO FUNCTION s3) becomes '[HIDDEN]', as ClickHouse masks it in its query
 * log. Pure function of the text and its parsed statement. */
#ifndef SHALE_INTERP_MASK_H
#define SHALE_INTERP_MASK_H

#include "parse/ast.h"

#include <stddef.h>

/* Returns a new string (caller frees) equal to text[0..len) with secrets replaced.
 * `base` is the offset of text[0] in the script the AST positions refer to; stmt may be
 * NULL (nothing is masked then). */
char *mask_secrets(const char *text, size_t len, size_t base, const ast *stmt);

/* A new string: msg (an error message about stmt) with every secret of stmt's text replaced
 * by [HIDDEN] — messages may quote the arguments. */
char *mask_message(const char *msg, const ast *stmt);

#endif

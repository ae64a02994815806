/* crypto: the digests S3 requests and password checks need (SHA-256, HMAC-SHA-256, MD5,
 * SHA-1, base64), from OpenSSL's
 * libcrypto loaded on first use (base/lazylib.h) so that queries without S3 do not pay for
 * linking it at start-up.
 *
 * crypto_load() loads it (-1 with err_set ERR_CANNOT_DLOPEN when libcrypto is missing);
 * s3 requests call it before signing. The digest functions load it themselves when needed
 * and cannot report a failure: if libcrypto cannot be loaded they produce zero bytes, so
 * call crypto_load() first wherever an error can be returned. Thread-safe. */
#ifndef SHALE_IO_CRYPTO_H
#define SHALE_IO_CRYPTO_H

#include <stddef.h>

int crypto_load(void);
void crypto_sha256(const void *data, size_t n, unsigned char out[32]);
void crypto_hmac_sha256(const void *key, size_t klen, const void *msg, size_t n, unsigned char out[32]);
void crypto_md5(const void *data, size_t n, unsigned char out[16]);
void crypto_sha1(const void *data, size_t n, unsigned char out[20]);
/* Base64 of n bytes into out (4 * ((n + 2) / 3) + 1 bytes with the NUL). */
void crypto_base64(const unsigned char *data, size_t n, char *out);

#endif

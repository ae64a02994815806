/* Digests from libcrypto, loaded on first use (see crypto.h). */
#include "io/crypto.h"

#include "base/lazylib.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>

static struct {
    __typeof__(EVP_Digest) *digest;
    __typeof__(EVP_sha256) *sha256;
    __typeof__(EVP_md5) *md5;
    __typeof__(EVP_sha1) *sha1;
    __typeof__(EVP_EncodeBlock) *encode_block;
    __typeof__(HMAC) *hmac;
} fn;

static const lazy_sym syms[] = {
    {"EVP_Digest", (void **)&fn.digest},
    {"EVP_sha256", (void **)&fn.sha256},
    {"EVP_md5", (void **)&fn.md5},
    {"EVP_sha1", (void **)&fn.sha1},
    {"EVP_EncodeBlock", (void **)&fn.encode_block},
    {"HMAC", (void **)&fn.hmac},
    {NULL, NULL},
};

#if OPENSSL_VERSION_MAJOR >= 3
#define CRYPTO_SONAME "libcrypto.so.3"
#else
#error "OpenSSL 3 (Debian 12's libssl-dev) is required"
#endif

static lazylib lib = LAZYLIB_INIT(CRYPTO_SONAME, "S3 request signing", syms);

int crypto_load(void) { return lazylib_load(&lib); }

void crypto_sha256(const void *data, size_t n, unsigned char out[32])
{
    unsigned int len = 32;
    if (crypto_load() || !fn.digest(data, n, out, &len, fn.sha256(), NULL))
        memset(out, 0, 32);
}

void crypto_hmac_sha256(const void *key, size_t klen, const void *msg, size_t n, unsigned char out[32])
{
    unsigned int len = 32;
    if (crypto_load() || !fn.hmac(fn.sha256(), key, (int)klen, msg, n, out, &len))
        memset(out, 0, 32);
}

void crypto_md5(const void *data, size_t n, unsigned char out[16])
{
    unsigned int len = 16;
    if (crypto_load() || !fn.digest(data, n, out, &len, fn.md5(), NULL))
        memset(out, 0, 16);
}

void crypto_sha1(const void *data, size_t n, unsigned char out[20])
{
    unsigned int len = 20;
    if (crypto_load() || !fn.digest(data, n, out, &len, fn.sha1(), NULL))
        memset(out, 0, 20);
}

void crypto_base64(const unsigned char *data, size_t n, char *out)
{
    if (crypto_load()) {
        out[0] = 0;
        return;
    }
    fn.encode_block((unsigned char *)out, data, (int)n);
}

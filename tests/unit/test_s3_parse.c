/* S3 URL parsing, ListObjectsV2 and error-body XML, the glob's listing prefix (no network). */
#include "check.h"
#include "base/err.h"
#include "io/http.h"
#include "io/s3.h"
#include "io/xml.h"

#include <stdlib.h>

int main(void)
{
    s3_url u;
    CHECK(s3_url_parse("http://127.0.0.1:7480/bkt/dir/a.csv", &u) == 0);
    CHECK_STR(u.endpoint, "http://127.0.0.1:7480");
    CHECK_STR(u.host, "127.0.0.1:7480");
    CHECK_STR(u.bucket, "bkt");
    CHECK_STR(u.key, "dir/a.csv");
    CHECK(!u.virtual_host && u.region == NULL);
    s3_url_free(&u);

    CHECK(s3_url_parse("https://my-bucket.s3.eu-west-1.amazonaws.com/data/*.parquet", &u) == 0);
    CHECK_STR(u.endpoint, "https://my-bucket.s3.eu-west-1.amazonaws.com");
    CHECK_STR(u.bucket, "my-bucket");
    CHECK_STR(u.key, "data/*.parquet");
    CHECK_STR(u.region, "eu-west-1");
    CHECK(u.virtual_host);
    s3_url_free(&u);

    CHECK(s3_url_parse("https://b1.s3.amazonaws.com/k", &u) == 0);
    CHECK_STR(u.region, "us-east-1");
    CHECK_STR(u.bucket, "b1");
    s3_url_free(&u);

    CHECK(s3_url_parse("https://s3.us-west-2.amazonaws.com:443/bk/x/y.tsv?versionId=3", &u) == 0);
    CHECK_STR(u.host, "s3.us-west-2.amazonaws.com");
    CHECK_STR(u.bucket, "bk");
    CHECK_STR(u.key, "x/y.tsv");
    CHECK_STR(u.region, "us-west-2");
    CHECK(!u.virtual_host);
    s3_url_free(&u);

    CHECK(s3_url_parse("http://localhost:80/bkt", &u) == 0);
    CHECK_STR(u.host, "localhost");
    CHECK_STR(u.key, "");
    s3_url_free(&u);

    CHECK(s3_url_parse("http://h:1/bkt/k1{0..9}?.csv", &u) == 0);
    CHECK_STR(u.key, "k1{0..9}?.csv");
    s3_url_free(&u);

    CHECK(s3_url_parse("ftp://x/b/k", &u) == -1 && err_code() == ERR_BAD_ARGUMENTS);
    CHECK(s3_url_parse("http://host/", &u) == -1);
    CHECK(s3_url_parse("no-scheme", &u) == -1);

    /* Secrets stay out of URLs built for messages. */
    CHECK(s3_url_parse("http://127.0.0.1:7480/bkt/k", &u) == 0);
    s3_creds cr = {.key_id = "AKID", .secret = "TOPSECRET"};
    s3_client *c = s3_client_new(&u, &cr, NULL);
    char *ou = s3_object_url(c, "a b.csv");
    CHECK_STR(ou, "http://127.0.0.1:7480/bkt/a b.csv");
    free(ou);
    s3_client_free(c);
    s3_url_free(&u);

    CHECK(s3_glob_prefix_len("dir/part-*.csv") == 9);
    CHECK(s3_glob_prefix_len("a/{x,y}/b") == 2);
    CHECK(s3_glob_prefix_len("plain/key") == 9);

    /* ListObjectsV2: two pages' worth of parsing, escaping, KeyCount not taken for Key. */
    const char *page1 =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>bkt</Name><Prefix>d/</Prefix>"
        "<KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated>"
        "<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
        "<Contents><Key>d/a&amp;b.csv</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>"
        "<ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>123</Size><StorageClass>STANDARD</StorageClass></Contents>"
        "<Contents><Key>d/&#x4e2d;.csv</Key><ETag>\"x-2\"</ETag><Size>5000000000</Size></Contents>"
        "</ListBucketResult>";
    s3_object *objs = NULL;
    size_t n = 0;
    char *next = NULL;
    CHECK(s3_parse_list_page(page1, strlen(page1), &objs, &n, &next) == 0);
    CHECK(n == 2);
    CHECK_STR(objs[0].key, "d/a&b.csv");
    CHECK(objs[0].size == 123);
    CHECK_STR(objs[0].etag, "\"9b2cf535f27731c974343645a3985328\"");
    CHECK_STR(objs[1].key, "d/\xe4\xb8\xad.csv");
    CHECK(objs[1].size == 5000000000ULL);
    CHECK_STR(next, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
    free(next);
    const char *page2 = "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>d/z</Key><Size>0</Size>"
                        "</Contents></ListBucketResult>";
    CHECK(s3_parse_list_page(page2, strlen(page2), &objs, &n, &next) == 0);
    CHECK(n == 3 && next == NULL);
    CHECK_STR(objs[2].key, "d/z");
    s3_objects_free(objs, n);
    objs = NULL;
    n = 0;
    const char *empty = "<ListBucketResult><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>";
    CHECK(s3_parse_list_page(empty, strlen(empty), &objs, &n, &next) == 0 && n == 0);
    const char *bad_trunc = "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>";
    CHECK(s3_parse_list_page(bad_trunc, strlen(bad_trunc), &objs, &n, &next) == -1);
    CHECK(s3_parse_list_page("<Error/>", 8, &objs, &n, &next) == -1);

    /* Error bodies. */
    const char *errs[][2] = {
        {"<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match the "
         "signature you provided.</Message><RequestId>x</RequestId></Error>",
         "The request signature we calculated does not match the signature you provided. (SignatureDoesNotMatch)"},
        {"<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>"
         "<Key>a&lt;b</Key></Error>",
         "The specified key does not exist. (NoSuchKey)"},
        {"<Error><Code>InvalidAccessKeyId</Code><RequestId>tx</RequestId></Error>", "InvalidAccessKeyId"},
        {"<Error><Code>NoSuchBucket</Code><Message>a &amp; b</Message></Error>", "a & b (NoSuchBucket)"},
        {"<Error><Code>AccessDenied</Code><Message></Message></Error>", "AccessDenied"},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        buf b = {0};
        CHECK(http_s3_error_text(errs[i][0], strlen(errs[i][0]), &b));
        CHECK_STR(buf_cstr(&b), errs[i][1]);
        buf_free(&b);
    }
    buf b = {0};
    CHECK(!http_s3_error_text("<html>502</html>", 16, &b));
    buf_free(&b);

    /* Backoff: bounded by the cap, grows with the attempt. */
    for (int k = 0; k < 20; k++)
        CHECK(http_backoff_ms(k, 5000) <= 5000);
    CHECK(http_backoff_ms(0, 5000) <= 100);
    return check_done("s3_parse");
}

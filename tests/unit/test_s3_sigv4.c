/* SigV4 against published vectors.
 *
 * Sources: the AWS Signature Version 4 test suite (docs.aws.amazon.com/general/latest/gr/
 * signature-v4-test-suite.html: get-vanilla, get-vanilla-query-order-key-case, post-vanilla,
 * post-x-www-form-urlencoded; credentials AKIDEXAMPLE, region us-east-1, service "service",
 * 20150830T123600Z) and the S3 examples of "Signature Calculations for the Authorization
 * Header" (docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html: GET Object
 * with Range, PUT Object, GET Bucket Lifecycle, Get Bucket (List Objects); credentials
 * AKIAIOSFODNN7EXAMPLE, 20130524T000000Z). */
#include "check.h"
#include "io/sigv4.h"

#include <stdlib.h>

#define SUITE_SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
#define S3_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

static void suite_case(const char *method, const sigv4_kv *q, int nq, const sigv4_kv *h, int nh, const char *payload_hash,
                       const char *want_creq, const char *want_sts, const char *want_sig)
{
    sigv4_params p = {.method = method, .path = "/", .query = q, .nquery = nq, .headers = h, .nheaders = nh,
                      .payload_hash = payload_hash, .amz_date = "20150830T123600Z", .region = "us-east-1",
                      .service = "service", .key_id = "AKIDEXAMPLE", .secret = SUITE_SECRET};
    sigv4_result r;
    sigv4_sign(&p, &r);
    if (want_creq)
        CHECK_STR(r.canonical_request, want_creq);
    if (want_sts)
        CHECK_STR(r.string_to_sign, want_sts);
    CHECK_STR(r.signature, want_sig);
    sigv4_result_free(&r);
}

static void s3_case(const char *method, const char *path, const sigv4_kv *q, int nq, const sigv4_kv *h, int nh,
                    const char *payload_hash, const char *want_auth)
{
    sigv4_params p = {.method = method, .path = path, .query = q, .nquery = nq, .headers = h, .nheaders = nh,
                      .payload_hash = payload_hash, .amz_date = "20130524T000000Z", .region = "us-east-1",
                      .service = "s3", .key_id = "AKIAIOSFODNN7EXAMPLE", .secret = S3_SECRET};
    sigv4_result r;
    sigv4_sign(&p, &r);
    CHECK_STR(r.authorization, want_auth);
    sigv4_result_free(&r);
}

int main(void)
{
    sigv4_kv base[] = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}};
    /* get-vanilla */
    suite_case("GET", NULL, 0, base, 2, SIGV4_EMPTY_SHA256,
               "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" SIGV4_EMPTY_SHA256,
               "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
               "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
               "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    /* get-vanilla-query-order-key-case: parameters given out of order */
    sigv4_kv q1[] = {{"Param2", "value2"}, {"Param1", "value1"}};
    suite_case("GET", q1, 2, base, 2, SIGV4_EMPTY_SHA256,
               "GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
               "host;x-amz-date\n" SIGV4_EMPTY_SHA256,
               "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
               "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
               "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    /* post-vanilla */
    suite_case("POST", NULL, 0, base, 2, SIGV4_EMPTY_SHA256, NULL, NULL,
               "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
    /* post-x-www-form-urlencoded: body "Param1=value1", content-type signed */
    char body_hash[65];
    sigv4_sha256_hex("Param1=value1", 13, body_hash);
    CHECK_STR(body_hash, "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e");
    sigv4_kv form[] = {{"Content-Type", "application/x-www-form-urlencoded"},
                       {"Host", "example.amazonaws.com"},
                       {"X-Amz-Date", "20150830T123600Z"}};
    suite_case("POST", NULL, 0, form, 3, body_hash, NULL, NULL,
               "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a");

    /* S3: GET Object with a Range header */
    sigv4_kv get[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                      {"Range", "bytes=0-9"},
                      {"x-amz-content-sha256", SIGV4_EMPTY_SHA256},
                      {"x-amz-date", "20130524T000000Z"}};
    s3_case("GET", "/test.txt", NULL, 0, get, 4, SIGV4_EMPTY_SHA256,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    /* S3: PUT Object "test$file.text" (the path is encoded by the caller) */
    char put_hash[65];
    sigv4_sha256_hex("Welcome to Amazon S3.", 21, put_hash);
    CHECK_STR(put_hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    buf path = {0};
    buf_putc(&path, '/');
    sigv4_uri_encode(&path, "test$file.text", 14, true);
    CHECK_STR(buf_cstr(&path), "/test%24file.text");
    sigv4_kv put[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                      {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                      {"x-amz-date", "20130524T000000Z"},
                      {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                      {"x-amz-content-sha256", put_hash}};
    s3_case("PUT", buf_cstr(&path), NULL, 0, put, 5, put_hash,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
            "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
    buf_free(&path);
    /* S3: GET Bucket lifecycle (a parameter without a value becomes "lifecycle=") */
    sigv4_kv lh[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"x-amz-content-sha256", SIGV4_EMPTY_SHA256},
                     {"x-amz-date", "20130524T000000Z"}};
    sigv4_kv lq[] = {{"lifecycle", ""}};
    s3_case("GET", "/", lq, 1, lh, 3, SIGV4_EMPTY_SHA256,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            "Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
    /* S3: Get Bucket (List Objects) with max-keys=2&prefix=J */
    sigv4_kv listq[] = {{"prefix", "J"}, {"max-keys", "2"}};
    s3_case("GET", "/", listq, 2, lh, 3, SIGV4_EMPTY_SHA256,
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");

    /* Canonical query: RFC 3986 encoding, sorted by encoded key then value. */
    buf b = {0};
    sigv4_kv cq[] = {{"prefix", "dir/a b*"}, {"list-type", "2"}, {"continuation-token", "k+1/=~"}, {"a", "2"}, {"a", "1"}};
    sigv4_canonical_query(&b, cq, 5);
    CHECK_STR(buf_cstr(&b), "a=1&a=2&continuation-token=k%2B1%2F%3D~&list-type=2&prefix=dir%2Fa%20b%2A");
    b.len = 0;
    sigv4_uri_encode(&b, "d/\xc3\xa9 x", 6, true);
    CHECK_STR(buf_cstr(&b), "d/%C3%A9%20x");
    b.len = 0;
    /* Header values are trimmed and inner runs of spaces folded; duplicates joined. */
    sigv4_kv th[] = {{"My-Header1", "  a   b  "}, {"host", "h"}, {"my-header1", "c"}};
    sigv4_params p = {.method = "GET", .path = "/", .headers = th, .nheaders = 3, .payload_hash = SIGV4_UNSIGNED_PAYLOAD,
                      .amz_date = "20150830T123600Z", .region = "r", .service = "s3", .key_id = "K", .secret = "S"};
    sigv4_result r;
    sigv4_sign(&p, &r);
    CHECK_STR(r.canonical_request, "GET\n/\n\nhost:h\nmy-header1:a b,c\n\nhost;my-header1\nUNSIGNED-PAYLOAD");
    CHECK(strstr(r.authorization, "Credential=K/20150830/r/s3/aws4_request") != NULL);
    CHECK(strstr(r.authorization, "S,") == NULL); /* the secret never appears */
    sigv4_result_free(&r);
    char d[17];
    sigv4_amz_date(1440938160, d);
    CHECK_STR(d, "20150830T123600Z");
    buf_free(&b);
    return check_done("s3_sigv4");
}

/*
 * test_sigv4.c - the SigV4 signer against AWS's published examples:
 * the four S3 examples of "Signature Calculations for the Authorization
 * Header: Transferring Payload in a Single Chunk" (GET object with Range,
 * PUT object with a '$' in the key, GET bucket lifecycle with a value-less
 * query parameter, GET bucket listing with sorted query parameters) and a
 * few vectors of the generic "Signature Version 4 test suite"
 * (get-vanilla, query order, UTF-8 and space in the path). Also the URI
 * encoding and canonical query rules S3 keys depend on.
 */
#include "io/sigv4.h"
#include "unit.h"

#define EMPTY_SHA "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define S3_KEY "AKIAIOSFODNN7EXAMPLE"
#define S3_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define SUITE_KEY "AKIDEXAMPLE"
#define SUITE_SECRET "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"

static void check_sig(const sqe_sigv4_request *r, const char *key, const char *secret,
                      const char *want_signed, const char *want_sig) {
    char *auth = sqe_sigv4_authorization(r, key, secret);
    char want[512];
    char date[9];
    snprintf(date, sizeof date, "%.8s", r->amz_date);
    snprintf(want, sizeof want,
             "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request,SignedHeaders=%s,Signature=%s",
             key, date, r->region, r->service, want_signed, want_sig);
    CHECK_STR(auth, want);
    CHECK(strstr(auth, secret) == NULL);
    sqe_free(auth);
}

static void test_s3_get_object(void) {
    sqe_sigv4_header h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                            {"Range", "bytes=0-9"},
                            {"x-amz-content-sha256", EMPTY_SHA},
                            {"x-amz-date", "20130524T000000Z"}};
    sqe_sigv4_request r = {"GET",     "/test.txt",        "",          h,   4,
                           EMPTY_SHA, "20130524T000000Z", "us-east-1", "s3"};
    char *creq = sqe_sigv4_canonical_request(&r);
    CHECK_STR(creq, "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
                    "x-amz-content-sha256:" EMPTY_SHA "\nx-amz-date:20130524T000000Z\n\n"
                    "host;range;x-amz-content-sha256;x-amz-date\n" EMPTY_SHA);
    sqe_free(creq);
    check_sig(&r, S3_KEY, S3_SECRET, "host;range;x-amz-content-sha256;x-amz-date",
              "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    /* header order given does not matter */
    sqe_sigv4_header h2[] = {h[3], h[1], h[0], h[2]};
    r.headers = h2;
    check_sig(&r, S3_KEY, S3_SECRET, "host;range;x-amz-content-sha256;x-amz-date",
              "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

static void test_s3_put_object(void) {
    const char *body = "Welcome to Amazon S3.";
    char sha[65];
    sqe_sha256_hex(body, strlen(body), sha);
    CHECK_STR(sha, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    /* the key "test$file.text" is encoded per segment */
    sqe_strbuf path;
    sqe_strbuf_init(&path);
    sqe_strbuf_putc(&path, '/');
    sqe_uri_encode(&path, "test$file.text", 14, true);
    CHECK_STR(path.data, "/test%24file.text");
    sqe_sigv4_header h[] = {{"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                            {"Host", "examplebucket.s3.amazonaws.com"},
                            {"x-amz-date", "20130524T000000Z"},
                            {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                            {"x-amz-content-sha256", sha}};
    sqe_sigv4_request r = {"PUT", path.data, "", h, 5, sha, "20130524T000000Z", "us-east-1", "s3"};
    check_sig(&r, S3_KEY, S3_SECRET,
              "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
              "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
    sqe_strbuf_free(&path);
}

static void test_s3_lifecycle_and_list(void) {
    sqe_strbuf q;
    sqe_strbuf_init(&q);
    sqe_sigv4_param lc[] = {{"lifecycle", NULL}};
    sqe_sigv4_query(&q, lc, 1);
    CHECK_STR(q.data, "lifecycle=");
    sqe_sigv4_header h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                            {"x-amz-content-sha256", EMPTY_SHA},
                            {"x-amz-date", "20130524T000000Z"}};
    sqe_sigv4_request r = {"GET",       "/", q.data, h, 3, EMPTY_SHA, "20130524T000000Z",
                           "us-east-1", "s3"};
    check_sig(&r, S3_KEY, S3_SECRET, "host;x-amz-content-sha256;x-amz-date",
              "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");

    sqe_strbuf_clear(&q);
    sqe_sigv4_param list[] = {{"prefix", "J"}, {"max-keys", "2"}};
    sqe_sigv4_query(&q, list, 2);
    CHECK_STR(q.data, "max-keys=2&prefix=J");
    r.query = q.data;
    check_sig(&r, S3_KEY, S3_SECRET, "host;x-amz-content-sha256;x-amz-date",
              "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
    sqe_strbuf_free(&q);
}

static void suite(const char *path, const char *query, const char *want_sig) {
    sqe_sigv4_header h[] = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}};
    sqe_sigv4_request r = {"GET",       path,     query, h, 2, EMPTY_SHA, "20150830T123600Z",
                           "us-east-1", "service"};
    check_sig(&r, SUITE_KEY, SUITE_SECRET, "host;x-amz-date", want_sig);
}

static void test_suite(void) {
    /* get-vanilla */
    suite("/", "", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    /* get-vanilla-query-order-key-case: ?Param2=value2&Param1=value1 */
    sqe_strbuf q;
    sqe_strbuf_init(&q);
    sqe_sigv4_param p[] = {{"Param2", "value2"}, {"Param1", "value1"}};
    sqe_sigv4_query(&q, p, 2);
    CHECK_STR(q.data, "Param1=value1&Param2=value2");
    suite("/", q.data, "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    sqe_strbuf_free(&q);
    /* get-utf8: "/\u1234" and get-space: "/example space/" */
    sqe_strbuf path;
    sqe_strbuf_init(&path);
    sqe_uri_encode(&path, "/\xe1\x88\xb4", 4, true);
    CHECK_STR(path.data, "/%E1%88%B4");
    suite(path.data, "", "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85");
    sqe_strbuf_clear(&path);
    sqe_uri_encode(&path, "/example space/", 15, true);
    CHECK_STR(path.data, "/example%20space/");
    suite(path.data, "", "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741");
    sqe_strbuf_free(&path);
}

static void test_encoding(void) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    const char *key = "t/k=a b/%3A~x+y*é";
    sqe_uri_encode(&sb, key, strlen(key), true);
    CHECK_STR(sb.data, "t/k%3Da%20b/%253A~x%2By%2A%C3%A9");
    sqe_strbuf_clear(&sb);
    sqe_uri_encode(&sb, "a/b", 3, false);
    CHECK_STR(sb.data, "a%2Fb");
    sqe_strbuf_clear(&sb);
    /* value-less parameters get '=', values are encoded, sort by name */
    sqe_sigv4_param p[] = {{"uploads", ""}, {"prefix", "t/k=1 2/"}, {"delimiter", "/"}};
    sqe_sigv4_query(&sb, p, 3);
    CHECK_STR(sb.data, "delimiter=%2F&prefix=t%2Fk%3D1%202%2F&uploads=");
    sqe_strbuf_free(&sb);
    /* header values are trimmed, inner runs of spaces collapsed */
    sqe_sigv4_header h[] = {{"Host", "h"}, {"My-Header", "  a   b  "}};
    sqe_sigv4_request r = {"GET",       "/", "", h, 2, "UNSIGNED-PAYLOAD", "20150830T123600Z",
                           "us-east-1", "s3"};
    char *creq = sqe_sigv4_canonical_request(&r);
    CHECK_STR(creq, "GET\n/\n\nhost:h\nmy-header:a b\n\nhost;my-header\nUNSIGNED-PAYLOAD");
    sqe_free(creq);
    char d[17];
    sqe_sigv4_amz_date(1369353600, d);
    CHECK_STR(d, "20130524T000000Z");
    char md5[33];
    sqe_md5_hex("", 0, md5);
    CHECK_STR(md5, "d41d8cd98f00b204e9800998ecf8427e");
}

int main(void) {
    RUN(test_s3_get_object);
    RUN(test_s3_put_object);
    RUN(test_s3_lifecycle_and_list);
    RUN(test_suite);
    RUN(test_encoding);
    return unit_report();
}

/*
 * test_hive.c - the hive module against a warehouse root in a fresh mkdtemp
 * folder: ATTACH/DETACH/USE, CREATE EXTERNAL TABLE (every accepted form
 * round-trips through SHOW CREATE TABLE; every rejection asserts its
 * message), manifests on disk and hand-written bad ones, databases, SHOW
 * and DESCRIBE, partition discovery and file listing.
 *
 * Statements go through the real parser (sqe_sql_parse) and
 * sqe_hive_execute, as the engine runs them.
 */
#include "hive/hive.h"
#include "hive/hive_int.h"
#include "io/io.h"
#include "unit.h"

#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_tmp[256]; /* the mkdtemp folder */
static char g_wh[320];  /* warehouse root <tmp>/wh */
static sqe_hive_catalog *g_cat;
static sqe_strbuf g_notices;
static sqe_error g_err;

/* ------------------------------------------------------------ helpers */

static bool exec_in(sqe_hive_catalog *cat, const char *sql, sqe_resultset **rs) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_error_clear(&g_err);
    sqe_ast_stmt *st = sqe_sql_parse(a, sql, &g_err);
    bool ok = false;
    if (st) {
        const char *status = NULL;
        ok = sqe_hive_execute(cat, st, rs, &status, &g_notices, &g_err);
        if (ok && !status) ok = sqe_error_set(&g_err, SQE_ERR_INTERNAL, "no status word");
    }
    sqe_arena_free(a);
    return ok;
}

static bool exec_sql(const char *sql, sqe_resultset **rs) {
    return exec_in(g_cat, sql, rs);
}

static void ok_at(int line, const char *sql) {
    unit_checks++;
    if (!exec_sql(sql, NULL)) {
        unit_failures++;
        fprintf(stderr, "test_hive.c:%d: unexpected error %s: %s\n  sql: %s\n", line,
                sqe_error_class_name(g_err.cls), g_err.msg, sql);
    }
}
#define OK(sql) ok_at(__LINE__, sql)

static void err_at(int line, const char *sql, sqe_error_class cls, const char *part) {
    sqe_resultset *rs = NULL;
    bool ok = exec_sql(sql, &rs);
    sqe_resultset_free(rs);
    unit_checks++;
    if (ok || g_err.cls != cls || !strstr(g_err.msg, part)) {
        unit_failures++;
        fprintf(stderr,
                "test_hive.c:%d: expected %s error containing\n    %s\n  got %s: %s\n  sql: %s\n",
                line, sqe_error_class_name(cls), part,
                ok ? "success" : sqe_error_class_name(g_err.cls), ok ? "" : g_err.msg, sql);
    }
}
#define ERR(sql, cls, part) err_at(__LINE__, sql, cls, part)
#define HERR(sql, part) err_at(__LINE__, sql, SQE_ERR_HIVE_EXTERNAL, part)

/* All rows of a text result: cells joined by '|', rows by '\n'. malloc'd. */
static char *rows_text(const sqe_resultset *rs) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (uint64_t r = 0; r < rs->n_rows; r++) {
        const sqe_batch *b = rs->batches.items[r / SQE_BATCH_ROWS];
        uint32_t row = (uint32_t)(r % SQE_BATCH_ROWS);
        if (r) sqe_strbuf_putc(&sb, '\n');
        for (int c = 0; c < rs->n_cols; c++) {
            if (c) sqe_strbuf_putc(&sb, '|');
            const sqe_vector *v = b->cols[c];
            if (sqe_vector_is_null(v, row)) {
                sqe_strbuf_puts(&sb, "NULL");
                continue;
            }
            const sqe_string *s = &SQE_VEC_DATA(v, sqe_string)[row];
            sqe_strbuf_append(&sb, sqe_string_data(s), s->len);
        }
    }
    return sb.data ? sqe_strbuf_detach(&sb) : sqe_strdup("");
}

/* Runs a SHOW/DESCRIBE and returns its rows as text (or "ERROR: msg"). */
static char *query(const char *sql) {
    sqe_resultset *rs = NULL;
    if (!exec_sql(sql, &rs)) return sqe_asprintf("ERROR: %s", g_err.msg);
    if (!rs) return sqe_strdup("(no result)");
    char *t = rows_text(rs);
    sqe_resultset_free(rs);
    return t;
}

static void query_is_at(int line, const char *sql, const char *want) {
    char *got = query(sql);
    unit_checks++;
    if (strcmp(got, want) != 0) {
        unit_failures++;
        fprintf(stderr, "test_hive.c:%d: %s\n  got:\n%s\n  want:\n%s\n", line, sql, got, want);
    }
    sqe_free(got);
}
#define QUERY_IS(sql, want) query_is_at(__LINE__, sql, want)

static void mkdir_p(const char *path) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    }
    mkdir(buf, 0755);
}

/* Writes <g_tmp>/<rel>, creating folders. */
static void write_file(const char *rel, const char *content) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_tmp, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir_p(path);
    *slash = '/';
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(2);
    }
    fputs(content, f);
    fclose(f);
}

static bool file_exists(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_tmp, rel);
    struct stat st;
    return stat(path, &st) == 0;
}

static json_t *load_manifest(const char *db, const char *table) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s.manifest.json", g_wh, db, table);
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j) fprintf(stderr, "cannot load %s: %s\n", path, je.text);
    return j;
}

static const char *jstr(json_t *root, const char *path) {
    /* dotted path with [i] not needed: objects only, '/' separated */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *cur = root;
    for (char *tok = strtok(buf, "/"); tok && cur; tok = strtok(NULL, "/")) {
        if (json_is_array(cur))
            cur = json_array_get(cur, (size_t)atoi(tok));
        else
            cur = json_object_get(cur, tok);
    }
    return json_is_string(cur) ? json_string_value(cur) : NULL;
}

static bool g_quiet; /* resolve3 failures are expected */

static sqe_hive_table *resolve3(const char *root, const char *db, const char *t) {
    const char *parts[3] = {root, db, t};
    sqe_error_clear(&g_err);
    sqe_hive_table *tab = sqe_hive_resolve_table(g_cat, 3, parts, &g_err);
    if (!tab && !g_quiet)
        fprintf(stderr, "  resolve %s.%s.%s failed: %s\n", root, db, t, g_err.msg);
    return tab;
}

static char *replace_first(const char *s, const char *from, const char *to) {
    const char *p = strstr(s, from);
    if (!p) return sqe_strdup(s);
    return sqe_asprintf("%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
}

/* SHOW CREATE TABLE lake.<db>.<t>, run the DDL as <t>_rt, and compare the
 * two manifests (minus Name) and the two DDL texts (minus the name). */
static void roundtrip_at(int line, const char *db, const char *t) {
    char sql[512], from[256], to[256], rt[128];
    snprintf(rt, sizeof rt, "%s_rt", t);
    snprintf(sql, sizeof sql, "SHOW CREATE TABLE lake.%s.%s", db, t);
    char *ddl = query(sql);
    snprintf(from, sizeof from, "CREATE EXTERNAL TABLE `%s`.`%s`(", db, t);
    snprintf(to, sizeof to, "CREATE EXTERNAL TABLE `%s`.`%s`(", db, rt);
    unit_checks++;
    if (strncmp(ddl, from, strlen(from)) != 0) {
        unit_failures++;
        fprintf(stderr, "test_hive.c:%d: SHOW CREATE TABLE %s.%s:\n%s\n", line, db, t, ddl);
        sqe_free(ddl);
        return;
    }
    char *ddl2 = replace_first(ddl, from, to);
    unit_checks++;
    if (!exec_sql(ddl2, NULL)) {
        unit_failures++;
        fprintf(stderr, "test_hive.c:%d: SHOW CREATE TABLE output does not run: %s\n%s\n", line,
                g_err.msg, ddl2);
    } else {
        json_t *a = load_manifest(db, t), *b = load_manifest(db, rt);
        if (a && b) {
            json_object_del(a, "Name");
            json_object_del(b, "Name");
        }
        unit_checks++;
        if (!a || !b || !json_equal(a, b)) {
            unit_failures++;
            char *ja = a ? json_dumps(a, JSON_INDENT(1)) : NULL,
                 *jb = b ? json_dumps(b, JSON_INDENT(1)) : NULL;
            fprintf(stderr,
                    "test_hive.c:%d: manifests differ after round trip of %s.%s\n%s\n---\n%s\n",
                    line, db, t, ja ? ja : "(null)", jb ? jb : "(null)");
            free(ja);
            free(jb);
        }
        json_decref(a);
        json_decref(b);
        snprintf(sql, sizeof sql, "SHOW CREATE TABLE lake.%s.%s", db, rt);
        char *ddl3 = query(sql);
        char *ddl3n = replace_first(ddl3, to, from);
        unit_checks++;
        if (strcmp(ddl3n, ddl) != 0) {
            unit_failures++;
            fprintf(stderr,
                    "test_hive.c:%d: SHOW CREATE TABLE differs after round trip:\n%s\n---\n%s\n",
                    line, ddl, ddl3n);
        }
        sqe_free(ddl3);
        sqe_free(ddl3n);
        snprintf(sql, sizeof sql, "DROP TABLE lake.%s.%s", db, rt);
        exec_sql(sql, NULL);
    }
    sqe_free(ddl);
    sqe_free(ddl2);
}
#define ROUNDTRIP(db, t) roundtrip_at(__LINE__, db, t)

/* Creates a table from DDL and round-trips it. */
#define CREATE_RT(db, t, ddl)                                                                      \
    do {                                                                                           \
        OK(ddl);                                                                                   \
        ROUNDTRIP(db, t);                                                                          \
    } while (0)

/* ------------------------------------------------------------ roots */

static void test_attach(void) {
    char sql[600];
    snprintf(sql, sizeof sql, "ATTACH '%s' AS Lake (TYPE hive_external)", g_wh);
    OK(sql);
    CHECK_STR(sqe_hive_current_root(g_cat), "lake");
    CHECK_STR(sqe_hive_current_database(g_cat), "default");
    snprintf(sql, sizeof sql, "ATTACH '%s' AS lake (TYPE hive_external)", g_wh);
    ERR(sql, SQE_ERR_ALREADY_EXISTS, "root 'lake' is already attached (to '");
    snprintf(sql, sizeof sql, "ATTACH IF NOT EXISTS '%s' AS lake (TYPE hive_external)", g_wh);
    OK(sql);
    HERR("ATTACH '/tmp/x' AS hms (TYPE hive)",
         "hive_external: TYPE hive means a Hive Metastore, which sqe does not connect to; use TYPE "
         "hive_external for a manifest warehouse root");
    ERR("ATTACH '/tmp/x' AS db2 (TYPE sqlite)", SQE_ERR_NOT_SUPPORTED,
        "ATTACH TYPE 'sqlite' is not supported");
    ERR("ATTACH '/tmp/x' AS system (TYPE hive_external)", SQE_ERR_ALREADY_EXISTS,
        "cannot attach a root named 'system': the name is a built-in catalog");
    ERR("ATTACH '/tmp/x' AS information_schema", SQE_ERR_ALREADY_EXISTS,
        "cannot attach a root named 'information_schema': the name is a built-in catalog");
    ERR("ATTACH '/tmp/x' AS sqe", SQE_ERR_ALREADY_EXISTS,
        "cannot attach a root named 'sqe': the name is a built-in catalog");
    ERR("ATTACH 'gs://bucket/x' AS g", SQE_ERR_NOT_SUPPORTED, "unsupported URL scheme 'gs'");
    ERR("ATTACH '/tmp/x' AS x2 (TYPE hive_external, READ_ONLY)", SQE_ERR_NOT_SUPPORTED,
        "ATTACH option 'READ_ONLY' is not supported");

    sqe_error e;
    sqe_error_clear(&e);
    CHECK(!sqe_hive_attach(g_cat, "my-lake", "/tmp/x", NULL, &e));
    CHECK_STR(e.msg, "hive_external: invalid root name 'my-lake': names must match [a-z0-9_]+ "
                     "after lower-casing");
    sqe_error_clear(&e);
    CHECK(!sqe_hive_attach_spec(g_cat, "nonsense", &e));
    CHECK(e.cls == SQE_ERR_USAGE);
    CHECK_STR(e.msg, "invalid --hive-root 'nonsense': expected NAME=URL");
    sqe_error_clear(&e);
    CHECK(sqe_hive_attach_spec(g_cat, "other=s3://bucket/wh/", &e)); /* lists and reads nothing */
    CHECK(sqe_hive_root_count(g_cat) == 2);
    CHECK_STR(sqe_hive_root_url(g_cat, 1), "s3://bucket/wh/");
    CHECK_STR(sqe_hive_current_root(g_cat), "lake"); /* the first root stays current */
    OK("DETACH other");
    ERR("DETACH other", SQE_ERR_NOT_FOUND, "root 'other' is not attached");
    OK("DETACH IF EXISTS other");
    CHECK(sqe_hive_root_count(g_cat) == 1);

    /* detaching the current root clears it */
    sqe_hive_catalog *c2 = sqe_hive_catalog_new(NULL);
    CHECK(sqe_hive_attach(c2, "a", "/tmp/a", "HIVE_EXTERNAL", &e));
    CHECK(sqe_hive_attach(c2, "b", "/tmp/b", NULL, &e));
    CHECK_STR(sqe_hive_current_root(c2), "a");
    CHECK(exec_in(c2, "DETACH a", NULL));
    CHECK(sqe_hive_current_root(c2) == NULL);
    const char *one[1] = {"orders"};
    CHECK(sqe_hive_resolve_table(c2, 1, one, &e) == NULL);
    CHECK(e.cls == SQE_ERR_NOT_FOUND);
    CHECK_STR(
        e.msg,
        "table 'orders' not found: no warehouse root is current; ATTACH one or use root.db.table");
    sqe_hive_catalog_free(c2);
}

/* ------------------------------------------------------------ CREATE: accepted */

static void test_create_basic(void) {
    char sql[2048];
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.Sales.Orders (\n"
             "  id BIGINT,\n  Amount DOUBLE COMMENT 'in EUR',\n  note STRING\n)\n"
             "COMMENT 'orders table'\n"
             "PARTITIONED BY (dt STRING)\n"
             "ROW FORMAT DELIMITED FIELDS TERMINATED BY ','\n"
             "STORED AS TEXTFILE\n"
             "LOCATION '%s/data/orders/'\n"
             "TBLPROPERTIES ('skip.header.line.count'='1', 'classification'='csv')",
             g_tmp);
    OK(sql);
    CHECK(file_exists("wh/sales/orders.manifest.json"));
    ERR(sql, SQE_ERR_ALREADY_EXISTS, "table 'lake.sales.orders' already exists");
    sqe_strbuf_clear(&g_notices);
    char *ine = replace_first(sql, "CREATE EXTERNAL TABLE", "CREATE EXTERNAL TABLE IF NOT EXISTS");
    OK(ine);
    sqe_free(ine);
    CHECK_CONTAINS(g_notices.data, "table 'lake.sales.orders' already exists");

    json_t *m = load_manifest("sales", "orders");
    CHECK(m != NULL);
    CHECK(json_integer_value(json_object_get(m, "sqe_manifest_version")) == 1);
    CHECK_STR(jstr(m, "Name"), "orders");
    CHECK_STR(jstr(m, "Description"), "orders table");
    CHECK_STR(jstr(m, "TableType"), "EXTERNAL_TABLE");
    CHECK_STR(jstr(m, "Parameters/EXTERNAL"), "TRUE");
    CHECK_STR(jstr(m, "Parameters/skip.header.line.count"), "1");
    CHECK_STR(jstr(m, "Parameters/classification"), "csv");
    CHECK_STR(jstr(m, "PartitionKeys/0/Name"), "dt");
    CHECK_STR(jstr(m, "PartitionKeys/0/Type"), "string");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/1/Name"), "amount");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/1/Type"), "double");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/1/Comment"), "in EUR");
    CHECK_STR(jstr(m, "StorageDescriptor/InputFormat"), "org.apache.hadoop.mapred.TextInputFormat");
    CHECK_STR(jstr(m, "StorageDescriptor/OutputFormat"),
              "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/SerializationLibrary"),
              "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/field.delim"), ",");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/serialization.format"), ",");
    json_decref(m);

    sqe_hive_table *t = resolve3("lake", "sales", "orders");
    CHECK(t != NULL);
    if (t) {
        CHECK_STR(t->root, "lake");
        CHECK_STR(t->database, "sales");
        CHECK_STR(t->name, "orders");
        CHECK(t->n_cols == 3 && t->n_part_keys == 1);
        CHECK(t->cols[0].type.id == SQE_T_BIGINT);
        CHECK(t->format == SQE_FORMAT_TEXT);
        CHECK(t->text.serde == SQE_SERDE_LAZY_SIMPLE);
        CHECK(t->text.field_delim == ',');
        CHECK(t->text.escape_char == 0);
        CHECK(t->text.skip_header_lines == 1);
        CHECK_STR(t->text.null_format, "\\N");
        CHECK(sqe_str_ends_with(t->location, "/data/orders/"));
        CHECK(sqe_str_ends_with(t->manifest_path, "/wh/sales/orders.manifest.json"));
        sqe_error e;
        CHECK(sqe_hive_check_readable(t, &e));
        sqe_reader_spec spec;
        memset(&spec, 0, sizeof spec);
        sqe_hive_reader_spec(t, &spec);
        CHECK(spec.format == SQE_FORMAT_TEXT && spec.n_table_cols == 3);
        CHECK_STR(spec.col_names[1], "amount");
        CHECK(spec.col_types[1].id == SQE_T_DOUBLE);
        CHECK(spec.text.field_delim == ',');
        sqe_hive_table_free(t);
    }

    char want[2048];
    snprintf(want, sizeof want,
             "CREATE EXTERNAL TABLE `sales`.`orders`(\n"
             "  `id` bigint,\n"
             "  `amount` double COMMENT 'in EUR',\n"
             "  `note` string)\n"
             "COMMENT 'orders table'\n"
             "PARTITIONED BY (\n"
             "  `dt` string)\n"
             "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe'\n"
             "WITH SERDEPROPERTIES (\n"
             "  'field.delim'=',',\n"
             "  'serialization.format'=',')\n"
             "STORED AS INPUTFORMAT 'org.apache.hadoop.mapred.TextInputFormat'\n"
             "OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat'\n"
             "LOCATION\n"
             "  '%s/data/orders/'\n"
             "TBLPROPERTIES (\n"
             "  'skip.header.line.count'='1',\n"
             "  'classification'='csv')",
             g_tmp);
    QUERY_IS("SHOW CREATE TABLE lake.sales.orders", want);
    ROUNDTRIP("sales", "orders");

    QUERY_IS("DESCRIBE lake.sales.orders",
             "id|bigint||\namount|double||in EUR\nnote|varchar||\ndt|varchar|partition key|");
    QUERY_IS("SHOW COLUMNS FROM lake.sales.orders",
             "id|bigint||\namount|double||in EUR\nnote|varchar||\ndt|varchar|partition key|");
}

static void test_create_forms(void) {
    /* the seed's own example: OpenCSVSerde with separatorChar and a secret */
    CREATE_RT("rt", "seed_orders",
              "CREATE EXTERNAL TABLE lake.rt.seed_orders (\n  id BIGINT,\n  amount DOUBLE\n)\n"
              "PARTITIONED BY (dt STRING)\n"
              "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde'\n"
              "WITH SERDEPROPERTIES ('separatorChar' = ',')\n"
              "STORED AS TEXTFILE\n"
              "LOCATION 's3://raw/orders/'\n"
              "TBLPROPERTIES ('skip.header.line.count' = '1', 'sqe.secret' = 'partner')");
    sqe_hive_table *t = resolve3("lake", "rt", "seed_orders");
    if (t) {
        CHECK(t->format == SQE_FORMAT_TEXT && t->text.serde == SQE_SERDE_OPEN_CSV);
        CHECK(t->text.field_delim == ',' && t->text.quote_char == '"' &&
              t->text.escape_char == '\\');
        CHECK(t->text.null_format == NULL);
        CHECK_STR(t->location, "s3://raw/orders/");
        sqe_hive_table_free(t);
    }

    /* OpenCSV with tab separator, quote and escape given with escapes */
    CREATE_RT(
        "rt", "csv_tab",
        "CREATE EXTERNAL TABLE lake.rt.csv_tab (a string, b int)\n"
        "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde'\n"
        "WITH SERDEPROPERTIES ('separatorChar'='\\t', 'quoteChar'='\\'', 'escapeChar'='\\\\')\n"
        "LOCATION '/data/csv_tab'");
    t = resolve3("lake", "rt", "csv_tab");
    if (t) {
        CHECK(t->text.field_delim == '\t' && t->text.quote_char == '\'' &&
              t->text.escape_char == '\\');
        sqe_hive_table_free(t);
    }

    /* AWS's CloudFront standard-log DDL: two header lines, tab-separated */
    CREATE_RT(
        "rt", "cloudfront_standard_logs",
        "CREATE EXTERNAL TABLE IF NOT EXISTS lake.rt.cloudfront_standard_logs (\n"
        "  `date` DATE,\n  time STRING,\n  x_edge_location STRING,\n  sc_bytes BIGINT,\n"
        "  c_ip STRING,\n  cs_method STRING,\n  cs_host STRING,\n  cs_uri_stem STRING,\n"
        "  sc_status INT,\n  cs_referrer STRING,\n  cs_user_agent STRING,\n  cs_uri_query STRING,\n"
        "  cs_cookie STRING,\n  x_edge_result_type STRING,\n  x_edge_request_id STRING,\n"
        "  x_host_header STRING,\n  cs_protocol STRING,\n  cs_bytes BIGINT,\n  time_taken FLOAT,\n"
        "  x_forwarded_for STRING,\n  ssl_protocol STRING,\n  ssl_cipher STRING,\n"
        "  x_edge_response_result_type STRING,\n  cs_protocol_version STRING,\n  fle_status "
        "STRING,\n"
        "  fle_encrypted_fields INT,\n  c_port INT,\n  time_to_first_byte FLOAT,\n"
        "  x_edge_detailed_result_type STRING,\n  sc_content_type STRING,\n  sc_content_len "
        "BIGINT,\n"
        "  sc_range_start BIGINT,\n  sc_range_end BIGINT\n)\n"
        "ROW FORMAT DELIMITED\nFIELDS TERMINATED BY '\\t'\n"
        "LOCATION 's3://amzn-s3-demo-bucket/'\n"
        "TBLPROPERTIES ( 'skip.header.line.count'='2' )");
    t = resolve3("lake", "rt", "cloudfront_standard_logs");
    if (t) {
        CHECK(t->n_cols == 33);
        CHECK_STR(t->cols[0].name, "date");
        CHECK(t->cols[18].type.id == SQE_T_REAL);
        CHECK(t->text.field_delim == '\t' && t->text.skip_header_lines == 2);
        sqe_hive_table_free(t);
    }

    /* AWS's ALB access-log DDL (RegexSerDe): recorded, not readable yet */
    CREATE_RT(
        "rt", "alb_access_logs",
        "CREATE EXTERNAL TABLE IF NOT EXISTS lake.rt.alb_access_logs (\n"
        "  type string, time string, elb string, client_ip string, client_port int,\n"
        "  target_ip string, target_port int, request_processing_time double,\n"
        "  target_processing_time double, response_processing_time double, elb_status_code int,\n"
        "  target_status_code string, received_bytes bigint, sent_bytes bigint, request_verb "
        "string,\n"
        "  request_url string, request_proto string, user_agent string, ssl_cipher string,\n"
        "  ssl_protocol string, target_group_arn string, trace_id string, domain_name string,\n"
        "  chosen_cert_arn string, matched_rule_priority string, request_creation_time string,\n"
        "  actions_executed string, redirect_url string, lambda_error_reason string,\n"
        "  target_port_list string, target_status_code_list string, classification string,\n"
        "  classification_reason string, conn_trace_id string\n)\n"
        "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.RegexSerDe'\n"
        "WITH SERDEPROPERTIES (\n"
        "'serialization.format' = '1',\n"
        "'input.regex' =\n"
        "'([^ ]*) ([^ ]*) ([^ ]*) ([^ ]*):([0-9]*) ([^ ]*)[:-]([0-9]*) ([-.0-9]*) ([-.0-9]*) "
        "([-.0-9]*) (|[-0-9]*) (-|[-0-9]*) ([-0-9]*) ([-0-9]*) \\\"([^ ]*) (.*) (- |[^ ]*)\\\" "
        "\\\"([^\\\"]*)\\\" ([A-Z0-9-_]+) ([A-Za-z0-9.-]*) ([^ ]*) \\\"([^\\\"]*)\\\" "
        "\\\"([^\\\"]*)\\\" "
        "\\\"([^\\\"]*)\\\" ([-.0-9]*) ([^ ]*) \\\"([^\\\"]*)\\\" \\\"([^\\\"]*)\\\" \\\"([^ "
        "]*)\\\" "
        "\\\"([^\\\\s]+?)\\\" \\\"([^\\\\s]+)\\\" \\\"([^ ]*)\\\" \\\"([^ ]*)\\\" ?([^ ]*)? ?( "
        ".*)?')\n"
        "LOCATION 's3://amzn-s3-demo-bucket/access-log-folder-path/'");
    json_t *m = load_manifest("rt", "alb_access_logs");
    const char *re = m ? jstr(m, "StorageDescriptor/SerdeInfo/Parameters/input.regex") : NULL;
    CHECK_CONTAINS(re, " \"([^ ]*) (.*) (- |[^ ]*)\" "); /* \" unescaped as Hive does */
    CHECK_CONTAINS(re, "\"([^\\s]+?)\"");                /* \\s -> \s */
    json_decref(m);
    t = resolve3("lake", "rt", "alb_access_logs");
    if (t) {
        sqe_error e;
        sqe_error_clear(&e);
        CHECK(!sqe_hive_check_readable(t, &e));
        CHECK(e.cls == SQE_ERR_NOT_SUPPORTED);
        CHECK_CONTAINS(e.msg, "RegexSerDe tables are not readable yet");
        sqe_hive_table_free(t);
    }

    /* Athena's own SHOW CREATE TABLE output for a Parquet table */
    CREATE_RT("rt", "events",
              "CREATE EXTERNAL TABLE `rt`.`events`(\n"
              "  `id` bigint COMMENT 'from deserializer', \n"
              "  `name` string, \n"
              "  `ts` timestamp, \n"
              "  `price` decimal(10,2))\n"
              "PARTITIONED BY ( \n"
              "  `year` int, \n"
              "  `day` date)\n"
              "ROW FORMAT SERDE \n"
              "  'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' \n"
              "STORED AS INPUTFORMAT \n"
              "  'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat' \n"
              "OUTPUTFORMAT \n"
              "  'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat'\n"
              "LOCATION\n"
              "  's3://bucket/events'\n"
              "TBLPROPERTIES (\n"
              "  'classification'='parquet', \n"
              "  'transient_lastDdlTime'='1700000000')");
    t = resolve3("lake", "rt", "events");
    if (t) {
        sqe_error e;
        CHECK(t->format == SQE_FORMAT_PARQUET);
        CHECK(t->cols[3].type.id == SQE_T_DECIMAL && t->cols[3].type.precision == 10);
        CHECK(t->part_keys[1].type.id == SQE_T_DATE);
        CHECK(sqe_hive_check_readable(t, &e));
        sqe_hive_table_free(t);
    }

    /* STORED AS PARQUET / JSONFILE / the JSON SerDes */
    CREATE_RT("rt", "pq",
              "CREATE EXTERNAL TABLE lake.rt.pq (a int) STORED AS PARQUET LOCATION '/d/pq'");
    CREATE_RT("rt", "jf",
              "CREATE EXTERNAL TABLE lake.rt.jf (a int) STORED AS JSONFILE LOCATION '/d/jf'");
    CREATE_RT("rt", "openx",
              "CREATE EXTERNAL TABLE lake.rt.openx (a int, b string)\n"
              "ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'\n"
              "WITH SERDEPROPERTIES ('ignore.malformed.json'='true', 'case.insensitive'='TRUE', "
              "'dots.in.keys'='false', 'paths'='a,b')\n"
              "LOCATION '/d/openx'");
    sqe_strbuf_clear(&g_notices);
    CREATE_RT("rt", "hcat",
              "CREATE EXTERNAL TABLE lake.rt.hcat (a int)\n"
              "ROW FORMAT SERDE 'org.apache.hive.hcatalog.data.JsonSerDe'\n"
              "STORED AS TEXTFILE LOCATION '/d/hcat'");
    CHECK(g_notices.len == 0); /* a JSON SerDe in a text container is normal */
    t = resolve3("lake", "rt", "jf");
    if (t) {
        CHECK(t->format == SQE_FORMAT_JSON);
        CHECK_STR(t->serde_class, "org.apache.hive.hcatalog.data.JsonSerDe");
        CHECK(t->json.serde == SQE_JSON_SERDE_HCAT && !t->json.ignore_malformed);
        sqe_hive_table_free(t);
    }
    t = resolve3("lake", "rt", "openx");
    if (t) {
        CHECK(t->format == SQE_FORMAT_JSON);
        CHECK(t->json.serde == SQE_JSON_SERDE_OPENX && t->json.ignore_malformed);
        CHECK(!t->json.case_sensitive && !t->json.dots_in_keys && t->json.n_mappings == 0);
        sqe_hive_table_free(t);
    }
    /* OpenX options reach the reader spec; TBLPROPERTIES override */
    CREATE_RT("rt", "openx2",
              "CREATE EXTERNAL TABLE lake.rt.openx2 (ts string, user_name string)\n"
              "ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'\n"
              "WITH SERDEPROPERTIES ('case.insensitive'='false', 'dots.in.keys'='TRUE', "
              "'mapping.ts'='timestamp', 'mapping.USER_NAME'='User Name')\n"
              "LOCATION '/d/openx2'\n"
              "TBLPROPERTIES ('mapping.ts'='time')");
    t = resolve3("lake", "rt", "openx2");
    if (t) {
        sqe_reader_spec spec;
        memset(&spec, 0, sizeof spec);
        sqe_hive_reader_spec(t, &spec);
        CHECK(spec.format == SQE_FORMAT_JSON && spec.json.serde == SQE_JSON_SERDE_OPENX);
        CHECK(spec.json.case_sensitive && spec.json.dots_in_keys && !spec.json.ignore_malformed);
        CHECK(spec.json.n_mappings == 2);
        for (int i = 0; i < spec.json.n_mappings && i < 2; i++) {
            if (!strcmp(spec.json.mapping_cols[i], "ts"))
                CHECK_STR(spec.json.mapping_keys[i], "time");
            else {
                CHECK_STR(spec.json.mapping_cols[i], "user_name");
                CHECK_STR(spec.json.mapping_keys[i], "User Name");
            }
        }
        sqe_hive_table_free(t);
    }

    /* recorded-only formats round-trip and fail at read time by name */
    CREATE_RT("rt", "orc_t",
              "CREATE EXTERNAL TABLE lake.rt.orc_t (a int) STORED AS ORC LOCATION '/d/orc'");
    CREATE_RT("rt", "avro_t",
              "CREATE EXTERNAL TABLE lake.rt.avro_t (a int) STORED AS AVRO LOCATION '/d/avro'");
    CREATE_RT(
        "rt", "seq_t",
        "CREATE EXTERNAL TABLE lake.rt.seq_t (a int) STORED AS SEQUENCEFILE LOCATION '/d/seq'");
    CREATE_RT("rt", "rc_t",
              "CREATE EXTERNAL TABLE lake.rt.rc_t (a int) STORED AS RCFILE LOCATION '/d/rc'");
    CREATE_RT("rt", "orc_hive",
              "CREATE EXTERNAL TABLE lake.rt.orc_hive (a int)\n"
              "ROW FORMAT SERDE 'org.apache.hadoop.hive.ql.io.orc.OrcSerde'\n"
              "STORED AS INPUTFORMAT 'org.apache.hadoop.hive.ql.io.orc.OrcInputFormat'\n"
              "OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat'\n"
              "LOCATION '/d/orc2'");
    CREATE_RT("rt", "rc_col",
              "CREATE EXTERNAL TABLE lake.rt.rc_col (a int)\n"
              "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe'\n"
              "STORED AS RCFILE LOCATION '/d/rc2'");
    t = resolve3("lake", "rt", "orc_t");
    if (t) {
        sqe_error e;
        sqe_error_clear(&e);
        CHECK(t->format == SQE_FORMAT_ORC);
        CHECK(!sqe_hive_check_readable(t, &e));
        CHECK(e.cls == SQE_ERR_NOT_SUPPORTED);
        CHECK_STR(e.msg, "cannot read table 'lake.rt.orc_t': format ORC "
                         "(org.apache.hadoop.hive.ql.io.orc.OrcInputFormat) "
                         "is not supported; readable formats are TEXTFILE, JSON and PARQUET");
        sqe_hive_table_free(t);
    }
    t = resolve3("lake", "rt", "avro_t");
    if (t) {
        sqe_error e;
        CHECK(t->format == SQE_FORMAT_AVRO && !sqe_hive_check_readable(t, &e));
        CHECK_CONTAINS(e.msg,
                       "format AVRO (org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat)");
        sqe_hive_table_free(t);
    }

    /* defaults: no ROW FORMAT means LazySimpleSerDe with \001 */
    CREATE_RT("rt", "bare", "CREATE EXTERNAL TABLE lake.rt.bare (line string) LOCATION '/d/bare'");
    CREATE_RT(
        "rt", "bare_tf",
        "CREATE EXTERNAL TABLE lake.rt.bare_tf (line string) STORED AS TEXTFILE LOCATION '/d/b2'");
    t = resolve3("lake", "rt", "bare");
    if (t) {
        CHECK(t->format == SQE_FORMAT_TEXT && t->text.field_delim == '\001');
        CHECK_STR(t->serde_class, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
        sqe_hive_table_free(t);
    }

    /* delimiters: octal, \u, Hive's decimal rule */
    CREATE_RT(
        "rt", "d_octal",
        "CREATE EXTERNAL TABLE lake.rt.d_octal (a string, b string) ROW FORMAT DELIMITED FIELDS "
        "TERMINATED BY '\\001' LOCATION '/d/o'");
    CREATE_RT(
        "rt", "d_uni",
        "CREATE EXTERNAL TABLE lake.rt.d_uni (a string) ROW FORMAT DELIMITED FIELDS TERMINATED BY "
        "'\\u0002' LOCATION '/d/u'");
    CREATE_RT("rt", "d_nine",
              "CREATE EXTERNAL TABLE lake.rt.d_nine (a string) ROW FORMAT DELIMITED FIELDS "
              "TERMINATED BY '9' "
              "LOCATION '/d/n'");
    CREATE_RT("rt", "d_pipe",
              "CREATE EXTERNAL TABLE lake.rt.d_pipe (a string) ROW FORMAT DELIMITED FIELDS "
              "TERMINATED BY '124' "
              "LOCATION '/d/p'");
    CREATE_RT("rt", "d_all",
              "CREATE EXTERNAL TABLE lake.rt.d_all (a string, b int)\n"
              "ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' ESCAPED BY '\\\\'\n"
              "COLLECTION ITEMS TERMINATED BY '\\002' MAP KEYS TERMINATED BY '\\003'\n"
              "LINES TERMINATED BY '\\n' NULL DEFINED AS ''\n"
              "STORED AS TEXTFILE LOCATION '/d/all'");
    struct {
        const char *t;
        char delim;
    } delims[] = {
        {"d_octal", '\001'}, {"d_uni", '\002'}, {"d_nine", '\t'}, {"d_pipe", '|'}, {"d_all", '|'}};
    for (size_t i = 0; i < SQE_ARRAY_LEN(delims); i++) {
        t = resolve3("lake", "rt", delims[i].t);
        if (t) {
            CHECK(t->text.field_delim == delims[i].delim);
            sqe_hive_table_free(t);
        }
    }
    t = resolve3("lake", "rt", "d_all");
    if (t) {
        CHECK(t->text.escape_char == '\\');
        CHECK_STR(t->text.null_format, "");
        sqe_hive_table_free(t);
    }
    m = load_manifest("rt", "d_all");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/colelction.delim"), "\002");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/mapkey.delim"), "\003");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/line.delim"), "\n");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/serialization.null.format"), "");
    json_decref(m);
    m = load_manifest("rt", "d_nine");
    CHECK_STR(jstr(m, "StorageDescriptor/SerdeInfo/Parameters/field.delim"),
              "9"); /* stored as Hive stores it */
    json_decref(m);
    char *ddl = query("SHOW CREATE TABLE lake.rt.d_octal");
    CHECK_CONTAINS(ddl, "'field.delim'='\\001'");
    sqe_free(ddl);

    /* a SerDe that disagrees with STORED AS wins, with a notice */
    sqe_strbuf_clear(&g_notices);
    CREATE_RT("rt", "serde_wins",
              "CREATE EXTERNAL TABLE lake.rt.serde_wins (a int)\n"
              "ROW FORMAT SERDE 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe'\n"
              "STORED AS TEXTFILE LOCATION '/d/sw'");
    CHECK_CONTAINS(g_notices.data,
                   "ROW FORMAT SERDE 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' "
                   "overrides STORED AS TEXTFILE: the table is stored as PARQUET");
    t = resolve3("lake", "rt", "serde_wins");
    if (t) {
        CHECK(t->format == SQE_FORMAT_PARQUET);
        CHECK_STR(t->input_format, "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat");
        sqe_hive_table_free(t);
    }

    /* quotes and backslashes in comments and values survive the round trip */
    CREATE_RT(
        "rt", "quotes",
        "CREATE EXTERNAL TABLE lake.rt.quotes (a string COMMENT 'it''s', b string COMMENT 'a\\'b', "
        "c string COMMENT 'C:\\\\temp\\\\x', d string COMMENT 'tab\\there')\n"
        "COMMENT 'say \"hi\"'\n"
        "LOCATION '/d/q'\nTBLPROPERTIES ('note'='100% \\\\ sure', 'multi'='line1\\nline2')");
    m = load_manifest("rt", "quotes");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/0/Comment"), "it's");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/1/Comment"), "a'b");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/2/Comment"), "C:\\temp\\x");
    CHECK_STR(jstr(m, "StorageDescriptor/Columns/3/Comment"), "tab\there");
    CHECK_STR(jstr(m, "Description"), "say \"hi\"");
    CHECK_STR(jstr(m, "Parameters/multi"), "line1\nline2");
    json_decref(m);

    /* partition key types and every scalar column type */
    CREATE_RT(
        "rt", "types",
        "CREATE EXTERNAL TABLE lake.rt.types (b boolean, ti tinyint, si smallint, i int, bi "
        "bigint, "
        "f float, d double, dec decimal(38,9), s string, v varchar(20), c char(3), dt date, ts "
        "timestamp, bin binary)\n"
        "PARTITIONED BY (p1 string, p2 varchar(10), p3 int, p4 bigint, p5 date)\n"
        "STORED AS PARQUET LOCATION '/d/types'");
    QUERY_IS(
        "DESCRIBE lake.rt.types",
        "b|boolean||\nti|tinyint||\nsi|smallint||\ni|integer||\nbi|bigint||\nf|real||\nd|double||\n"
        "dec|decimal(38,9)||\ns|varchar||\nv|varchar(20)||\nc|char(3)||\ndt|date||\nts|timestamp||"
        "\n"
        "bin|varbinary||\np1|varchar|partition key|\np2|varchar(10)|partition "
        "key|\np3|integer|partition "
        "key|\np4|bigint|partition key|\np5|date|partition key|");

    /* projection properties are validated and recorded */
    CREATE_RT(
        "rt", "proj",
        "CREATE EXTERNAL TABLE lake.rt.proj (a string) PARTITIONED BY (dt string, region string)\n"
        "STORED AS PARQUET LOCATION 's3://b/proj/'\n"
        "TBLPROPERTIES ('projection.enabled'='true', 'projection.dt.type'='date',\n"
        "'projection.dt.range'='2020-01-01,NOW', 'projection.dt.format'='yyyy-MM-dd',\n"
        "'projection.dt.interval'='1', 'projection.dt.interval.unit'='DAYS',\n"
        "'projection.region.type'='enum', 'projection.region.values'='eu,us',\n"
        "'storage.location.template'='s3://b/proj/${region}/${dt}/', "
        "'has_encrypted_data'='false')");
    /* TBLPROPERTIES 'EXTERNAL' given explicitly is fine */
    CREATE_RT("rt", "ext_prop",
              "CREATE EXTERNAL TABLE lake.rt.ext_prop (a string) LOCATION '/d/e' TBLPROPERTIES "
              "('EXTERNAL'='TRUE', 'skip.footer.line.count'='0')");
    /* SerDe properties that are known and implemented */
    CREATE_RT("rt", "lazy_props",
              "CREATE EXTERNAL TABLE lake.rt.lazy_props (a string)\n"
              "ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe'\n"
              "WITH SERDEPROPERTIES ('field.delim'='\\t', 'serialization.encoding'='UTF-8', "
              "'serialization.null.format'='NULL')\nLOCATION '/d/lp'");
    CREATE_RT("rt", "pq_props",
              "CREATE EXTERNAL TABLE lake.rt.pq_props (a string)\n"
              "ROW FORMAT SERDE 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe'\n"
              "WITH SERDEPROPERTIES ('parquet.column.index.access'='false')\nSTORED AS PARQUET "
              "LOCATION '/d/pp'");
    /* serialization.format alone is LazySimpleSerDe's field delimiter */
    OK("CREATE EXTERNAL TABLE lake.rt.sf (a string) ROW FORMAT SERDE "
       "'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' WITH SERDEPROPERTIES "
       "('serialization.format'=',') "
       "LOCATION '/d/sf'");
    t = resolve3("lake", "rt", "sf");
    if (t) {
        CHECK(t->text.field_delim == ',');
        sqe_hive_table_free(t);
    }
    /* a database created implicitly by its first table; names fold */
    OK("CREATE EXTERNAL TABLE lake.NewDb.MixedCase (A int) LOCATION '/d/m'");
    CHECK(file_exists("wh/newdb/mixedcase.manifest.json"));
}

/* ------------------------------------------------------------ CREATE: rejected */

static void test_create_rejections(void) {
    HERR("CREATE TEMPORARY EXTERNAL TABLE lake.x.t (a int) LOCATION '/d'",
         "hive_external: CREATE TEMPORARY TABLE is not supported");
    HERR("CREATE TABLE lake.x.t (a int) LOCATION '/d'",
         "hive_external: CREATE TABLE without EXTERNAL is not supported: sqe only registers "
         "external tables; use "
         "CREATE EXTERNAL TABLE ... LOCATION '...'");
    HERR("CREATE TABLE lake.x.t AS SELECT 1 AS a",
         "CREATE TABLE ... AS SELECT is not supported yet (writes are planned for a later cycle)");
    HERR("CREATE EXTERNAL TABLE lake.x.t LOCATION '/d' AS SELECT 1 AS a",
         "CREATE TABLE ... AS SELECT is not supported yet");
    HERR("CREATE EXTERNAL TABLE lake.x.t LIKE lake.sales.orders",
         "CREATE TABLE ... LIKE is not supported yet");
    HERR("CREATE OR REPLACE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d'",
         "CREATE OR REPLACE TABLE is not supported");
    HERR(
        "CREATE EXTERNAL TABLE lake.x.t (a int)",
        "hive_external: LOCATION is required: sqe never chooses a data path for an external table");
    ERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION 'hdfs://nn/x'", SQE_ERR_NOT_SUPPORTED,
        "unsupported URL scheme 'hdfs'");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) CLUSTERED BY (a) INTO 4 BUCKETS LOCATION '/d'",
         "CLUSTERED BY ... INTO n BUCKETS (bucketed tables) is not supported");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) SKEWED BY (a) ON ((1)) LOCATION '/d'",
         "SKEWED BY (skewed tables) is not supported");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) STORED BY "
         "'org.apache.hadoop.hive.hbase.HBaseStorageHandler' "
         "LOCATION '/d'",
         "STORED BY 'org.apache.hadoop.hive.hbase.HBaseStorageHandler': storage handlers are not "
         "supported");
    HERR("CREATE EXTERNAL TABLE lake.x.t (id int, tags array<string>) LOCATION '/d'",
         "column 'tags' has type array<string>: nested types (array, map, struct) are not "
         "supported yet");
    HERR("CREATE EXTERNAL TABLE lake.x.t (id int, s struct<a:int>) LOCATION '/d'",
         "column 's' has type struct<a:int>: nested types");
    HERR("CREATE EXTERNAL TABLE lake.x.t (id int, c strng) LOCATION '/d'",
         "column 'c': unknown type 'strng'");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (x double) LOCATION '/d'",
         "partition key 'x' has type double: partition keys must be string, varchar, int, bigint "
         "or date");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (x char(2)) LOCATION '/d'",
         "partition key 'x' has type char(2)");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (x timestamp) LOCATION '/d'",
         "partition key 'x' has type timestamp");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int, A string) LOCATION '/d'",
         "duplicate column name 'a'");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int, dt string) PARTITIONED BY (DT string) LOCATION "
         "'/d'",
         "partition column 'dt' also appears in the column list");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (k string, K int) LOCATION '/d'",
         "duplicate partition key 'k'");
    HERR("CREATE EXTERNAL TABLE lake.x.t LOCATION '/d'", "a table needs at least one column");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt) LOCATION '/d'",
         "PARTITIONED BY (dt) without types is only valid with AS SELECT");

    /* STORED AS */
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) STORED AS CSV LOCATION '/d'",
         "hive_external: STORED AS CSV is not a Hive format; use ROW FORMAT DELIMITED FIELDS "
         "TERMINATED BY ',' "
         "STORED AS TEXTFILE (or ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' for "
         "quoted CSV)");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) STORED AS JSON LOCATION '/d'",
         "STORED AS JSON is not a Hive format; use ROW FORMAT SERDE "
         "'org.openx.data.jsonserde.JsonSerDe' (or "
         "STORED AS JSONFILE)");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) STORED AS ICEBERG LOCATION '/d'",
         "unknown STORED AS format 'ICEBERG'; expected one of TEXTFILE, SEQUENCEFILE, ORC, "
         "PARQUET, AVRO, RCFILE, "
         "JSONFILE");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) STORED AS INPUTFORMAT "
         "'org.apache.hudi.hadoop.HoodieParquetInputFormat' "
         "OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat' LOCATION "
         "'/d'",
         "unsupported INPUTFORMAT 'org.apache.hudi.hadoop.HoodieParquetInputFormat': custom or "
         "table-format "
         "readers are not supported (reading it as text would split files into the wrong rows)");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
         "STORED AS PARQUET "
         "LOCATION '/d'",
         "ROW FORMAT DELIMITED does not apply to STORED AS PARQUET");

    /* SerDe allow-list and keys */
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'com.amazon.emr.hive.serde.CloudTrailSerde' "
         "LOCATION '/d'",
         "unsupported SerDe 'com.amazon.emr.hive.serde.CloudTrailSerde': supported SerDes are "
         "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe, "
         "org.apache.hadoop.hive.serde2.OpenCSVSerde");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.opencsvserde' "
         "LOCATION '/d'",
         "unsupported SerDe 'org.apache.hadoop.hive.serde2.opencsvserde'");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.OpenCSVSerde' "
         "WITH SERDEPROPERTIES ('separatorchar'=',') LOCATION '/d'",
         "hive_external: unknown SERDEPROPERTIES key 'separatorchar' for "
         "org.apache.hadoop.hive.serde2.OpenCSVSerde; "
         "known keys: separatorChar, quoteChar, escapeChar");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.OpenCSVSerde' "
         "WITH SERDEPROPERTIES ('separatorChar'=';;') LOCATION '/d'",
         "SERDEPROPERTIES 'separatorChar': delimiter ';;' is 2 characters; a delimiter must be "
         "exactly one character");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.OpenCSVSerde' "
         "WITH SERDEPROPERTIES ('separatorChar'=',', 'separatorChar'=';') LOCATION '/d'",
         "SERDEPROPERTIES key 'separatorChar' is given twice");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' "
         "WITH SERDEPROPERTIES ('timestamp.formats'='yyyy') LOCATION '/d'",
         "SERDEPROPERTIES 'timestamp.formats' is not supported yet");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' "
         "WITH SERDEPROPERTIES ('serialization.encoding'='ISO-8859-1') LOCATION '/d'",
         "SERDEPROPERTIES 'serialization.encoding'='ISO-8859-1' is not supported: sqe reads text "
         "as UTF-8");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' "
         "WITH SERDEPROPERTIES ('quote.delim'='\"') LOCATION '/d'",
         "unknown SERDEPROPERTIES key 'quote.delim' for "
         "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.openx.data.jsonserde.JsonSerDe' "
         "WITH SERDEPROPERTIES ('dots.in.keys'='yes') LOCATION '/d'",
         "SERDEPROPERTIES 'dots.in.keys'='yes': expected true or false");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.openx.data.jsonserde.JsonSerDe' "
         "WITH SERDEPROPERTIES ('mapping.ts'='timestamp') LOCATION '/d'",
         "SERDEPROPERTIES 'mapping.ts': the table has no data column 'ts' to map a JSON key to");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.openx.data.jsonserde.JsonSerDe' "
         "WITH SERDEPROPERTIES ('mapping.a'='') LOCATION '/d'",
         "a JSON key mapping needs a column name after 'mapping.' and a non-empty JSON key");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.openx.data.jsonserde.JsonSerDe' "
         "WITH SERDEPROPERTIES ('ignore.malformed.json'='maybe') LOCATION '/d'",
         "SERDEPROPERTIES 'ignore.malformed.json'='maybe': expected true or false");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hive.hcatalog.data.JsonSerDe' "
         "WITH SERDEPROPERTIES ('ignore.malformed.json'='true') LOCATION '/d'",
         "unknown SERDEPROPERTIES key 'ignore.malformed.json' for "
         "org.apache.hive.hcatalog.data.JsonSerDe");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' WITH SERDEPROPERTIES "
         "('parquet.column.index.access'='true') STORED AS PARQUET LOCATION '/d'",
         "'parquet.column.index.access'='true' (binding Parquet columns by position) is not "
         "supported");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT SERDE "
         "'org.apache.hadoop.hive.serde2.RegexSerDe' "
         "LOCATION '/d'",
         "RegexSerDe requires SERDEPROPERTIES 'input.regex'");

    /* delimiters */
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\200' "
         "LOCATION '/d'",
         "FIELDS TERMINATED BY: delimiter '\\200' is byte 128; only ASCII delimiters (0-127) are "
         "supported");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY '' "
         "LOCATION '/d'",
         "FIELDS TERMINATED BY: delimiter '' is empty; a delimiter must be exactly one character");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY '||' "
         "LOCATION '/d'",
         "FIELDS TERMINATED BY: delimiter '||' is 2 characters; a delimiter must be exactly one "
         "character");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY '200' "
         "LOCATION '/d'",
         "FIELDS TERMINATED BY: delimiter '200' reads as the number 200");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY '\\0' "
         "LOCATION '/d'",
         "is byte 0 (NUL)");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY 'é' "
         "LOCATION '/d'",
         "FIELDS TERMINATED BY: delimiter 'é' is not an ASCII character");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
         "ESCAPED BY 'ab' "
         "LOCATION '/d'",
         "ESCAPED BY: delimiter 'ab' is 2 characters");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) ROW FORMAT DELIMITED LINES TERMINATED BY '|' "
         "LOCATION '/d'",
         "LINES TERMINATED BY '|' is not supported: Hive only supports '\\n' as the line "
         "terminator");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) COMMENT 'bad \\200 byte' LOCATION '/d'",
         "COMMENT 'bad \\200 byte' is not valid UTF-8");

    /* TBLPROPERTIES */
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d' TBLPROPERTIES "
         "('skip.header.line.count'='-1')",
         "hive_external: invalid skip.header.line.count '-1': expected an integer >= 0");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d' TBLPROPERTIES "
         "('skip.footer.line.count'='x')",
         "invalid skip.footer.line.count 'x': expected an integer >= 0");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d' TBLPROPERTIES ('sqe.foo'='1')",
         "unknown TBLPROPERTIES key 'sqe.foo': the only sqe.* property is sqe.secret");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d' TBLPROPERTIES "
         "('has_encrypted_data'='true')",
         "has_encrypted_data=true (client-side encrypted data) is not supported");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d' TBLPROPERTIES ('EXTERNAL'='FALSE')",
         "TBLPROPERTIES 'EXTERNAL'='FALSE' contradicts an external table");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) LOCATION '/d' TBLPROPERTIES ('k'='1', 'k'='2')",
         "TBLPROPERTIES key 'k' is given twice");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.dt.foo'='1')",
         "unknown TBLPROPERTIES key 'projection.dt.foo': expected projection.enabled or "
         "projection.<partition "
         "key>.");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.region.type'='enum')",
         "TBLPROPERTIES 'projection.region.type': 'region' is not a partition key");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.dt.type'='weird')",
         "invalid projection.dt.type 'weird': expected enum, integer, date or injected");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.enabled'='yes')",
         "invalid projection.enabled 'yes': expected true or false");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.enabled'='true')",
         "projection.enabled is true but partition key 'dt' has no projection.dt.type");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.enabled'='true', 'projection.dt.type'='enum')",
         "projection of type enum for partition key 'dt' needs TBLPROPERTIES "
         "'projection.dt.values'");
    HERR("CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (dt string) LOCATION '/d' "
         "TBLPROPERTIES "
         "('projection.dt.interval.unit'='FORTNIGHTS')",
         "invalid projection.dt.interval.unit 'FORTNIGHTS'");

    /* names */
    HERR("CREATE EXTERNAL TABLE lake.sales.`my-table` (a int) LOCATION '/d'",
         "hive_external: invalid table name 'my-table': names must match [a-z0-9_]+ after "
         "lower-casing");
    HERR("CREATE EXTERNAL TABLE lake.`my db`.t (a int) LOCATION '/d'",
         "invalid database name 'my db': names must match [a-z0-9_]+ after lower-casing");
    ERR("CREATE EXTERNAL TABLE nope.db.t (a int) LOCATION '/d'", SQE_ERR_NOT_FOUND,
        "root 'nope' is not attached");
    HERR("CREATE EXTERNAL TABLE lake.x.t (`a``b` int) LOCATION '/d'",
         "column name 'a`b' contains a backquote");

    /* limits */
    sqe_hive_limits lim = {0, 3, 1};
    sqe_hive_catalog *c2 = sqe_hive_catalog_new(&lim);
    sqe_error e;
    CHECK(sqe_hive_attach(c2, "lake", g_wh, NULL, &e));
    CHECK(!exec_in(c2, "CREATE EXTERNAL TABLE lake.x.t (a int, b int, c int, d int) LOCATION '/d'",
                   NULL));
    CHECK_STR(g_err.msg, "hive_external: table has 4 columns, more than manifest_max_columns (3)");
    CHECK(!exec_in(
        c2,
        "CREATE EXTERNAL TABLE lake.x.t (a int) PARTITIONED BY (p string, q string) LOCATION '/d'",
        NULL));
    CHECK_STR(
        g_err.msg,
        "hive_external: table has 2 partition keys, more than manifest_max_partition_keys (1)");
    sqe_hive_catalog_free(c2);

    /* nothing was written by any of these */
    CHECK(!file_exists("wh/x"));
}

/* ------------------------------------------------------------ DROP, USE, SHOW */

static void test_drop_use_show(void) {
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.sales.items (a int) LOCATION '%s/data/items/'", g_tmp);
    OK(sql);
    write_file("data/items/part-0.csv", "1\n");
    OK("CREATE EXTERNAL TABLE lake.sales.clicks (a int) LOCATION '/d/clicks'");
    QUERY_IS("SHOW TABLES FROM lake.sales", "clicks\nitems\norders");
    QUERY_IS("SHOW TABLES FROM lake.sales LIKE 'ord%'", "orders");
    QUERY_IS("SHOW TABLES FROM lake.sales LIKE 'cl*|it*'", "clicks\nitems");
    QUERY_IS("SHOW TABLES IN lake.sales LIKE '*s'", "clicks\nitems\norders");
    QUERY_IS("SHOW TABLES FROM lake.nodb", "ERROR: database 'lake.nodb' does not exist");
    QUERY_IS("SHOW TABLES", ""); /* default always exists */

    ERR("DROP TABLE lake.sales.items PURGE", SQE_ERR_HIVE_EXTERNAL,
        "hive_external: DROP TABLE ... PURGE is not supported: sqe never deletes table data");
    ERR("DROP VIEW lake.sales.items", SQE_ERR_NOT_SUPPORTED, "DROP VIEW is not supported yet");
    OK("DROP TABLE lake.sales.items");
    CHECK(!file_exists("wh/sales/items.manifest.json"));
    CHECK(file_exists("data/items/part-0.csv")); /* data untouched */
    ERR("DROP TABLE lake.sales.items", SQE_ERR_NOT_FOUND,
        "table 'lake.sales.items' not found (no manifest at '");
    OK("DROP TABLE IF EXISTS lake.sales.items");

    /* resolution */
    const char *p2[2] = {"sales", "orders"};
    sqe_error e;
    sqe_error_clear(&e);
    sqe_hive_table *t = sqe_hive_resolve_table(g_cat, 2, p2, &e); /* current root */
    CHECK(t != NULL);
    sqe_hive_table_free(t);
    const char *p1[1] = {"orders"};
    CHECK(sqe_hive_resolve_table(g_cat, 1, p1, &e) == NULL); /* current db is default */
    CHECK(e.cls == SQE_ERR_NOT_FOUND);
    char want[600];
    snprintf(
        want, sizeof want,
        "table 'lake.default.orders' not found (no manifest at '%s/default/orders.manifest.json')",
        g_wh);
    CHECK_STR(e.msg, want);
    const char *p3[3] = {"nope", "sales", "orders"};
    CHECK(sqe_hive_resolve_table(g_cat, 3, p3, &e) == NULL);
    CHECK_STR(e.msg, "root 'nope' is not attached");
    const char *pbad[1] = {"Bad-Name"};
    CHECK(sqe_hive_resolve_table(g_cat, 1, pbad, &e) == NULL);
    CHECK_STR(e.msg, "hive_external: invalid table name 'Bad-Name': names must match [a-z0-9_]+ "
                     "after lower-casing");

    OK("USE lake.sales");
    CHECK_STR(sqe_hive_current_database(g_cat), "sales");
    sqe_error_clear(&e);
    t = sqe_hive_resolve_table(g_cat, 1, p1, &e);
    CHECK(t != NULL);
    sqe_hive_table_free(t);
    QUERY_IS("SHOW TABLES", "clicks\norders");
    QUERY_IS("DESCRIBE orders",
             "id|bigint||\namount|double||in EUR\nnote|varchar||\ndt|varchar|partition key|");
    OK("USE default");
    CHECK_STR(sqe_hive_current_database(g_cat), "default");
    OK("USE rt");
    CHECK_STR(sqe_hive_current_database(g_cat), "rt");
    ERR("USE nodb", SQE_ERR_NOT_FOUND, "database 'lake.nodb' does not exist");
    OK("USE lake");
    CHECK_STR(sqe_hive_current_root(g_cat), "lake");
    CHECK_STR(sqe_hive_current_database(g_cat), "default");
    ERR("USE nope.sales", SQE_ERR_NOT_FOUND, "root 'nope' is not attached");
    OK("USE lake.sales");
}

static void test_databases(void) {
    OK("CREATE DATABASE lake.mkt COMMENT 'marketing'");
    json_error_t je;
    char path[600];
    snprintf(path, sizeof path, "%s/mkt/_database.json", g_wh);
    json_t *d = json_load_file(path, 0, &je);
    CHECK(d != NULL);
    CHECK_STR(jstr(d, "Name"), "mkt");
    CHECK_STR(jstr(d, "Description"), "marketing");
    CHECK(json_integer_value(json_object_get(d, "sqe_manifest_version")) == 1);
    json_decref(d);
    ERR("CREATE DATABASE lake.mkt", SQE_ERR_ALREADY_EXISTS, "database 'lake.mkt' already exists");
    OK("CREATE SCHEMA IF NOT EXISTS lake.mkt");
    ERR("CREATE DATABASE lake.sales", SQE_ERR_ALREADY_EXISTS,
        "database 'lake.sales' already exists");
    HERR("CREATE DATABASE lake.geo LOCATION 's3://b/geo/'",
         "hive_external: CREATE DATABASE ... LOCATION is not supported: a database is the folder "
         "<root>/<db>/");
    HERR("CREATE DATABASE lake.`bad-db`", "invalid database name 'bad-db'");
    OK("CREATE DATABASE emptydb"); /* current root */
    char stray[600];               /* folders that are not databases */
    snprintf(stray, sizeof stray, "%s/notadb/sub", g_wh);
    mkdir_p(stray);
    snprintf(stray, sizeof stray, "%s/.hidden", g_wh);
    mkdir_p(stray);
    QUERY_IS("SHOW DATABASES", "emptydb\nmkt\nnewdb\nrt\nsales");
    QUERY_IS("SHOW SCHEMAS FROM lake LIKE 's%'", "sales");
    QUERY_IS("SHOW SCHEMAS FROM nope", "ERROR: root 'nope' is not attached");

    ERR("DROP DATABASE lake.sales", SQE_ERR_USAGE,
        "database 'lake.sales' is not empty: it holds 2 tables (clicks, orders)");
    ERR("DROP DATABASE lake.mkt CASCADE", SQE_ERR_NOT_SUPPORTED,
        "DROP DATABASE ... CASCADE is not supported");
    OK("DROP DATABASE lake.mkt");
    CHECK(!file_exists("wh/mkt/_database.json"));
    ERR("DROP DATABASE lake.mkt", SQE_ERR_NOT_FOUND, "database 'lake.mkt' does not exist");
    OK("DROP SCHEMA IF EXISTS lake.mkt");
    OK("DROP DATABASE emptydb");
}

/* ------------------------------------------------------------ manifests on disk */

static void bad_manifest_at(int line, const char *name, const char *json, sqe_error_class cls,
                            const char *part) {
    char rel[300];
    snprintf(rel, sizeof rel, "wh/bad/%s.manifest.json", name);
    write_file(rel, json);
    g_quiet = true;
    sqe_hive_table *t = resolve3("lake", "bad", name);
    g_quiet = false;
    unit_checks++;
    if (t || g_err.cls != cls || !strstr(g_err.msg, part)) {
        unit_failures++;
        fprintf(stderr, "test_hive.c:%d: manifest %s: expected %s containing\n    %s\n  got: %s\n",
                line, name, sqe_error_class_name(cls), part, t ? "(loaded)" : g_err.msg);
    }
    sqe_hive_table_free(t);
}
#define BAD(name, json, part) bad_manifest_at(__LINE__, name, json, SQE_ERR_HIVE_EXTERNAL, part)

#define SD_OK                                                                                      \
    "\"StorageDescriptor\": {\"Columns\": [{\"Name\": \"a\", \"Type\": \"int\"}], \"Location\": "  \
    "\"/d\", "                                                                                     \
    "\"InputFormat\": \"org.apache.hadoop.mapred.TextInputFormat\", \"OutputFormat\": "            \
    "\"org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat\", \"SerdeInfo\": "              \
    "{\"SerializationLibrary\": \"org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe\"}}"

static void test_manifests(void) {
    /* a hand-written Glue-shaped manifest with fields sqe ignores */
    write_file(
        "wh/bad/good.manifest.json",
        "{\"sqe_manifest_version\": 1, \"Name\": \"good\", \"Owner\": \"hadoop\", \"Retention\": "
        "0,\n"
        " \"TableType\": \"EXTERNAL_TABLE\", \"Parameters\": {\"EXTERNAL\": \"TRUE\"},\n"
        " \"PartitionKeys\": [],\n"
        " \"StorageDescriptor\": {\"Columns\": [{\"Name\": \"A\", \"Type\": \"varchar(5)\", "
        "\"Parameters\": {}}],\n"
        "   \"Location\": \"/d/good\", \"Compressed\": false, \"NumberOfBuckets\": -1, "
        "\"BucketColumns\": [],\n"
        "   \"SortColumns\": [], \"StoredAsSubDirectories\": false, \"Parameters\": {},\n"
        "   \"InputFormat\": \"org.apache.hadoop.mapred.TextInputFormat\",\n"
        "   \"OutputFormat\": \"org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat\",\n"
        "   \"SerdeInfo\": {\"Name\": \"x\", \"SerializationLibrary\": "
        "\"org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe\",\n"
        "     \"Parameters\": {\"field.delim\": \"\\t\"}}},\n"
        " \"sqe.statistics\": {}}\n");
    sqe_hive_table *t = resolve3("lake", "bad", "good");
    CHECK(t != NULL);
    if (t) {
        CHECK_STR(t->cols[0].name, "a");
        CHECK(t->cols[0].type.str_kind == SQE_STRKIND_VARCHAR && t->cols[0].type.length == 5);
        CHECK(t->text.field_delim == '\t');
        sqe_hive_table_free(t);
    }
    char *ddl = query("SHOW CREATE TABLE lake.bad.good");
    CHECK_CONTAINS(ddl, "'field.delim'='\\t'");
    sqe_free(ddl);

    char path[600];
    snprintf(path, sizeof path, "%s/bad/j.manifest.json", g_wh);
    BAD("j", "{ \"sqe_manifest_version\": 1,\n  not json", "hive_external: manifest '");
    CHECK_CONTAINS(g_err.msg, "j.manifest.json': invalid JSON at line 2, column");
    BAD("dup", "{\"sqe_manifest_version\": 1, \"sqe_manifest_version\": 1}",
        "invalid JSON at line 1");
    BAD("arr", "[1, 2]", "(document): expected a JSON object, found an array");
    BAD("v2", "{\"sqe_manifest_version\": 2, \"Name\": \"v2\"}",
        "sqe_manifest_version: expected 1, found 2");
    BAD("v0", "{\"Name\": \"v0\"}", "sqe_manifest_version: missing (expected 1)");
    BAD("unk", "{\"sqe_manifest_version\": 1, \"Name\": \"unk\", \"Foo\": 1}",
        "Foo: unknown key 'Foo'");
    BAD("nm", "{\"sqe_manifest_version\": 1, \"Name\": \"other\", " SD_OK "}",
        "Name: 'other' does not match the file name 'nm.manifest.json'");
    BAD("tt",
        "{\"sqe_manifest_version\": 1, \"Name\": \"tt\", \"TableType\": \"MANAGED_TABLE\", " SD_OK
        "}",
        "TableType: 'MANAGED_TABLE' is not supported; expected EXTERNAL_TABLE or VIRTUAL_VIEW");
    BAD("nosd", "{\"sqe_manifest_version\": 1, \"Name\": \"nosd\"}", "StorageDescriptor: missing");
    char want[800];
    snprintf(want, sizeof want,
             "hive_external: manifest '%s/bad/ty.manifest.json': "
             "StorageDescriptor.Columns[2].Type: unknown type "
             "'strng'",
             g_wh);
    BAD("ty",
        "{\"sqe_manifest_version\": 1, \"Name\": \"ty\", \"StorageDescriptor\": {\"Columns\": "
        "[{\"Name\": \"a\", "
        "\"Type\": \"int\"}, {\"Name\": \"b\", \"Type\": \"int\"}, {\"Name\": \"c\", \"Type\": "
        "\"strng\"}]}}",
        want);
    BAD("nest",
        "{\"sqe_manifest_version\": 1, \"Name\": \"nest\", \"StorageDescriptor\": {\"Columns\": "
        "[{\"Name\": \"a\", "
        "\"Type\": \"array<int>\"}]}}",
        "StorageDescriptor.Columns[0].Type: column 'a' has type array<int>: nested types");
    BAD("colkey",
        "{\"sqe_manifest_version\": 1, \"Name\": \"colkey\", \"StorageDescriptor\": {\"Columns\": "
        "[{\"Name\": \"a\", "
        "\"Typ\": \"int\"}]}}",
        "StorageDescriptor.Columns[0].Typ: unknown key 'Typ'");
    BAD("sdkey",
        "{\"sqe_manifest_version\": 1, \"Name\": \"sdkey\", \"StorageDescriptor\": {\"Colums\": "
        "[]}}",
        "StorageDescriptor.Colums: unknown key 'Colums'");
    BAD("buck",
        "{\"sqe_manifest_version\": 1, \"Name\": \"buck\", \"StorageDescriptor\": "
        "{\"NumberOfBuckets\": 4}}",
        "StorageDescriptor.NumberOfBuckets: bucketed tables");
    BAD("serde",
        "{\"sqe_manifest_version\": 1, \"Name\": \"serde\", \"StorageDescriptor\": {\"Columns\": "
        "[{\"Name\": \"a\", "
        "\"Type\": \"int\"}], \"Location\": \"/d\", \"InputFormat\": "
        "\"org.apache.hadoop.mapred.TextInputFormat\", "
        "\"OutputFormat\": \"o\", \"SerdeInfo\": {\"SerializationLibrary\": "
        "\"com.example.MySerDe\"}}}",
        "StorageDescriptor.SerdeInfo.SerializationLibrary: unsupported SerDe "
        "'com.example.MySerDe'");
    BAD("skey",
        "{\"sqe_manifest_version\": 1, \"Name\": \"skey\", \"StorageDescriptor\": {\"Columns\": "
        "[{\"Name\": \"a\", "
        "\"Type\": \"int\"}], \"Location\": \"/d\", \"InputFormat\": "
        "\"org.apache.hadoop.mapred.TextInputFormat\", "
        "\"OutputFormat\": \"o\", \"SerdeInfo\": {\"SerializationLibrary\": "
        "\"org.apache.hadoop.hive.serde2.OpenCSVSerde\", \"Parameters\": {\"separatorchar\": "
        "\",\"}}}}",
        "StorageDescriptor.SerdeInfo.Parameters.separatorchar: unknown SERDEPROPERTIES key "
        "'separatorchar'");
    BAD("mismatch",
        "{\"sqe_manifest_version\": 1, \"Name\": \"mismatch\", \"StorageDescriptor\": "
        "{\"Columns\": [{\"Name\": "
        "\"a\", \"Type\": \"int\"}], \"Location\": \"/d\", \"InputFormat\": "
        "\"org.apache.hadoop.hive.ql.io.orc.OrcInputFormat\", \"OutputFormat\": \"o\", "
        "\"SerdeInfo\": "
        "{\"SerializationLibrary\": "
        "\"org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe\"}}}",
        "SerDe 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' does not match "
        "INPUTFORMAT "
        "'org.apache.hadoop.hive.ql.io.orc.OrcInputFormat' (ORC storage, whose SerDe is "
        "org.apache.hadoop.hive.ql.io.orc.OrcSerde)");
    BAD("proj",
        "{\"sqe_manifest_version\": 1, \"Name\": \"proj\", \"Parameters\": "
        "{\"projection.dt.typo\": \"date\"}, "
        "\"PartitionKeys\": [{\"Name\": \"dt\", \"Type\": \"string\"}], " SD_OK "}",
        "Parameters.projection.dt.typo: unknown TBLPROPERTIES key 'projection.dt.typo'");
    BAD("skip",
        "{\"sqe_manifest_version\": 1, \"Name\": \"skip\", \"Parameters\": "
        "{\"skip.header.line.count\": \"one\"}, " SD_OK "}",
        "Parameters.skip.header.line.count: invalid skip.header.line.count 'one'");
    BAD("pstr",
        "{\"sqe_manifest_version\": 1, \"Name\": \"pstr\", \"Parameters\": {\"a\": 1}, " SD_OK "}",
        "Parameters.a: expected a string, found an integer");
    BAD("pk",
        "{\"sqe_manifest_version\": 1, \"Name\": \"pk\", \"PartitionKeys\": [{\"Name\": \"x\", "
        "\"Type\": "
        "\"double\"}], " SD_OK "}",
        "PartitionKeys[0]: partition key 'x' has type double");
    BAD("loc",
        "{\"sqe_manifest_version\": 1, \"Name\": \"loc\", \"StorageDescriptor\": {\"Columns\": "
        "[{\"Name\": \"a\", "
        "\"Type\": \"int\"}]}}",
        "StorageDescriptor.Location: missing (expected a string)");

    /* oversize */
    sqe_strbuf big;
    sqe_strbuf_init(&big);
    sqe_strbuf_puts(&big, "{\"sqe_manifest_version\": 1, \"Name\": \"big\", \"Description\": \"");
    for (int i = 0; i < (1 << 20) / 64 + 10; i++)
        sqe_strbuf_puts(&big, "0123456789012345678901234567890123456789012345678901234567890123");
    sqe_strbuf_puts(&big, "\"}");
    bad_manifest_at(__LINE__, "big", big.data, SQE_ERR_RESOURCE_EXHAUSTED,
                    "big.manifest.json' is larger than manifest_max_bytes (1048576 bytes)");
    sqe_strbuf_free(&big);
}

/* ------------------------------------------------------------ partitions */

static void make_tree(void) {
    write_file("data/events/dt=2024-01-02/region=eu/n=1/part-0.csv", "x\n");
    write_file("data/events/dt=2024-01-02/region=eu/n=1/_committed", "x\n");
    write_file("data/events/dt=2024-01-02/region=eu/n=1/.part-0.csv.crc", "x\n");
    write_file("data/events/dt=2024-01-02/region=eu/n=1/empty.csv", "");
    write_file("data/events/dt=2024-01-02/region=eu/n=1/sub/dir/deep.csv", "x\n");
    write_file("data/events/dt=2024-01-02/region=eu/n=1/_tmp/hidden.csv", "x\n");
    write_file("data/events/dt=2024-01-01/region=us%2Fwest/n=2/a.csv", "x\n");
    write_file("data/events/dt=2024-01-01/region=__HIVE_DEFAULT_PARTITION__/n=3/a.csv", "x\n");
    write_file("data/events/dt=__HIVE_DEFAULT_PARTITION__/region=eu/n=1/a.csv", "x\n");
    write_file("data/events/DT=2024-01-03/Region=ap/N=10/a.csv", "x\n");
    write_file("data/events/DT=2024-01-03/Region=ap/N=9/a.csv", "x\n");
    write_file("data/events/_SUCCESS", "");
    write_file("data/events/.hidden/x.csv", "x\n");
    write_file("data/events/_temporary/0/x.csv", "x\n");
    write_file("data/events/readme.txt", "not data\n");
    write_file("data/events/dt=2024-01-02/stray.txt", "ignored: a file above the leaf level\n");
}

static char *partitions_text(sqe_hive_partition *ps, size_t n, const sqe_hive_table *t) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    for (size_t i = 0; i < n; i++) {
        if (i) sqe_strbuf_putc(&sb, ';');
        for (int k = 0; k < t->n_part_keys; k++) {
            if (k) sqe_strbuf_putc(&sb, ',');
            const sqe_value *v = &ps[i].values[k];
            if (v->is_null) {
                sqe_strbuf_puts(&sb, "NULL");
            } else if (v->type.id == SQE_T_VARCHAR) {
                sqe_strbuf_append(&sb, v->v.s.ptr, v->v.s.len);
            } else if (v->type.id == SQE_T_DATE) {
                char buf[32];
                sqe_date_format((int32_t)v->v.i, buf, sizeof buf);
                sqe_strbuf_puts(&sb, buf);
            } else {
                sqe_strbuf_printf(&sb, "%lld", (long long)v->v.i);
            }
        }
    }
    return sb.data ? sqe_strbuf_detach(&sb) : sqe_strdup("");
}

static void test_partitions(void) {
    make_tree();
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.sales.events (x string) PARTITIONED BY (dt date, region "
             "string, n int) "
             "LOCATION '%s/data/events'",
             g_tmp);
    OK(sql);
    sqe_hive_table *t = resolve3("lake", "sales", "events");
    if (!t) return;
    sqe_error e;
    sqe_error_clear(&e);
    sqe_store *store = sqe_io_local_new();
    sqe_arena *a = sqe_arena_new(0);
    sqe_hive_partition *ps = NULL;
    size_t n = 0;
    CHECK(sqe_hive_list_partitions(store, t, NULL, a, &ps, &n, &e));
    if (e.cls) fprintf(stderr, "  %s\n", e.msg);
    char *txt = partitions_text(ps, n, t);
    CHECK_STR(
        txt,
        "2024-01-01,us/west,2;2024-01-01,NULL,3;2024-01-02,eu,1;2024-01-03,ap,9;2024-01-03,ap,10;"
        "NULL,eu,1");
    sqe_free(txt);
    CHECK(n == 6);
    if (n == 6) {
        CHECK(sqe_str_ends_with(ps[0].path, "/data/events/dt=2024-01-01/region=us%2Fwest/n=2/"));
        CHECK(ps[1].values[1].is_null && ps[1].values[1].type.id == SQE_T_VARCHAR);
        CHECK(ps[3].values[2].type.id == SQE_T_INTEGER);
        CHECK(sqe_str_ends_with(ps[3].path, "/DT=2024-01-03/Region=ap/N=9/"));

        /* files of one partition: recursive, hidden and empty skipped, sorted */
        sqe_hive_file *fs = NULL;
        size_t nf = 0;
        CHECK(sqe_hive_list_files(store, ps[2].path, a, &fs, &nf, &e));
        CHECK(nf == 2);
        if (nf == 2) {
            CHECK(sqe_str_ends_with(fs[0].path, "/n=1/part-0.csv"));
            CHECK(sqe_str_ends_with(fs[1].path, "/n=1/sub/dir/deep.csv"));
            CHECK(fs[0].size == 2);
        }
        CHECK(sqe_hive_list_files(store, "/nonexistent/folder/", a, &fs, &nf, &e));
        CHECK(nf == 0);
    }

    /* pruning: a string key addressed directly, a date key filtered, NULLs admitted on request */
    sqe_value region_eq[2] = {sqe_value_string("us/west", 7), sqe_value_string("nowhere", 7)};
    sqe_hive_ppred region_in = {
        .kind = SQE_HIVE_PP_TERM,
        .term = {.col = 1, .op = SQE_FPRED_IN, .n_vals = 2, .vals = region_eq}};
    sqe_hive_ppred region_null = {.kind = SQE_HIVE_PP_TERM,
                                  .term = {.col = 1, .op = SQE_FPRED_IS_NULL}};
    const sqe_hive_ppred *region_kids[2] = {&region_in, &region_null};
    sqe_hive_ppred region_or = {.kind = SQE_HIVE_PP_OR, .n_kids = 2, .kids = region_kids};
    sqe_hive_prune prune = {&region_or};
    CHECK(sqe_hive_list_partitions(store, t, &prune, a, &ps, &n, &e));
    txt = partitions_text(ps, n, t);
    CHECK_STR(txt, "2024-01-01,us/west,2;2024-01-01,NULL,3");
    sqe_free(txt);
    sqe_value dt_eq[1] = {sqe_value_int(SQE_T_DATE, sqe_date_from_ymd(2024, 1, 3))};
    sqe_hive_ppred dt_term = {.kind = SQE_HIVE_PP_TERM,
                              .term = {.col = 0, .op = SQE_FPRED_EQ, .n_vals = 1, .vals = dt_eq}};
    sqe_hive_prune prune2 = {&dt_term};
    CHECK(sqe_hive_list_partitions(store, t, &prune2, a, &ps, &n, &e));
    txt = partitions_text(ps, n, t);
    CHECK_STR(txt, "2024-01-03,ap,9;2024-01-03,ap,10");
    sqe_free(txt);

    QUERY_IS(
        "SHOW PARTITIONS lake.sales.events",
        "dt=2024-01-01/region=us%2Fwest/n=2\ndt=2024-01-01/region=__HIVE_DEFAULT_PARTITION__/n=3\n"
        "dt=2024-01-02/region=eu/n=1\ndt=2024-01-03/region=ap/n=9\ndt=2024-01-03/region=ap/n=10\n"
        "dt=__HIVE_DEFAULT_PARTITION__/region=eu/n=1");
    QUERY_IS("SHOW PARTITIONS lake.sales.clicks",
             "ERROR: table 'lake.sales.clicks' is not partitioned");
    sqe_hive_table_free(t);

    /* an unpartitioned table is its location */
    t = resolve3("lake", "sales", "clicks");
    if (t) {
        CHECK(sqe_hive_list_partitions(store, t, NULL, a, &ps, &n, &e));
        CHECK(n == 1 && ps[0].values == NULL);
        CHECK_STR(ps[0].path, "/d/clicks/");
        sqe_hive_table_free(t);
    }

    /* segments that do not parse fail naming the segment */
    struct {
        const char *file, *keys, *want;
    } bad[] = {
        {"data/bad1/dt=2024-13-45/a.csv", "dt date",
         "hive_external: partition folder 'dt=2024-13-45' under '%s/data/bad1/': value "
         "'2024-13-45' is not a valid "
         "date for partition key 'dt'"},
        {"data/bad2/foo=1/a.csv", "dt date",
         "hive_external: unexpected folder 'foo=1' under '%s/data/bad2/': expected 'dt=<value>'"},
        {"data/bad3/nokey/a.csv", "dt string",
         "unexpected folder 'nokey' under '%s/data/bad3/': expected 'dt=<value>'"},
        {"data/bad4/n=abc/a.csv", "n int",
         "partition folder 'n=abc' under '%s/data/bad4/': value 'abc' is not a valid int for "
         "partition key 'n'"},
        {"data/bad5/n=99999999999/a.csv", "n int",
         "value '99999999999' is not a valid int for partition key 'n'"},
        {"data/bad6/k=a/x/a.csv", "k string, j string",
         "unexpected folder 'x' under '%s/data/bad6/k=a/': expected 'j=<value>'"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(bad); i++) {
        write_file(bad[i].file, "x\n");
        char dir[64];
        snprintf(dir, sizeof dir, "%.*s", (int)(strchr(bad[i].file + 5, '/') - bad[i].file),
                 bad[i].file);
        snprintf(sql, sizeof sql,
                 "CREATE EXTERNAL TABLE lake.sales.bad%zu (x string) PARTITIONED BY (%s) LOCATION "
                 "'%s/%s'",
                 i, bad[i].keys, g_tmp, dir);
        OK(sql);
        char name[32];
        snprintf(name, sizeof name, "bad%zu", i);
        t = resolve3("lake", "sales", name);
        if (!t) continue;
        sqe_error_clear(&e);
        CHECK(!sqe_hive_list_partitions(store, t, NULL, a, &ps, &n, &e));
        CHECK(e.cls == SQE_ERR_HIVE_EXTERNAL);
        char want[600];
        snprintf(want, sizeof want, bad[i].want, g_tmp);
        CHECK_CONTAINS(e.msg, want);
        sqe_hive_table_free(t);
    }

    /* a big int and a bigint key */
    write_file("data/big/b=9000000000/a.csv", "x\n");
    snprintf(sql, sizeof sql,
             "CREATE EXTERNAL TABLE lake.sales.bigk (x string) PARTITIONED BY (b bigint) LOCATION "
             "'%s/data/big/'",
             g_tmp);
    OK(sql);
    QUERY_IS("SHOW PARTITIONS lake.sales.bigk", "b=9000000000");

    sqe_arena_free(a);
    sqe_store_free(store);
}

/* ------------------------------------------------------------ escapes */

static void test_dispatch(void) {
    sqe_arena *a = sqe_arena_new(0);
    sqe_error e;
    sqe_ast_stmt *st = sqe_sql_parse(a, "SELECT 1", &e);
    sqe_resultset *rs = NULL;
    const char *status = NULL;
    CHECK(st && !sqe_hive_execute(g_cat, st, &rs, &status, NULL, &e));
    CHECK(e.cls == SQE_ERR_INTERNAL);
    st = sqe_sql_parse(a, "SHOW TABLES FROM lake.sales", &e);
    CHECK(st && sqe_hive_execute(g_cat, st, &rs, &status, NULL, &e));
    CHECK_STR(status, "SHOW TABLES");
    CHECK(rs && rs->n_cols == 1);
    if (rs) CHECK_STR(rs->names[0], "Table");
    sqe_resultset_free(rs);
    st = sqe_sql_parse(a, "SHOW CREATE TABLE lake.sales.orders", &e);
    CHECK(st && sqe_hive_execute(g_cat, st, &rs, &status, NULL, &e));
    if (rs) CHECK_STR(rs->names[0], "createtab_stmt");
    sqe_resultset_free(rs);
    st = sqe_sql_parse(a, "DESCRIBE lake.sales.orders", &e);
    CHECK(st && sqe_hive_execute(g_cat, st, &rs, &status, NULL, &e));
    if (rs) {
        CHECK(rs->n_cols == 4);
        CHECK_STR(rs->names[0], "Column");
        CHECK_STR(rs->names[2], "Extra");
    }
    sqe_resultset_free(rs);
    st = sqe_sql_parse(a, "SHOW SCHEMAS", &e);
    CHECK(st && sqe_hive_execute(g_cat, st, &rs, &status, NULL, &e));
    if (rs) CHECK_STR(rs->names[0], "Schema");
    sqe_resultset_free(rs);
    st = sqe_sql_parse(a, "CREATE EXTERNAL TABLE lake.sales.st (a int) LOCATION '/d/st'", &e);
    CHECK(st && sqe_hive_execute(g_cat, st, &rs, &status, NULL, &e));
    CHECK_STR(status, "CREATE EXTERNAL TABLE");
    CHECK(rs == NULL);
    sqe_arena_free(a);
}

/* ------------------------------------------------------------ escapes, views, rewrites */

static void test_escapes(void) {
    const char *why = NULL;
    size_t n;
    char *v = hive_unescape("a\\tb\\001c\\u0041\\'\\\"\\\\\\%\\s", &n, &why);
    CHECK_STR(v, "a\tb\001cA'\"\\\\%s");
    sqe_free(v);
    v = hive_unescape("\\0", &n, &why);
    CHECK(v == NULL);
    CHECK_CONTAINS(why, "NUL");
    v = hive_unescape("\\377", &n, &why);
    CHECK(v == NULL);
    CHECK_CONTAINS(why, "not valid UTF-8");
    v = hive_unescape("caf\\u00e9", &n, &why);
    CHECK_STR(v, "caf\xc3\xa9");
    sqe_free(v);
    /* render -> unescape is the identity on every ASCII byte */
    bool all_ok = true;
    for (int c = 1; c < 128; c++) {
        char in[4] = {'x', (char)c, 'y', 0};
        sqe_strbuf sb;
        sqe_strbuf_init(&sb);
        hive_render_literal(&sb, in);
        /* the lexer collapses '' to ' before the hive layer sees a literal */
        char *lexed = replace_first(sb.data, "''", "'");
        char *back = hive_unescape(lexed, NULL, &why);
        sqe_free(lexed);
        if (!back || strcmp(back, in) != 0) all_ok = false;
        sqe_free(back);
        sqe_strbuf_free(&sb);
    }
    CHECK(all_ok);
    unsigned char b;
    char reason[200];
    CHECK(hive_delim_byte("1", true, &b, reason, sizeof reason) && b == 1);
    CHECK(hive_delim_byte("1", false, &b, reason, sizeof reason) && b == '1');
    CHECK(hive_delim_byte("124", true, &b, reason, sizeof reason) && b == '|');
    CHECK(hive_delim_byte("\t", true, &b, reason, sizeof reason) && b == '\t');
    CHECK(!hive_delim_byte("-1", true, &b, reason, sizeof reason));
    CHECK_CONTAINS(reason, "reads as the number -1");
    CHECK(!hive_delim_byte("ab", true, &b, reason, sizeof reason));
    CHECK_STR(reason, "is 2 characters; a delimiter must be exactly one character");
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    hive_escape_path_value(&sb, "a/b:c=d%e f#\x01", 13);
    CHECK_STR(sb.data, "a%2Fb%3Ac%3Dd%25e f%23%01");
    sqe_arena *a = sqe_arena_new(0);
    char *dec = hive_unescape_path_value(a, sb.data, sb.len, &n);
    CHECK_STR(dec, "a/b:c=d%e f#\x01");
    dec = hive_unescape_path_value(a, "100%", 4, &n);
    CHECK_STR(dec, "100%");
    dec = hive_unescape_path_value(a, "%zz%4", 5, &n);
    CHECK_STR(dec, "%zz%4");
    sqe_arena_free(a);
    sqe_strbuf_free(&sb);
    char *f = hive_fold_name("Sales_2024");
    CHECK_STR(f, "sales_2024");
    sqe_free(f);
    CHECK(hive_fold_name("a.b") == NULL);
    CHECK(hive_fold_name("..") == NULL);
    CHECK(hive_fold_name("") == NULL);
}

static void test_views_and_rewrite(void) {
    write_file("wh/views/v.manifest.json",
               "{\"sqe_manifest_version\": 1, \"Name\": \"v\", \"TableType\": \"VIRTUAL_VIEW\",\n"
               " \"Parameters\": {\"presto_view\": \"true\"},\n"
               " \"StorageDescriptor\": {\"Columns\": [{\"Name\": \"a\", \"Type\": \"int\"}]},\n"
               " \"ViewOriginalText\": \"/* Presto View: e30= */\", \"ViewExpandedText\": \"/* "
               "Presto View */\"}\n");
    sqe_hive_table *t = resolve3("lake", "views", "v");
    CHECK(t && t->is_view);
    if (t) {
        sqe_error e;
        CHECK(!sqe_hive_check_readable(t, &e));
        CHECK(e.cls == SQE_ERR_NOT_SUPPORTED);
        sqe_hive_table_free(t);
    }
    ERR("SHOW CREATE TABLE lake.views.v", SQE_ERR_NOT_SUPPORTED, "'lake.views.v' is a view");
    QUERY_IS("DESCRIBE lake.views.v", "a|integer||");
    QUERY_IS("SHOW TABLES FROM lake.views", "v");

    /* a rewrite keeps the engine slots and the Glue fields sqe ignores */
    char path[600];
    snprintf(path, sizeof path, "%s/bad/good.manifest.json", g_wh);
    sqe_store *store = sqe_io_local_new();
    sqe_hive_limits lim = {1 << 20, 4096, 32};
    hive_manifest m;
    sqe_error e;
    CHECK(hive_manifest_load(store, path, "good", &lim, &m, &e));
    json_t *j = hive_manifest_to_json(&m);
    CHECK(json_object_get(j, "sqe.statistics") != NULL);
    CHECK(json_object_get(j, "Owner") != NULL);
    CHECK(json_object_get(json_object_get(j, "StorageDescriptor"), "NumberOfBuckets") != NULL);
    CHECK_STR(jstr(j, "StorageDescriptor/SerdeInfo/Name"), "x");
    CHECK_STR(jstr(j, "StorageDescriptor/Columns/0/Type"), "varchar(5)");
    json_decref(j);
    hive_manifest_free(&m);
    sqe_error_clear(&e);
    CHECK(!hive_manifest_load(store, "/nonexistent/x.manifest.json", "x", &lim, &m, &e));
    CHECK(e.cls == SQE_ERR_NOT_FOUND);
    sqe_store_free(store);
}

/* The sqe.statistics slot (SPEC §8, stats.c): written through
 * hive_manifest_update, read back onto the table for the planner, FOR
 * COLUMNS keeps the other columns, per-partition entries are dropped when
 * the manifest would outgrow manifest_max_bytes. */
static void test_statistics(void) {
    sqe_hive_limits lim = {4096, 4096, 32}; /* a small manifest limit */
    sqe_hive_catalog *c = sqe_hive_catalog_new(&lim);
    sqe_error e;
    sqe_error_clear(&e);
    CHECK(sqe_hive_attach(c, "st", g_wh, NULL, &e));
    CHECK(exec_in(c,
                  "CREATE EXTERNAL TABLE st.stats.t (a int, b string) PARTITIONED BY (p int) "
                  "LOCATION '/nonexistent/t'",
                  NULL));
    const char *parts3[3] = {"st", "stats", "t"};
    sqe_hive_table *t = sqe_hive_resolve_table(c, 3, parts3, &e);
    CHECK(t && !t->has_stats);
    if (!t) {
        sqe_hive_catalog_free(c);
        return;
    }
    sqe_hive_col_stats cols[2] = {{"a", 1, true, 7, "1", "9"}, {"b", 0, true, 3, "x", "z"}};
    const char *v0[1] = {"1"};
    sqe_hive_stats_part part = {v0, 10, cols};
    sqe_hive_stats st = {10, 2, cols, 1, &part, false};
    bool dropped = true;
    CHECK(sqe_hive_store_statistics(c, t, &st, &dropped, &e));
    CHECK(!dropped);
    json_t *m = load_manifest("stats", "t");
    CHECK_STR(jstr(m, "sqe.statistics/columns/a/max"), "9");
    CHECK_STR(jstr(m, "sqe.statistics/partitions/0/values/0"), "1");
    json_decref(m);
    sqe_hive_table *t2 = sqe_hive_resolve_table(c, 3, parts3, &e);
    CHECK(t2 && t2->has_stats && t2->stat_rows == 10);
    sqe_hive_table_free(t2);

    /* FOR COLUMNS a: b's entry stays */
    sqe_hive_col_stats only_a[1] = {{"a", 0, true, 2, "5", "6"}};
    sqe_hive_stats st2 = {12, 1, only_a, 0, NULL, true};
    CHECK(sqe_hive_store_statistics(c, t, &st2, &dropped, &e));
    m = load_manifest("stats", "t");
    CHECK_STR(jstr(m, "sqe.statistics/columns/a/min"), "5");
    CHECK_STR(jstr(m, "sqe.statistics/columns/b/min"), "x");
    CHECK(json_object_get(json_object_get(m, "sqe.statistics"), "partitions") == NULL);
    json_decref(m);

    /* 200 partitions do not fit 4 KiB: table statistics only */
    sqe_hive_stats_part many[200];
    for (int i = 0; i < 200; i++) many[i] = part;
    sqe_hive_stats st3 = {2000, 2, cols, 200, many, false};
    CHECK(sqe_hive_store_statistics(c, t, &st3, &dropped, &e));
    CHECK(dropped);
    m = load_manifest("stats", "t");
    CHECK(json_object_get(json_object_get(m, "sqe.statistics"), "partitions") == NULL);
    CHECK(json_integer_value(json_object_get(json_object_get(m, "sqe.statistics"), "row_count")) ==
          2000);
    json_decref(m);

    /* a malformed slot reads as none (statistics never fail a query) */
    char path[1024];
    snprintf(path, sizeof path, "%s/stats/t.manifest.json", g_wh);
    json_t *doc = json_load_file(path, 0, NULL);
    CHECK(doc != NULL);
    if (doc) {
        json_object_set_new(doc, "sqe.statistics", json_string("oops"));
        CHECK(json_dump_file(doc, path, 0) == 0);
        json_decref(doc);
    }
    t2 = sqe_hive_resolve_table(c, 3, parts3, &e);
    CHECK(t2 && !t2->has_stats);
    sqe_hive_table_free(t2);
    sqe_hive_table_free(t);
    sqe_hive_catalog_free(c);
}

int main(void) {
    snprintf(g_tmp, sizeof g_tmp, "/tmp/sqe_hive_XXXXXX");
    if (!mkdtemp(g_tmp)) {
        perror("mkdtemp");
        return 2;
    }
    snprintf(g_wh, sizeof g_wh, "%s/wh", g_tmp);
    mkdir(g_wh, 0755); /* ATTACH needs an existing folder */
    g_cat = sqe_hive_catalog_new(NULL);
    sqe_strbuf_init(&g_notices);

    RUN(test_attach);
    RUN(test_create_basic);
    RUN(test_create_forms);
    RUN(test_create_rejections);
    RUN(test_drop_use_show);
    RUN(test_databases);
    RUN(test_manifests);
    RUN(test_partitions);
    RUN(test_dispatch);
    RUN(test_escapes);
    RUN(test_views_and_rewrite);
    RUN(test_statistics);

    sqe_hive_catalog_free(g_cat);
    sqe_strbuf_free(&g_notices);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", g_tmp);
    return unit_report();
}

/*
 * test_credentials.c - the AWS default credential chain (io/credentials.c)
 * against local fakes: tests/unit/fake_aws.py on 127.0.0.1 (IMDSv2, ECS,
 * STS; started here, stopped when its stdin closes), temp files for the
 * shared config/credentials files, token files and credential_process
 * scripts. Each chain gets its own environment snapshot (no setenv).
 *
 * Every failure is also checked for leaks: no key, secret or token of any
 * fixture may appear in an error message.
 */
#include "io/s3.h"
#include "unit.h"

#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char g_dir[256];
static int g_port;
static pid_t g_fake_pid;
static int g_fake_stdin = -1, g_fake_stdout = -1;

static const char *const g_secrets[] = {"env-secret-value",   "env-session-token",
                                        "file-secret-value",  "proc-secret-value",
                                        "proc-session-token", "imds-secret-value",
                                        "imds-session-token", "ecs-secret-value",
                                        "ecs-token",          "sts-secret",
                                        "good-token",         "bad-token",
                                        "imds-token-1",       NULL};

static void check_no_secret(const char *msg) {
    for (size_t i = 0; g_secrets[i]; i++) {
        unit_checks++;
        if (strstr(msg, g_secrets[i])) {
            unit_failures++;
            fprintf(stderr, "secret '%s' leaked into: %s\n", g_secrets[i], msg);
        }
    }
}

static void start_fake(void) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) abort();
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char *argv[] = {"python3", "tests/unit/fake_aws.py", NULL};
    extern char **environ;
    if (posix_spawnp(&g_fake_pid, "python3", &fa, NULL, argv, environ) != 0) {
        fprintf(stderr, "cannot start python3 tests/unit/fake_aws.py\n");
        exit(1);
    }
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    g_fake_stdin = in[1];
    char buf[32] = "";
    ssize_t n = read(out[0], buf, sizeof buf - 1);
    g_fake_stdout = out[0]; /* kept open: the fake may still be flushing */
    g_port = n > 0 ? atoi(buf) : 0;
    if (g_port <= 0) {
        fprintf(stderr, "fake_aws.py did not print its port\n");
        exit(1);
    }
}

static void stop_fake(void) {
    close(g_fake_stdin);
    close(g_fake_stdout);
    int st;
    waitpid(g_fake_pid, &st, 0);
}

static char *path_in_dir(const char *name) {
    return sqe_asprintf("%s/%s", g_dir, name);
}

static void write_file(const char *name, const char *text, int mode) {
    char *p = path_in_dir(name);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
    chmod(p, (mode_t)mode);
    sqe_free(p);
}

/* An environment for one chain: HOME in the temp dir (no ~/.aws), IMDS off
 * unless the test sets its endpoint, plus the given "K=V" strings. */
typedef struct test_env {
    char *v[32];
    int n;
} test_env;

static void env_add(test_env *e, const char *fmt, ...) SQE_PRINTF(2, 3);
static void env_add(test_env *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    e->v[e->n++] = sqe_strbuf_detach(&sb);
    e->v[e->n] = NULL;
}

static void env_base(test_env *e, bool imds) {
    e->n = 0;
    env_add(e, "HOME=%s/home", g_dir);
    env_add(e, "PATH=/usr/bin:/bin");
    if (!imds) env_add(e, "AWS_EC2_METADATA_DISABLED=true");
}

static void env_free(test_env *e) {
    for (int i = 0; i < e->n; i++) sqe_free(e->v[i]);
    e->n = 0;
}

/* Resolves once with a fresh chain. */
static bool resolve(test_env *e, sqe_s3_creds *c, sqe_error *err) {
    sqe_s3_cred_source *src = sqe_s3_cred_chain_new((const char *const *)e->v);
    sqe_error_clear(err);
    bool ok = sqe_s3_cred_source_get(src, c, err);
    if (!ok) check_no_secret(err->msg);
    sqe_s3_cred_source_free(src);
    return ok;
}

static int fake_count(const char *path) {
    char *cmd = sqe_asprintf("curl -s 'http://127.0.0.1:%d/count?path=%s'", g_port, path);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1) n = -1;
    if (p) pclose(p);
    sqe_free(cmd);
    return n;
}

/* ------------------------------------------------------------ sources */

static void test_env_source(void) {
    test_env e;
    env_base(&e, false);
    env_add(&e, "AWS_ACCESS_KEY_ID=ENVAKID");
    env_add(&e, "AWS_SECRET_ACCESS_KEY=env-secret-value");
    env_add(&e, "AWS_SESSION_TOKEN=env-session-token");
    sqe_s3_creds c;
    sqe_error err;
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "ENVAKID");
    CHECK_STR(c.secret_key, "env-secret-value");
    CHECK_STR(c.session_token, "env-session-token");
    CHECK(c.expires_us == 0);
    sqe_s3_creds_clear(&c);
    env_free(&e);

    /* Half set: an error naming the missing variable. */
    env_base(&e, false);
    env_add(&e, "AWS_ACCESS_KEY_ID=ENVAKID");
    CHECK(!resolve(&e, &c, &err));
    CHECK(err.cls == SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE);
    CHECK_CONTAINS(err.msg, "AWS_SECRET_ACCESS_KEY is not");
    env_free(&e);

    /* An expiry already past: expired, with a renewal hint. */
    env_base(&e, false);
    env_add(&e, "AWS_ACCESS_KEY_ID=ENVAKID");
    env_add(&e, "AWS_SECRET_ACCESS_KEY=env-secret-value");
    env_add(&e, "AWS_CREDENTIAL_EXPIRATION=2001-01-01T00:00:00Z");
    CHECK(!resolve(&e, &c, &err));
    CHECK_CONTAINS(err.msg, "have expired; renew them");
    env_free(&e);
}

static void test_nothing_found(void) {
    test_env e;
    env_base(&e, false);
    sqe_s3_creds c;
    sqe_error err;
    CHECK(!resolve(&e, &c, &err));
    CHECK(err.cls == SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE);
    CHECK_CONTAINS(err.msg,
                   "no S3 credentials found; tried environment: AWS_ACCESS_KEY_ID not set");
    CHECK_CONTAINS(err.msg, "web identity: AWS_WEB_IDENTITY_TOKEN_FILE not set");
    CHECK_CONTAINS(err.msg, "shared files: no profile 'default'");
    CHECK_CONTAINS(err.msg, "container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    CHECK_CONTAINS(err.msg, "instance metadata: disabled by AWS_EC2_METADATA_DISABLED");
    CHECK_CONTAINS(err.msg, "aws sso login");
    env_free(&e);

    /* IMDS on a port where nothing listens: skipped quickly, noted. */
    env_base(&e, true);
    env_add(&e, "AWS_EC2_METADATA_SERVICE_ENDPOINT=http://127.0.0.1:1");
    uint64_t t0 = sqe_clock_ns();
    CHECK(!resolve(&e, &c, &err));
    CHECK((sqe_clock_ns() - t0) < 3000000000ull);
    CHECK_CONTAINS(err.msg, "instance metadata (http://127.0.0.1:1)");
    env_free(&e);

    /* IMDS that does not answer in time: the 1 s timeout. */
    char *slow = sqe_asprintf("http://127.0.0.1:%d/slow", g_port);
    env_base(&e, true);
    env_add(&e, "AWS_EC2_METADATA_SERVICE_ENDPOINT=%s", slow);
    t0 = sqe_clock_ns();
    CHECK(!resolve(&e, &c, &err));
    CHECK((sqe_clock_ns() - t0) < 2500000000ull);
    CHECK(err.cls == SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE);
    sqe_free(slow);
    env_free(&e);
}

static void test_profiles(void) {
    write_file("credentials",
               "# comment\n[default]\naws_access_key_id = FILEAKID\n"
               "aws_secret_access_key = file-secret-value\n\n"
               "[other]\naws_access_key_id=OTHERAKID\naws_secret_access_key=file-secret-value\n"
               "[half]\naws_access_key_id=HALF\n",
               0600);
    write_file("config",
               "[default]\nregion = eu-west-3\n[profile other]\nregion=ap-south-1\n"
               "s3 =\n  addressing_style = path\n[profile cfgonly]\n"
               "aws_access_key_id = CFGAKID\naws_secret_access_key = file-secret-value\n"
               "aws_session_token = tok\n[profile sso]\nsso_session = corp\n",
               0600);
    test_env e;
    sqe_s3_creds c;
    sqe_error err;
    const char *profiles[] = {NULL, "other", "cfgonly"};
    const char *keys[] = {"FILEAKID", "OTHERAKID", "CFGAKID"};
    const char *regions[] = {"eu-west-3", "ap-south-1", NULL};
    for (int i = 0; i < 3; i++) {
        env_base(&e, false);
        env_add(&e, "AWS_SHARED_CREDENTIALS_FILE=%s/credentials", g_dir);
        env_add(&e, "AWS_CONFIG_FILE=%s/config", g_dir);
        if (profiles[i]) env_add(&e, "AWS_PROFILE=%s", profiles[i]);
        CHECK(resolve(&e, &c, &err));
        CHECK_STR(c.access_key, keys[i]);
        CHECK_STR(c.secret_key, "file-secret-value");
        CHECK(i == 2 ? c.session_token != NULL : c.session_token == NULL);
        sqe_s3_creds_clear(&c);
        char *region = sqe_s3_profile_region((const char *const *)e.v);
        if (regions[i])
            CHECK_STR(region, regions[i]);
        else
            CHECK(region == NULL);
        sqe_free(region);
        env_free(&e);
    }
    /* The environment wins over the files. */
    env_base(&e, false);
    env_add(&e, "AWS_SHARED_CREDENTIALS_FILE=%s/credentials", g_dir);
    env_add(&e, "AWS_ACCESS_KEY_ID=ENVAKID");
    env_add(&e, "AWS_SECRET_ACCESS_KEY=env-secret-value");
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "ENVAKID");
    sqe_s3_creds_clear(&c);
    env_free(&e);

    /* ~/.aws/ is the default location. */
    char *cmd = sqe_asprintf("mkdir -p %s/home/.aws && cp %s/credentials %s/home/.aws/", g_dir,
                             g_dir, g_dir);
    CHECK(system(cmd) == 0);
    sqe_free(cmd);
    env_base(&e, false);
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "FILEAKID");
    sqe_s3_creds_clear(&c);
    env_free(&e);
    cmd = sqe_asprintf("rm -r %s/home/.aws", g_dir);
    CHECK(system(cmd) == 0);
    sqe_free(cmd);

    /* Errors: a named profile that does not exist, half keys, SSO. */
    const char *bad[] = {"nosuch", "half", "sso"};
    const char *msgs[] = {"AWS_PROFILE names profile 'nosuch', which is in neither",
                          "profile 'half' has aws_access_key_id but no aws_secret_access_key",
                          "profile 'sso' uses AWS IAM Identity Center"};
    for (int i = 0; i < 3; i++) {
        env_base(&e, false);
        env_add(&e, "AWS_SHARED_CREDENTIALS_FILE=%s/credentials", g_dir);
        env_add(&e, "AWS_CONFIG_FILE=%s/config", g_dir);
        env_add(&e, "AWS_PROFILE=%s", bad[i]);
        CHECK(!resolve(&e, &c, &err));
        CHECK_CONTAINS(err.msg, msgs[i]);
        env_free(&e);
    }
}

/* A config whose default profile runs `script` as credential_process. */
static void env_process(test_env *e, const char *script) {
    env_base(e, false);
    char *cfg = sqe_asprintf("[default]\ncredential_process = sh %s/%s\n", g_dir, script);
    write_file("proc_config", cfg, 0600);
    sqe_free(cfg);
    env_add(e, "AWS_CONFIG_FILE=%s/proc_config", g_dir);
    env_add(e, "AWS_SHARED_CREDENTIALS_FILE=%s/none", g_dir);
    env_add(e, "COUNT_FILE=%s/count", g_dir);
}

/* A credential_process script printing keys that expire in `secs`
 * seconds, counting its runs in $COUNT_FILE, sleeping `sleep_s` first. */
static void write_process(const char *name, int secs, const char *sleep_s) {
    char *text = sqe_asprintf(
        "echo x >> \"$COUNT_FILE\"\nsleep %s\n"
        "exp=$(date -u -d @$(( $(date +%%s) + %d )) +%%Y-%%m-%%dT%%H:%%M:%%SZ)\n"
        "printf '{\"Version\": 1, \"AccessKeyId\": \"PROCAKID\", \"SecretAccessKey\": "
        "\"proc-secret-value\", \"SessionToken\": \"proc-session-token\", \"Expiration\": "
        "\"%%s\"}' \"$exp\"\n",
        sleep_s, secs);
    write_file(name, text, 0700);
    sqe_free(text);
}

static int runs(void) {
    char *p = path_in_dir("count");
    FILE *f = fopen(p, "r");
    int n = 0;
    for (int ch; f && (ch = fgetc(f)) != EOF;) n += ch == '\n';
    if (f) fclose(f);
    unlink(p);
    sqe_free(p);
    return n;
}

static void test_credential_process(void) {
    test_env e;
    sqe_s3_creds c;
    sqe_error err;
    write_process("proc.sh", 3600, "0");
    env_process(&e, "proc.sh");
    int64_t now = sqe_clock_wall_us();
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "PROCAKID");
    CHECK_STR(c.secret_key, "proc-secret-value");
    CHECK_STR(c.session_token, "proc-session-token");
    CHECK(c.expires_us > now + 3500LL * 1000000 && c.expires_us < now + 3700LL * 1000000);
    sqe_s3_creds_clear(&c);
    CHECK(runs() == 1);
    env_free(&e);

    struct {
        const char *script, *msg;
    } bad[] = {
        {"echo 'test: credential_process failing on purpose' >&2; exit 3",
         "credential_process of profile 'default' "
         "exited with status 3; run it by hand"},
        {"echo '{\"AccessKeyId\": \"A\", \"SecretAccessKey\": \"proc-secret-value\"}'",
         "printed JSON without \"Version\": 1"},
        {"echo 'not json proc-secret-value'", "did not return a JSON object"},
        {"echo '{\"Version\": 1, \"AccessKeyId\": \"A\"}'", "returned no SecretAccessKey"},
        {"echo '{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": "
         "\"proc-secret-value\", \"Expiration\": \"2001-01-01T00:00:00Z\"}'",
         "have expired; renew them"},
        {"echo '{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": "
         "\"proc-secret-value\", \"Expiration\": \"soon\"}'",
         "Expiration 'soon' that is not an ISO 8601 time"},
    };
    for (size_t i = 0; i < SQE_ARRAY_LEN(bad); i++) {
        write_file("bad.sh", bad[i].script, 0700);
        env_process(&e, "bad.sh");
        CHECK(!resolve(&e, &c, &err));
        CHECK(err.cls == SQE_ERR_STORAGE_CREDENTIALS_UNAVAILABLE);
        CHECK_CONTAINS(err.msg, bad[i].msg);
        env_free(&e);
    }
}

static void test_web_identity(void) {
    test_env e;
    sqe_s3_creds c;
    sqe_error err;
    write_file("token", "good-token\n", 0600);
    write_file("badtoken", "bad-token", 0600);
    for (int i = 0; i < 2; i++) {
        env_base(&e, false);
        env_add(&e, "AWS_WEB_IDENTITY_TOKEN_FILE=%s/%s", g_dir, i ? "badtoken" : "token");
        env_add(&e, "AWS_ROLE_ARN=arn:aws:iam::123456789012:role/r");
        env_add(&e, "AWS_ENDPOINT_URL_STS=http://127.0.0.1:%d/sts", g_port);
        env_add(&e, "AWS_ENDPOINT_URL=http://127.0.0.1:1/wrong");
        if (i == 0) {
            CHECK(resolve(&e, &c, &err));
            CHECK_STR(c.access_key, "STSAKID");
            CHECK_STR(c.secret_key, "sts-secret&value");
            CHECK_STR(c.session_token, "sts-session-token");
            CHECK(c.expires_us > sqe_clock_wall_us());
            sqe_s3_creds_clear(&c);
        } else {
            CHECK(!resolve(&e, &c, &err));
            CHECK_CONTAINS(err.msg, "HTTP 400 InvalidIdentityToken: token rejected & logged");
            CHECK_CONTAINS(err.msg, "role 'arn:aws:iam::123456789012:role/r'");
        }
        env_free(&e);
    }
    /* AWS_ENDPOINT_URL is the fallback; a missing token file is an error. */
    env_base(&e, false);
    env_add(&e, "AWS_WEB_IDENTITY_TOKEN_FILE=%s/token", g_dir);
    env_add(&e, "AWS_ROLE_ARN=arn:aws:iam::1:role/r");
    env_add(&e, "AWS_ENDPOINT_URL=http://127.0.0.1:%d/sts", g_port);
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "STSAKID");
    sqe_s3_creds_clear(&c);
    env_free(&e);
    env_base(&e, false);
    env_add(&e, "AWS_WEB_IDENTITY_TOKEN_FILE=%s/missing-token", g_dir);
    env_add(&e, "AWS_ROLE_ARN=arn:aws:iam::1:role/r");
    CHECK(!resolve(&e, &c, &err));
    CHECK_CONTAINS(err.msg, "web identity (AWS_WEB_IDENTITY_TOKEN_FILE): cannot read web "
                            "identity token file");
    env_free(&e);
    /* A profile with role_arn + web_identity_token_file. */
    char *cfg = sqe_asprintf("[profile wi]\nrole_arn = arn:aws:iam::1:role/r\n"
                             "web_identity_token_file = %s/token\n",
                             g_dir);
    write_file("wi_config", cfg, 0600);
    sqe_free(cfg);
    env_base(&e, false);
    env_add(&e, "AWS_CONFIG_FILE=%s/wi_config", g_dir);
    env_add(&e, "AWS_PROFILE=wi");
    env_add(&e, "AWS_ENDPOINT_URL_STS=http://127.0.0.1:%d/sts", g_port);
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "STSAKID");
    sqe_s3_creds_clear(&c);
    env_free(&e);
}

static void test_container(void) {
    test_env e;
    sqe_s3_creds c;
    sqe_error err;
    write_file("ecs_token", "ecs-token\n", 0600);
    for (int i = 0; i < 3; i++) {
        env_base(&e, false);
        env_add(&e, "AWS_CONTAINER_CREDENTIALS_FULL_URI=http://127.0.0.1:%d/ecs/creds", g_port);
        if (i == 0) env_add(&e, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=%s/ecs_token", g_dir);
        if (i == 1) env_add(&e, "AWS_CONTAINER_AUTHORIZATION_TOKEN=ecs-token");
        if (i < 2) {
            CHECK(resolve(&e, &c, &err));
            CHECK_STR(c.access_key, "ECSAKID");
            CHECK_STR(c.session_token, "ecs-session-token");
            CHECK(c.expires_us > sqe_clock_wall_us());
            sqe_s3_creds_clear(&c);
        } else {
            CHECK(!resolve(&e, &c, &err));
            CHECK_CONTAINS(err.msg, "answered HTTP 401; check AWS_CONTAINER_AUTHORIZATION_TOKEN");
        }
        env_free(&e);
    }
    env_base(&e, false);
    env_add(&e, "AWS_CONTAINER_CREDENTIALS_FULL_URI=http://example.com/creds");
    CHECK(!resolve(&e, &c, &err));
    CHECK_CONTAINS(err.msg, "must be https:// or http:// to a loopback");
    env_free(&e);
}

static void test_imds(void) {
    test_env e;
    sqe_s3_creds c;
    sqe_error err;
    env_base(&e, true);
    env_add(&e, "AWS_EC2_METADATA_SERVICE_ENDPOINT=http://127.0.0.1:%d/", g_port);
    CHECK(resolve(&e, &c, &err));
    CHECK_STR(c.access_key, "IMDSAKID");
    CHECK_STR(c.secret_key, "imds-secret-value");
    CHECK_STR(c.session_token, "imds-session-token");
    sqe_s3_creds_clear(&c);
    CHECK(fake_count("/latest/api/token") >= 1);
    env_free(&e);
    /* Disabled: not asked. */
    int before = fake_count("/latest/api/token");
    env_base(&e, true);
    env_add(&e, "AWS_EC2_METADATA_SERVICE_ENDPOINT=http://127.0.0.1:%d", g_port);
    env_add(&e, "AWS_EC2_METADATA_DISABLED=TRUE");
    CHECK(!resolve(&e, &c, &err));
    CHECK(fake_count("/latest/api/token") == before);
    env_free(&e);
}

/* ------------------------------------------------------------ caching */

typedef struct getter {
    sqe_s3_cred_source *src;
    bool ok;
} getter;

static void *get_thread(void *arg) {
    getter *g = arg;
    sqe_s3_creds c;
    sqe_error err;
    sqe_error_clear(&err);
    g->ok = sqe_s3_cred_source_get(g->src, &c, &err) && strcmp(c.access_key, "PROCAKID") == 0;
    sqe_s3_creds_clear(&c);
    return NULL;
}

static void test_caching(void) {
    test_env e;
    sqe_s3_creds c;
    sqe_error err;
    sqe_error_clear(&err);
    /* One hour of validity: resolved once, then cached; invalidate forces
     * a new resolution. */
    write_process("proc.sh", 3600, "0");
    env_process(&e, "proc.sh");
    runs();
    sqe_s3_cred_source *src = sqe_s3_cred_chain_new((const char *const *)e.v);
    for (int i = 0; i < 3; i++) {
        CHECK(sqe_s3_cred_source_get(src, &c, &err));
        sqe_s3_creds_clear(&c);
    }
    CHECK(runs() == 1);
    sqe_s3_cred_source_invalidate(src);
    CHECK(sqe_s3_cred_source_get(src, &c, &err));
    sqe_s3_creds_clear(&c);
    CHECK(runs() == 1);
    sqe_s3_cred_source_free(src);
    env_free(&e);

    /* Four minutes left: inside the five-minute margin, so every get
     * resolves again. */
    write_process("short.sh", 240, "0");
    env_process(&e, "short.sh");
    src = sqe_s3_cred_chain_new((const char *const *)e.v);
    for (int i = 0; i < 2; i++) {
        CHECK(sqe_s3_cred_source_get(src, &c, &err));
        sqe_s3_creds_clear(&c);
    }
    CHECK(runs() == 2);
    sqe_s3_cred_source_free(src);
    env_free(&e);

    /* Eight threads at once on a slow source: one resolution. */
    write_process("slow.sh", 3600, "0.3");
    env_process(&e, "slow.sh");
    src = sqe_s3_cred_chain_new((const char *const *)e.v);
    pthread_t th[8];
    getter g[8];
    for (int i = 0; i < 8; i++) {
        g[i] = (getter){src, false};
        pthread_create(&th[i], NULL, get_thread, &g[i]);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        CHECK(g[i].ok);
    }
    CHECK(runs() == 1);
    sqe_s3_cred_source_free(src);
    env_free(&e);

    /* Static source: a copy of its keys, never expiring. */
    sqe_s3_creds k = {"AK", "static-secret", NULL, 123};
    src = sqe_s3_cred_static_new(&k);
    CHECK(sqe_s3_cred_source_get(src, &c, &err));
    CHECK_STR(c.secret_key, "static-secret");
    CHECK(c.expires_us == 0);
    sqe_s3_creds_clear(&c);
    sqe_s3_cred_source_invalidate(src);
    sqe_s3_cred_source_free(src);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    snprintf(g_dir, sizeof g_dir, "/tmp/sqe_creds_XXXXXX");
    if (!mkdtemp(g_dir)) return 1;
    start_fake();
    RUN(test_env_source);
    RUN(test_nothing_found);
    RUN(test_profiles);
    RUN(test_credential_process);
    RUN(test_web_identity);
    RUN(test_container);
    RUN(test_imds);
    RUN(test_caching);
    stop_fake();
    char *cmd = sqe_asprintf("rm -rf %s", g_dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", g_dir);
    sqe_free(cmd);
    return unit_report();
}

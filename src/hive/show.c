/*
 * show.c - what the catalog statements print: SHOW CREATE TABLE text,
 * DESCRIBE / SHOW COLUMNS rows, and small helpers for text result sets.
 *
 * SHOW CREATE TABLE renders Athena's layout (ROW FORMAT SERDE + WITH
 * SERDEPROPERTIES + STORED AS INPUTFORMAT/OUTPUTFORMAT, whatever the table
 * was created with), because that form states every recorded fact and
 * parses back to the same manifest (SPEC §3.9): values go through
 * hive_render_literal, the inverse of the DDL unescaping, so '\001', quotes
 * and backslashes survive. EXTERNAL=TRUE is left out of TBLPROPERTIES, as
 * Hive does: CREATE EXTERNAL TABLE says it, and CREATE adds it back.
 */
#include "hive/hive_int.h"

#include <stdio.h>
#include <string.h>

static void render_columns(sqe_strbuf *sb, const sqe_hive_column *cols, int n) {
    for (int i = 0; i < n; i++) {
        char tb[64];
        sqe_strbuf_printf(sb, "%s  `%s` %s", i ? ",\n" : "", cols[i].name,
                          sqe_type_hive_name(cols[i].type, tb, sizeof tb));
        if (cols[i].comment) {
            sqe_strbuf_puts(sb, " COMMENT '");
            hive_render_literal(sb, cols[i].comment);
            sqe_strbuf_putc(sb, '\'');
        }
    }
}

static void render_props(sqe_strbuf *sb, const hive_kv_list *l, const char *skip) {
    bool first = true;
    for (size_t i = 0; i < l->len; i++) {
        if (skip && strcmp(l->items[i].key, skip) == 0) continue;
        sqe_strbuf_puts(sb, first ? "  '" : ",\n  '");
        hive_render_literal(sb, l->items[i].key);
        sqe_strbuf_puts(sb, "'='");
        hive_render_literal(sb, l->items[i].value);
        sqe_strbuf_putc(sb, '\'');
        first = false;
    }
}

static void render_quoted(sqe_strbuf *sb, const char *v) {
    sqe_strbuf_putc(sb, '\'');
    hive_render_literal(sb, v);
    sqe_strbuf_putc(sb, '\'');
}

char *hive_show_create(const hive_manifest *m, const char *db) {
    sqe_strbuf sb;
    sqe_strbuf_init(&sb);
    sqe_strbuf_printf(&sb, "CREATE EXTERNAL TABLE `%s`.`%s`(\n", db, m->name);
    render_columns(&sb, m->cols, m->n_cols);
    sqe_strbuf_puts(&sb, ")");
    if (m->description) {
        sqe_strbuf_puts(&sb, "\nCOMMENT ");
        render_quoted(&sb, m->description);
    }
    if (m->n_part_keys) {
        sqe_strbuf_puts(&sb, "\nPARTITIONED BY (\n");
        render_columns(&sb, m->part_keys, m->n_part_keys);
        sqe_strbuf_puts(&sb, ")");
    }
    sqe_strbuf_puts(&sb, "\nROW FORMAT SERDE ");
    render_quoted(&sb, m->serde_class);
    if (m->serde_params.len) {
        sqe_strbuf_puts(&sb, "\nWITH SERDEPROPERTIES (\n");
        render_props(&sb, &m->serde_params, NULL);
        sqe_strbuf_puts(&sb, ")");
    }
    sqe_strbuf_puts(&sb, "\nSTORED AS INPUTFORMAT ");
    render_quoted(&sb, m->input_format);
    sqe_strbuf_puts(&sb, "\nOUTPUTFORMAT ");
    render_quoted(&sb, m->output_format);
    sqe_strbuf_puts(&sb, "\nLOCATION\n  ");
    render_quoted(&sb, m->location);
    size_t n_props = 0;
    for (size_t i = 0; i < m->params.len; i++)
        if (strcmp(m->params.items[i].key, "EXTERNAL") != 0) n_props++;
    if (n_props) {
        sqe_strbuf_puts(&sb, "\nTBLPROPERTIES (\n");
        render_props(&sb, &m->params, "EXTERNAL");
        sqe_strbuf_puts(&sb, ")");
    }
    return sqe_strbuf_detach(&sb);
}

sqe_resultset *hive_result_text(int n_cols, const char *const *names) {
    sqe_type types[8];
    for (int i = 0; i < n_cols && i < 8; i++) types[i] = sqe_type_make(SQE_T_VARCHAR);
    return sqe_resultset_new(n_cols, names, types);
}

static void describe_rows(sqe_resultset *rs, const sqe_hive_column *cols, int n,
                          const char *extra) {
    for (int i = 0; i < n; i++) {
        char tb[64];
        const char *row[4] = {cols[i].name, sqe_type_sql_name(cols[i].type, tb, sizeof tb), extra,
                              cols[i].comment ? cols[i].comment : ""};
        sqe_resultset_add_text_row(rs, row);
    }
}

sqe_resultset *hive_describe(const hive_manifest *m) {
    static const char *const names[] = {"Column", "Type", "Extra", "Comment"};
    sqe_resultset *rs = hive_result_text(4, names);
    describe_rows(rs, m->cols, m->n_cols, "");
    describe_rows(rs, m->part_keys, m->n_part_keys, "partition key");
    return rs;
}

# Hand-written differential queries (format: README.md beside ../run.mjs).
# Tables: orders (partitioned by dt string), customers (partitioned by tier int),
# products; columns in ../schema.mjs. Every LIMIT and every order-dependent
# window has a total order (orders.order_id, customers.customer_key and
# products.product_id are unique and never NULL).

# ============================================================ scan / partitions

query scan_count_all scan
SELECT count(*) FROM orders

query scan_star_products scan
SELECT * FROM products

query scan_star_customers scan
SELECT * FROM customers

query scan_star_orders scan
SELECT * FROM orders

query scan_partition_counts scan
SELECT dt, count(*) AS n FROM orders GROUP BY dt ORDER BY dt

query scan_partition_eq scan
SELECT count(*), sum(qty) FROM orders WHERE dt = '2024-02-29'

query scan_partition_range scan
SELECT dt, count(*) FROM orders WHERE dt >= '2024-03-01' AND dt < '2024-03-04' GROUP BY dt

query scan_partition_in scan
SELECT order_id, dt FROM orders WHERE dt IN ('2024-02-27', '2024-03-04') AND qty > 40

query scan_partition_null scan
SELECT count(*), count(order_date), min(order_id), max(order_id) FROM orders WHERE dt IS NULL

query scan_partition_not_null scan
SELECT count(*) FROM orders WHERE dt IS NOT NULL

query scan_partition_default_literal scan
SELECT count(*) FROM orders WHERE dt = '__HIVE_DEFAULT_PARTITION__'

query scan_int_partition scan
SELECT tier, count(*), count(customer_id) FROM customers GROUP BY tier

query scan_int_partition_filter scan
SELECT customer_key, name FROM customers WHERE tier = 3 AND score > 100

query scan_int_partition_null scan
SELECT customer_key, tier FROM customers WHERE tier IS NULL

query scan_int_partition_arith scan
SELECT tier * 10 + 1 AS t, count(*) FROM customers GROUP BY tier * 10 + 1

query scan_partition_and_column scan
SELECT order_id FROM orders WHERE dt = '2024-03-02' AND status = 'returned'

query scan_partition_or_column scan
SELECT count(*) FROM orders WHERE dt = '2024-03-02' OR qty < 0

query scan_partition_function scan
SELECT substr(dt, 6, 2) AS m, count(*) FROM orders GROUP BY substr(dt, 6, 2)

query scan_qualified_names scan
SELECT lake.db.orders.order_id, db.orders.qty, orders.status FROM lake.db.orders WHERE orders.order_id < 100100

query scan_alias_qualified scan
SELECT o.order_id, o.qty FROM orders o WHERE o.order_id < 100100

query scan_alias_hides_table_name scan
SELECT o.order_id, orders.qty FROM orders o WHERE o.order_id < 100100
---- error cannot be resolved

query scan_fully_qualified scan
SELECT count(*) FROM lake.db.products

query scan_column_alias scan
SELECT order_id AS id, qty AS q FROM orders WHERE qty > 55

query scan_empty_result scan
SELECT order_id, status FROM orders WHERE qty > 1000

query scan_all_columns_nulls scan
SELECT count(*) - count(customer_id), count(*) - count(product_id), count(*) - count(qty), count(*) - count(unit_price), count(*) - count(discount), count(*) - count(status), count(*) - count(note), count(*) - count(order_date), count(*) - count(created_at), count(*) - count(is_gift), count(*) - count(priority) FROM orders

query scan_events_two_levels scan
SELECT yr, region, count(*), count(note), sum(code) FROM events GROUP BY yr, region

query scan_events_level1_filter scan
SELECT region, count(*) FROM events WHERE yr = 2024 GROUP BY region

query scan_events_level2_filter scan
SELECT yr, count(*) FROM events WHERE region = 'eu' GROUP BY yr

query scan_events_both_null scan
SELECT event_id, kind FROM events WHERE yr IS NULL AND region IS NULL

query scan_events_level2_null scan
SELECT yr, count(*) FROM events WHERE region IS NULL GROUP BY yr

query scan_events_or_levels scan
SELECT count(*) FROM events WHERE yr = 2023 OR region = 'apac'

query scan_events_not_in scan
SELECT count(*) FROM events WHERE region NOT IN ('eu', 'us')

query scan_events_ragged_rows scan
SELECT count(*), count(amount), count(ratio), count(ts), count(flag), count(code), count(note), count_if(note = '') FROM events

query scan_events_varchar_cut scan
SELECT kind, length(kind), count(*) FROM events GROUP BY kind

query scan_events_varchar_compare scan
SELECT count(*) FROM events WHERE kind = 'refund_req'

query scan_events_tinyint scan
SELECT code, code + 1, code * 2, -code, abs(code), count(*) FROM events GROUP BY code

query scan_events_tinyint_sum scan
SELECT sum(code), avg(code), min(code), max(code), sum(code * 10) FROM events
---- duckdb DuckDB types the literal 10 as TINYINT (Trino: integer, so tinyint * integer is integer)
SELECT sum(code), avg(code), min(code), max(code), sum(CAST(code AS INTEGER) * 10) FROM events

query trino_tinyint_overflow trino
SELECT sum(code * code) FROM events
---- error overflow

query scan_events_decimal3 scan
SELECT event_id, amount, amount * 2, round(amount, 1), amount + 0.0005 FROM events WHERE amount < 0

query scan_events_partition_expr scan
SELECT yr * 100 + length(coalesce(region, '')) AS k, count(*) FROM events GROUP BY 1

query scan_events_star_filter scan
SELECT * FROM events WHERE yr = 2024 AND region = 'us' AND flag

query scan_partition_contradiction scan
SELECT count(*) FROM orders WHERE dt = '2024-03-01' AND dt = '2024-03-02'

query scan_partition_in_with_null scan
SELECT count(*) FROM orders WHERE dt IN ('2024-03-01', NULL)

query scan_partition_not_in_with_null scan
SELECT count(*) FROM orders WHERE dt NOT IN ('2024-03-01', NULL)

query scan_partition_like_default scan
SELECT count(*) FROM orders WHERE dt LIKE '%HIVE%'

query scan_partition_coalesce scan
SELECT count(*) FROM orders WHERE coalesce(dt, '2024-03-01') = '2024-03-01'

query scan_partition_case scan
SELECT count(*) FROM orders WHERE CASE WHEN dt = '2024-03-01' THEN true END

query scan_partition_empty_between scan
SELECT count(*) FROM orders WHERE dt BETWEEN '2024-03-01' AND '2024-02-01'

query scan_partition_function_of_key scan
SELECT count(*) FROM orders WHERE length(dt) = 10

query scan_partition_eq_null scan
SELECT count(*) FROM orders WHERE dt = NULL

query scan_partition_double_negation scan
SELECT count(*) FROM orders WHERE NOT (dt <> '2024-03-01')

query scan_partition_cast_date scan
SELECT count(*) FROM orders WHERE CAST(dt AS date) BETWEEN DATE '2024-02-28' AND DATE '2024-03-01'

query scan_partition_or_null scan
SELECT count(*) FROM customers WHERE tier IN (1, 2) OR tier IS NULL

query scan_partition_large_in scan
SELECT count(*) FROM orders WHERE dt IN ('2024-01-01', '2024-02-26', '2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02', '2024-03-03', '2024-03-05', '2024-03-06', '2024-03-07', 'x')

query scan_partition_key_only scan
SELECT DISTINCT dt FROM orders

query scan_partition_only_columns scan
SELECT yr, region FROM events WHERE event_id < 5100

query scan_offset_last_row scan
SELECT qty FROM orders ORDER BY order_id LIMIT 2 OFFSET 2999

query error_distinct_order_by scan
SELECT DISTINCT status FROM orders ORDER BY qty
---- error ORDER BY

query error_group_by_position scan
SELECT status FROM orders GROUP BY 2
---- error GROUP BY

query error_aggregate_in_where scan
SELECT status FROM orders WHERE count(*) > 1
---- error WHERE

query error_nested_aggregate scan
SELECT max(count(*)) FROM orders
---- error nest

query error_not_grouped scan
SELECT status, qty FROM orders GROUP BY status
---- error GROUP BY

query error_unknown_column scan
SELECT no_such_column FROM orders
---- error no_such_column

query error_unknown_table scan
SELECT * FROM no_such_table
---- error no_such_table

# ============================================================ filters

query filter_eq_int filter
SELECT order_id, qty FROM orders WHERE qty = 7

query filter_ne_string filter
SELECT count(*) FROM orders WHERE status <> 'shipped'

query filter_lt_decimal filter
SELECT order_id, unit_price FROM orders WHERE unit_price < 0

query filter_le_decimal_literal filter
SELECT count(*) FROM orders WHERE unit_price <= 100.50

query filter_double filter
SELECT order_id, discount FROM orders WHERE discount > 1

query filter_double_eq filter
SELECT count(*) FROM orders WHERE discount = 0.125

query filter_between filter
SELECT order_id FROM orders WHERE qty BETWEEN 20 AND 25

query filter_not_between filter
SELECT count(*) FROM orders WHERE qty NOT BETWEEN 1 AND 10

query filter_between_dates filter
SELECT count(*) FROM orders WHERE order_date BETWEEN DATE '2024-02-01' AND DATE '2024-02-15'

query filter_in_list filter
SELECT count(*), sum(qty) FROM orders WHERE customer_id IN (1, 2, 3, 5, 8, 13, 21, 34, 55, 89)

query filter_in_list_null filter
SELECT count(*) FROM orders WHERE customer_id IN (1, 2, NULL)

query filter_not_in_list filter
SELECT count(*) FROM orders WHERE priority NOT IN (1, 2)

query filter_not_in_list_null filter
SELECT count(*) FROM orders WHERE priority NOT IN (1, NULL)

query filter_in_strings filter
SELECT status, count(*) FROM orders WHERE status IN ('shipped', 'Shipped', '') GROUP BY status

query filter_is_null filter
SELECT order_id FROM orders WHERE qty IS NULL

query filter_is_not_null_and filter
SELECT count(*) FROM orders WHERE note IS NOT NULL AND note <> ''

query filter_empty_string filter
SELECT count(*) FROM orders WHERE note = ''

query filter_like_prefix filter
SELECT note, count(*) FROM orders WHERE note LIKE 'rush%' GROUP BY note

query filter_like_contains filter
SELECT DISTINCT note FROM orders WHERE note LIKE '%a%'

query filter_like_underscore filter
SELECT DISTINCT note FROM orders WHERE note LIKE '_u%'

query filter_like_escape_percent filter
SELECT DISTINCT note FROM orders WHERE note LIKE '%\%%' ESCAPE '\'

query filter_like_escape_underscore filter
SELECT DISTINCT note FROM orders WHERE note LIKE '%\_%' ESCAPE '\'

query filter_not_like filter
SELECT count(*) FROM orders WHERE note NOT LIKE '%e%'

query filter_like_case filter
SELECT count(*) FROM orders WHERE status LIKE 'S%'

query filter_like_unicode filter
SELECT DISTINCT note FROM orders WHERE note LIKE 'caf_ au lait'

query filter_and_or_precedence filter
SELECT count(*) FROM orders WHERE qty > 10 OR qty < 0 AND is_gift

query filter_not filter
SELECT count(*) FROM orders WHERE NOT (qty > 5)

query filter_not_null_bool filter
SELECT count(*) FROM orders WHERE NOT is_gift

query filter_bool_column filter
SELECT count(*) FROM orders WHERE is_gift

query filter_bool_eq filter
SELECT count(*) FROM orders WHERE is_gift = false

query filter_is_distinct_from filter
SELECT count(*) FROM orders WHERE status IS DISTINCT FROM 'shipped'

query filter_is_not_distinct_from filter
SELECT count(*) FROM orders WHERE priority IS NOT DISTINCT FROM NULL

query filter_date_literal filter
SELECT order_id, order_date FROM orders WHERE order_date < DATE '2024-01-01'

query filter_timestamp_literal filter
SELECT order_id, created_at FROM orders WHERE created_at >= TIMESTAMP '2024-03-04 23:00:00'

query filter_timestamp_fraction filter
SELECT order_id, created_at FROM orders WHERE created_at > TIMESTAMP '2024-03-01 12:00:00' AND created_at < TIMESTAMP '2024-03-01 13:00:00'

query filter_date_vs_timestamp filter
SELECT count(*) FROM orders WHERE order_date = CAST(created_at AS date)

query filter_expression filter
SELECT order_id FROM orders WHERE qty * unit_price > 5000

query filter_arith_both_sides filter
SELECT count(*) FROM orders WHERE qty + 1 > priority * 3

query filter_string_compare filter
SELECT DISTINCT name FROM customers WHERE name > 'H' AND name < 'J'

query filter_bigint_large filter
SELECT product_id, stock FROM products WHERE stock > 2147483647

query filter_negative_literal filter
SELECT product_id, weight FROM products WHERE weight < -0.5

query filter_const_true filter
SELECT count(*) FROM products WHERE 1 = 1

query filter_const_false filter
SELECT count(*) FROM products WHERE 1 = 0

query filter_null_literal filter
SELECT count(*) FROM products WHERE NULL

query filter_or_null filter
SELECT count(*) FROM products WHERE discontinued OR NULL

query filter_and_null filter
SELECT count(*) FROM products WHERE NOT (discontinued AND NULL)

# ============================================================ NULL semantics

query null_arith null
SELECT qty + NULL, unit_price * NULL, discount - NULL FROM orders WHERE order_id = 100000

query null_compare null
SELECT count(*) FROM orders WHERE qty = NULL

query null_count_vs_count_star null
SELECT count(*), count(note), count(DISTINCT note) FROM orders

query null_group_key null
SELECT priority, count(*) FROM orders GROUP BY priority

query null_sum_all_null null
SELECT sum(qty), avg(qty), min(qty), max(qty), count(qty) FROM orders WHERE qty IS NULL

query null_empty_vs_null null
SELECT count_if(status IS NULL), count_if(status = ''), count_if(coalesce(status, '') = '') FROM orders

query null_bool_logic null
SELECT is_gift, is_gift AND true, is_gift OR false, NOT is_gift, is_gift AND NULL, is_gift OR NULL FROM orders WHERE order_id IN (100000, 100004, 100008, 100012, 100016, 100020)

query null_in_with_nulls null
SELECT order_id, priority IN (1, NULL), priority NOT IN (1, NULL) FROM orders WHERE order_id < 100050

query null_distinct_from null
SELECT order_id, priority IS DISTINCT FROM 3, priority IS NOT DISTINCT FROM NULL FROM orders WHERE order_id < 100050

# ============================================================ string functions

query str_lower_upper string
SELECT DISTINCT note, lower(note), upper(note) FROM orders WHERE note NOT LIKE '%ß%'

query str_upper_sharp_s string
SELECT DISTINCT note, lower(note), upper(note) FROM orders WHERE note LIKE '%ß%'
---- expect Trino upper() maps code point by code point (Character.toUpperCase): ß stays ß; DuckDB gives ẞ
Ünïcödé straße	ünïcödé straße	ÜNÏCÖDÉ STRAßE

query str_length string
SELECT DISTINCT note, length(note) FROM orders

query str_concat_op string
SELECT order_id, status || '/' || note FROM orders WHERE order_id < 100060

query str_concat_fn string
SELECT order_id, concat(status, '-', note) FROM orders WHERE order_id < 100060

query str_concat_null string
SELECT order_id, concat(note, status) IS NULL, (note || status) IS NULL FROM orders WHERE order_id < 100100

query str_substr2 string
SELECT DISTINCT note, substr(note, 3) FROM orders

query str_substr3 string
SELECT DISTINCT note, substr(note, 2, 3) FROM orders

query str_substr_negative string
SELECT DISTINCT note, substr(note, -3), substr(note, -4, 2) FROM orders

query str_substring_alias string
SELECT DISTINCT name, substring(name, 1, 3) FROM customers

query str_substr_beyond string
SELECT DISTINCT note, substr(note, 12), substr(note, 5, 100) FROM orders

query str_trim string
SELECT DISTINCT note, trim(note), ltrim(note), rtrim(note), length(trim(note)) FROM orders

query str_replace string
SELECT DISTINCT note, replace(note, ' ', '_'), replace(note, 'r') FROM orders

query str_reverse string
SELECT DISTINCT note, reverse(note) FROM orders

query str_strpos string
SELECT DISTINCT note, strpos(note, 'a'), strpos(note, 'rush') FROM orders

query str_starts_with string
SELECT DISTINCT note, starts_with(note, 'ru') FROM orders

query str_lpad_rpad string
SELECT DISTINCT status, lpad(status, 10, '*'), rpad(status, 10, '-'), lpad(status, 3, 'x') FROM orders

query str_split_part string
SELECT DISTINCT note, split_part(note, ' ', 1), split_part(note, ' ', 2), split_part(note, ' ', 3) FROM orders

query str_split_part_dash string
SELECT DISTINCT note, split_part(note, '-', 2) FROM orders WHERE note LIKE '%-%'

query str_upper_unicode string
SELECT DISTINCT city, upper(city), lower(city) FROM customers

query str_length_unicode string
SELECT DISTINCT city, length(city), reverse(city) FROM customers

query str_nested string
SELECT DISTINCT upper(substr(trim(note), 1, 4)) || '!' FROM orders

query str_compare_functions string
SELECT count(*) FROM customers WHERE lower(name) = 'ann smith'

query str_group_by_expr string
SELECT lower(status) AS s, count(*) FROM orders GROUP BY lower(status)

query str_cast_int_concat string
SELECT order_id, CAST(qty AS varchar) || 'x' FROM orders WHERE order_id < 100040

query str_like_on_function string
SELECT count(*) FROM orders WHERE upper(note) LIKE '%RUSH%'

query str_name_parts string
SELECT DISTINCT name, split_part(name, ' ', 2) AS last, length(name) - strpos(name, ' ') AS tail FROM customers

# ============================================================ math

query math_arith_int math
SELECT order_id, qty + priority, qty - priority, qty * priority FROM orders WHERE order_id < 100100

query math_int_division math
SELECT order_id, qty / 4, qty % 4, -qty / 4, qty / -3 FROM orders WHERE order_id < 100200

query math_int_division_negative math
SELECT DISTINCT qty, qty / 2, qty % 3 FROM orders WHERE qty < 3

query math_decimal_arith math
SELECT order_id, unit_price + 1, unit_price - 0.5, unit_price * 2, unit_price * qty FROM orders WHERE order_id < 100100

query math_decimal_times_decimal math
SELECT order_id, unit_price * unit_price FROM orders WHERE order_id < 100100

query math_double_arith math
SELECT order_id, discount * 2, discount + 1.5e0, discount / 2 FROM orders WHERE order_id < 100100

query math_mixed_decimal_double math
SELECT order_id, unit_price * discount, unit_price + discount FROM orders WHERE order_id < 100100

query math_abs_sign math
SELECT DISTINCT qty, abs(qty), sign(qty) FROM orders

query math_abs_decimal math
SELECT order_id, abs(unit_price), sign(unit_price) FROM orders WHERE unit_price < 0

query math_round_double math
SELECT DISTINCT weight, round(weight), round(weight, 1), round(weight, 2) FROM products

query math_round_decimal math
SELECT order_id, unit_price, round(unit_price), round(unit_price, 1) FROM orders WHERE order_id < 100200

query math_ceil_floor math
SELECT DISTINCT weight, ceil(weight), floor(weight), ceiling(weight) FROM products

query math_ceil_floor_decimal math
SELECT order_id, ceil(unit_price), floor(unit_price) FROM orders WHERE order_id < 100200

query math_sqrt_power math
SELECT DISTINCT weight, sqrt(abs(weight)), power(weight, 2), pow(2, product_id % 5) FROM products

query math_sqrt math
SELECT DISTINCT score, sqrt(abs(score)), cbrt(score) FROM customers

query math_exp_ln math
SELECT DISTINCT score, exp(score / 100), ln(abs(score) + 1), log10(abs(score) + 1), log2(abs(score) + 1) FROM customers

query math_mod_fn math
SELECT DISTINCT qty, mod(qty, 5) FROM orders

query math_truncate math
SELECT DISTINCT weight, truncate(weight) FROM products

query math_pi_e math
SELECT pi(), e(), round(pi(), 4)

query math_greatest_least math
SELECT order_id, greatest(qty, priority), least(qty, priority), greatest(qty, priority, 3) FROM orders WHERE order_id < 100100

query math_greatest_decimal math
SELECT order_id, greatest(unit_price, 100), least(unit_price, 0) FROM orders WHERE order_id < 100100

query math_unary_minus math
SELECT order_id, -qty, -unit_price, -discount FROM orders WHERE order_id < 100050

query math_bigint math
SELECT product_id, stock * 2, stock + 1, stock / 3, stock % 7 FROM products

query math_double_div_nullif math
SELECT order_id, CAST(qty AS double) / nullif(priority, 0) FROM orders WHERE order_id < 100100

query math_precedence math
SELECT order_id, qty + priority * 2 - 1, (qty + priority) * 2, qty - -priority FROM orders WHERE order_id < 100050

query math_is_nan math
SELECT DISTINCT score, is_nan(score), is_finite(score), is_infinite(score) FROM customers

query math_literals math
SELECT 1 + 2 * 3, 7 / 2, 7 % 3, 2.5 * 2, 1.5e0 * 2, -7 / 2, 10 - 20

# ============================================================ date / time

query date_parts date
SELECT DISTINCT order_date, year(order_date), month(order_date), day(order_date), quarter(order_date) FROM orders

query date_parts2 date
SELECT DISTINCT order_date, day_of_week(order_date), day_of_year(order_date), week(order_date) FROM orders

query date_aliases date
SELECT DISTINCT order_date, dow(order_date), doy(order_date), day_of_month(order_date), week_of_year(order_date), year_of_week(order_date), yow(order_date) FROM orders

query date_ts_parts date
SELECT order_id, created_at, hour(created_at), minute(created_at), second(created_at), millisecond(created_at) FROM orders WHERE order_id < 100300

query date_ts_date_parts date
SELECT order_id, year(created_at), month(created_at), day(created_at), day_of_week(created_at) FROM orders WHERE order_id < 100300

query date_trunc_ts date
SELECT order_id, date_trunc('hour', created_at), date_trunc('day', created_at), date_trunc('minute', created_at) FROM orders WHERE order_id < 100300

query date_trunc_ts_month date
SELECT order_id, date_trunc('month', created_at), date_trunc('year', created_at) FROM orders WHERE order_id < 100300

query date_trunc_date date
SELECT DISTINCT order_date, date_trunc('month', order_date) FROM orders
---- duckdb date_trunc of a DATE is a DATE in Trino, a TIMESTAMP in DuckDB
SELECT DISTINCT order_date, CAST(date_trunc('month', order_date) AS DATE) FROM orders

query date_trunc_week date
SELECT DISTINCT order_date, date_trunc('week', order_date), date_trunc('quarter', order_date), date_trunc('year', order_date) FROM orders
---- duckdb date_trunc of a DATE is a DATE in Trino, a TIMESTAMP in DuckDB
SELECT DISTINCT order_date, CAST(date_trunc('week', order_date) AS DATE), CAST(date_trunc('quarter', order_date) AS DATE), CAST(date_trunc('year', order_date) AS DATE) FROM orders

query date_add_days date
SELECT DISTINCT order_date, date_add('day', 3, order_date), date_add('day', -30, order_date) FROM orders
---- duckdb date + integer
SELECT DISTINCT order_date, order_date + 3, order_date - 30 FROM orders

query date_add_month date
SELECT DISTINCT signup_date, date_add('month', 1, signup_date), date_add('year', -1, signup_date) FROM customers
---- duckdb date + interval, back to DATE
SELECT DISTINCT signup_date, CAST(signup_date + INTERVAL 1 MONTH AS DATE), CAST(signup_date - INTERVAL 1 YEAR AS DATE) FROM customers

query date_add_ts date
SELECT order_id, date_add('hour', 5, created_at), date_add('minute', -90, created_at), date_add('second', 30, created_at) FROM orders WHERE order_id < 100200
---- duckdb timestamp + interval
SELECT order_id, created_at + INTERVAL 5 HOUR, created_at - INTERVAL 90 MINUTE, created_at + INTERVAL 30 SECOND FROM orders WHERE order_id < 100200

query date_diff_days date
SELECT DISTINCT order_date, date_diff('day', order_date, DATE '2024-03-04') FROM orders

query date_diff_units date
SELECT DISTINCT signup_date, date_diff('month', signup_date, DATE '2024-02-29'), date_diff('year', signup_date, DATE '2024-02-29'), date_diff('week', signup_date, DATE '2024-02-29') FROM customers

query date_diff_ts date
SELECT order_id, date_diff('hour', created_at, TIMESTAMP '2024-03-05 00:00:00'), date_diff('minute', TIMESTAMP '2024-02-01 00:00:00', created_at) FROM orders WHERE order_id < 100200

query date_last_day date
SELECT DISTINCT signup_date, last_day_of_month(signup_date) FROM customers

query date_compare_partition date
SELECT count(*) FROM orders WHERE CAST(dt AS date) = order_date

query date_cast_string date
SELECT DISTINCT order_date, CAST(order_date AS varchar) FROM orders

query date_string_to_date date
SELECT DISTINCT dt, CAST(dt AS date), date(dt) FROM orders

query date_group_month date
SELECT year(signup_date) AS y, month(signup_date) AS m, count(*) FROM customers GROUP BY 1, 2

query date_min_max date
SELECT min(order_date), max(order_date), min(created_at), max(created_at) FROM orders

query date_ts_to_date date
SELECT order_id, CAST(created_at AS date), date(created_at) FROM orders WHERE order_id < 100200

query date_date_to_ts date
SELECT DISTINCT order_date, CAST(order_date AS timestamp) FROM orders

query date_to_unixtime date
SELECT order_id, to_unixtime(created_at) FROM orders WHERE order_id < 100100

query date_ts_compare_date date
SELECT count(*) FROM orders WHERE created_at < CAST(order_date AS timestamp)

# ============================================================ CASE / COALESCE / NULLIF / IF

query case_searched case
SELECT order_id, CASE WHEN qty < 0 THEN 'return' WHEN qty = 0 THEN 'zero' WHEN qty < 10 THEN 'small' ELSE 'large' END FROM orders WHERE order_id < 100200

query case_simple case
SELECT order_id, CASE status WHEN 'shipped' THEN 1 WHEN 'pending' THEN 2 ELSE 0 END FROM orders WHERE order_id < 100200

query case_no_else case
SELECT order_id, CASE WHEN is_gift THEN 'gift' END FROM orders WHERE order_id < 100200

query case_null_when case
SELECT order_id, CASE priority WHEN NULL THEN 'null?' WHEN 1 THEN 'one' ELSE 'other' END FROM orders WHERE order_id < 100200

query case_in_aggregate case
SELECT sum(CASE WHEN is_gift THEN qty ELSE 0 END), count(CASE WHEN status = 'shipped' THEN 1 END) FROM orders

query case_group_by case
SELECT CASE WHEN unit_price >= 500 THEN 'hi' WHEN unit_price >= 0 THEN 'lo' ELSE 'neg' END AS band, count(*), sum(unit_price) FROM orders GROUP BY 1

query case_mixed_types case
SELECT order_id, CASE WHEN qty > 5 THEN unit_price ELSE qty END FROM orders WHERE order_id < 100200

query case_nested case
SELECT order_id, CASE WHEN qty IS NULL THEN 'none' ELSE CASE WHEN qty > 5 THEN 'many' ELSE 'few' END END FROM orders WHERE order_id < 100200

query case_lazy_division case
SELECT order_id, CASE WHEN priority = 0 OR priority IS NULL THEN NULL ELSE qty / priority END FROM orders WHERE order_id < 100200

query coalesce_basic case
SELECT order_id, coalesce(note, status, 'none'), coalesce(qty, priority, -1) FROM orders WHERE order_id < 100200

query coalesce_types case
SELECT order_id, coalesce(unit_price, 0), coalesce(discount, 0), coalesce(order_date, DATE '1970-01-01') FROM orders WHERE order_id < 100200

query nullif_basic case
SELECT DISTINCT status, nullif(status, ''), nullif(status, 'shipped') FROM orders

query nullif_int case
SELECT DISTINCT priority, nullif(priority, 3) FROM orders

query if_function case
SELECT order_id, if(qty > 5, 'big', 'small'), if(is_gift, 1) FROM orders WHERE order_id < 100200
---- duckdb DuckDB's if() needs the else argument (Trino's 2-argument form gives NULL)
SELECT order_id, if(qty > 5, 'big', 'small'), if(is_gift, 1, NULL) FROM orders WHERE order_id < 100200

query case_bool_result case
SELECT order_id, CASE WHEN qty > 5 THEN true WHEN qty < 2 THEN false END FROM orders WHERE order_id < 100200

# ============================================================ CAST

query cast_int_to_double cast
SELECT DISTINCT qty, CAST(qty AS double), CAST(qty AS bigint), CAST(qty AS decimal(10,2)) FROM orders

query cast_decimal_to_double cast
SELECT order_id, CAST(unit_price AS double) FROM orders WHERE order_id < 100200

query cast_double_to_decimal cast
SELECT DISTINCT discount, CAST(discount AS decimal(10,3)) FROM orders

query cast_string_to_int cast
SELECT DISTINCT priority, CAST(CAST(priority AS varchar) AS integer) FROM orders

query cast_bool_to_varchar cast
SELECT DISTINCT is_gift, CAST(is_gift AS varchar) FROM orders

query cast_int_to_varchar cast
SELECT DISTINCT qty, CAST(qty AS varchar) FROM orders

query cast_decimal_to_varchar cast
SELECT order_id, CAST(unit_price AS varchar) FROM orders WHERE order_id < 100200

query cast_decimal_rescale cast
SELECT order_id, CAST(unit_price AS decimal(12,4)), CAST(unit_price AS decimal(8,1)) FROM orders WHERE order_id < 100200 AND abs(unit_price) < 10000

query cast_string_to_double cast
SELECT CAST('1.5' AS double), CAST('-0.25' AS double), CAST('12' AS bigint), CAST(' 7' AS varchar)

query cast_string_to_date cast
SELECT CAST('2024-02-29' AS date), CAST('2024-02-29 10:11:12' AS timestamp), CAST('2024-02-29 10:11:12.345' AS timestamp)

query cast_bool_from_string cast
SELECT CAST('true' AS boolean), CAST('false' AS boolean)

query cast_int_to_bool cast
SELECT DISTINCT priority, CAST(priority AS boolean) FROM orders

query cast_smallint_arith cast
SELECT DISTINCT priority, priority + 1, CAST(priority AS smallint) * 100 FROM orders

query cast_decimal_literal cast
SELECT CAST(1.25 AS double), CAST(123.456 AS decimal(10,1)), CAST(-123.455 AS decimal(10,2)), CAST(0.05 AS decimal(3,1))

query cast_decimal_typed_literal cast
SELECT DECIMAL '1.56', DECIMAL '-123.455', CAST(DECIMAL '123.456' AS decimal(10,1)), DECIMAL '1.56' + 1
---- expect Trino: DECIMAL '1.56' is decimal(3,2)
1.56	-123.455	123.5	2.56

query cast_double_to_bigint_floor cast
SELECT DISTINCT weight, CAST(floor(weight) AS bigint) FROM products

query cast_timestamp_to_date_group cast
SELECT CAST(created_at AS date) AS d, count(*) FROM orders GROUP BY CAST(created_at AS date)

# ============================================================ aggregates

query agg_count agg
SELECT count(*), count(qty), count(DISTINCT qty), count(DISTINCT customer_id) FROM orders

query agg_sum_int agg
SELECT sum(qty), sum(priority), sum(order_id) FROM orders

query agg_sum_decimal agg
SELECT sum(unit_price), min(unit_price), max(unit_price) FROM orders

query agg_sum_double agg
SELECT sum(discount), min(discount), max(discount), avg(discount) FROM orders

query agg_avg_int agg
SELECT avg(qty), avg(priority), avg(order_id) FROM orders

query agg_avg_decimal_as_double agg
SELECT avg(CAST(unit_price AS double)), avg(CAST(unit_price AS double) * 2) FROM orders

query agg_min_max_string agg
SELECT min(note), max(note), min(status), max(status) FROM orders

query agg_min_max_date agg
SELECT min(signup_date), max(signup_date), min(last_login), max(last_login) FROM customers

query agg_min_max_bool agg
SELECT min(is_gift), max(is_gift) FROM orders

query agg_bool agg
SELECT bool_and(qty > -10), bool_or(qty > 50), every(qty IS NOT NULL), bool_and(is_gift), bool_or(is_gift) FROM orders

query agg_count_if agg
SELECT count_if(is_gift), count_if(qty > 10), count_if(status = '') FROM orders

query agg_stddev agg
SELECT stddev(qty), stddev_samp(qty), stddev_pop(qty), variance(qty), var_samp(qty), var_pop(qty) FROM orders

query agg_stddev_double agg
SELECT stddev(score), variance(score), stddev_pop(score), var_pop(score) FROM customers

query agg_distinct_sum agg
SELECT sum(DISTINCT qty), avg(DISTINCT qty), count(DISTINCT status), sum(DISTINCT unit_price) FROM orders

query agg_distinct_double agg
SELECT count(DISTINCT discount), sum(DISTINCT discount) FROM orders

query agg_approx_distinct agg
SELECT approx_distinct(customer_id), approx_distinct(status) FROM orders

query agg_empty_input agg
SELECT count(*), sum(qty), avg(qty), min(note), max(order_date), bool_and(is_gift) FROM orders WHERE order_id < 0

query agg_count_if_empty agg
SELECT count_if(is_gift), count(qty) FROM orders WHERE order_id < 0
---- expect Trino count_if is a count: 0 on empty input (DuckDB returns NULL)
0	0

query agg_expression_args agg
SELECT sum(qty * unit_price), max(length(note)), min(qty + priority), sum(CASE WHEN is_gift THEN 1 ELSE 0 END) FROM orders

query agg_arith_on_aggs agg
SELECT sum(qty) * 2 + count(*), max(qty) - min(qty), sum(unit_price) / count(*) > 0 FROM orders

query agg_filter_where agg
SELECT count(*), sum(qty) FROM orders WHERE status = 'shipped' AND dt >= '2024-03-01'

query agg_partition_key agg
SELECT min(dt), max(dt), count(DISTINCT dt), count(dt) FROM orders

query agg_single_row_const agg
SELECT count(*), sum(1), max(2) FROM products

# ============================================================ GROUP BY / HAVING

query group_one_key group_by
SELECT status, count(*), sum(qty) FROM orders GROUP BY status

query group_two_keys group_by
SELECT dt, is_gift, count(*), sum(unit_price) FROM orders GROUP BY dt, is_gift

query group_ordinal group_by
SELECT priority, status, count(*) FROM orders GROUP BY 1, 2

query group_expression group_by
SELECT qty % 5 AS r, count(*) FROM orders GROUP BY qty % 5

query group_alias group_by
SELECT upper(status) AS s, count(*) FROM orders GROUP BY upper(status)

query group_decimal_key group_by
SELECT unit_price, count(*) FROM orders GROUP BY unit_price HAVING count(*) > 1

query group_double_key group_by
SELECT discount, count(*), sum(qty) FROM orders GROUP BY discount

query group_date_key group_by
SELECT order_date, count(*) FROM orders GROUP BY order_date

query group_ts_key group_by
SELECT date_trunc('hour', created_at) AS h, count(*) FROM orders WHERE dt = '2024-03-01' GROUP BY 1

query group_bool_key group_by
SELECT is_active, count(*), avg(score) FROM customers GROUP BY is_active

query group_many_keys group_by
SELECT customer_id, product_id, count(*) FROM orders GROUP BY customer_id, product_id HAVING count(*) >= 2

query group_key_not_selected group_by
SELECT count(*), sum(qty) FROM orders GROUP BY status

query having_count group_by
SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id HAVING count(*) > 15

query having_sum group_by
SELECT product_id, sum(qty) FROM orders GROUP BY product_id HAVING sum(qty) > 400 OR sum(qty) < 150

query having_not_selected_agg group_by
SELECT status FROM orders GROUP BY status HAVING max(qty) > 50

query having_key_predicate group_by
SELECT dt, count(*) FROM orders GROUP BY dt HAVING dt > '2024-03-01'

query having_avg group_by
SELECT city, avg(score), count(*) FROM customers GROUP BY city HAVING avg(score) > 40

query having_no_group_by group_by
SELECT count(*) FROM orders HAVING count(*) > 10

query group_nulls_together group_by
SELECT note, count(*) FROM orders GROUP BY note

query group_case_key group_by
SELECT CASE WHEN score > 50 THEN 'high' ELSE 'low' END AS b, count(*), min(score), max(score) FROM customers GROUP BY 1

query group_country_city group_by
SELECT country, city, count(*), sum(credit_limit) FROM customers GROUP BY country, city

query group_having_distinct group_by
SELECT customer_id FROM orders GROUP BY customer_id HAVING count(DISTINCT product_id) >= 14

query group_partition_and_col group_by
SELECT tier, is_active, count(*), sum(credit_limit), min(signup_date) FROM customers GROUP BY tier, is_active

# ============================================================ DISTINCT

query distinct_one distinct
SELECT DISTINCT status FROM orders

query distinct_two distinct
SELECT DISTINCT status, is_gift FROM orders

query distinct_expr distinct
SELECT DISTINCT qty / 10 FROM orders

query distinct_nulls distinct
SELECT DISTINCT priority FROM orders

query distinct_date distinct
SELECT DISTINCT order_date FROM orders WHERE dt = '2024-03-02'

query distinct_order_limit distinct
SELECT DISTINCT category FROM products ORDER BY category LIMIT 3

query distinct_count distinct
SELECT count(*) FROM (SELECT DISTINCT customer_id, product_id FROM orders) t

query distinct_star distinct
SELECT DISTINCT * FROM (SELECT status, priority FROM orders) t

# ============================================================ ORDER BY / LIMIT

query order_asc order_limit
SELECT order_id, qty FROM orders ORDER BY qty, order_id LIMIT 20

query order_desc order_limit
SELECT order_id, qty FROM orders ORDER BY qty DESC, order_id DESC LIMIT 20

query order_nulls_default_asc order_limit
SELECT order_id, priority FROM orders ORDER BY priority, order_id

query order_nulls_default_desc order_limit
SELECT order_id, priority FROM orders ORDER BY priority DESC, order_id

query order_nulls_first order_limit
SELECT order_id, qty FROM orders ORDER BY qty NULLS FIRST, order_id LIMIT 30

query order_desc_nulls_first order_limit
SELECT order_id, qty FROM orders ORDER BY qty DESC NULLS FIRST, order_id LIMIT 30

query order_desc_nulls_last order_limit
SELECT product_id, price FROM products ORDER BY price DESC NULLS LAST, product_id

query order_string order_limit
SELECT DISTINCT note FROM orders ORDER BY note

query order_string_desc order_limit
SELECT DISTINCT city FROM customers ORDER BY city DESC

query order_expression order_limit
SELECT order_id, qty FROM orders ORDER BY qty * -1, order_id LIMIT 10

query order_by_alias order_limit
SELECT order_id, qty * priority AS w FROM orders ORDER BY w DESC, order_id LIMIT 10

query order_by_ordinal order_limit
SELECT product_id, weight FROM products ORDER BY 2, 1

query order_by_not_selected order_limit
SELECT order_id FROM orders ORDER BY created_at, order_id LIMIT 15

query order_limit_offset order_limit
SELECT order_id FROM orders ORDER BY order_id OFFSET 10 LIMIT 5

query order_offset_only order_limit
SELECT product_id FROM products ORDER BY product_id OFFSET 50

query order_limit_zero order_limit
SELECT order_id FROM orders ORDER BY order_id LIMIT 0

query order_limit_all_rows order_limit
SELECT product_id FROM products ORDER BY product_id LIMIT 1000

query order_fetch_first order_limit
SELECT order_id FROM orders ORDER BY order_id DESC FETCH FIRST 3 ROWS ONLY

query order_group_by_agg order_limit
SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id ORDER BY n DESC, customer_id LIMIT 10

query order_by_agg_not_selected order_limit
SELECT status FROM orders GROUP BY status ORDER BY sum(qty), status

query order_double order_limit
SELECT customer_key, score FROM customers ORDER BY score DESC, customer_key LIMIT 25

query order_date order_limit
SELECT customer_key, signup_date FROM customers ORDER BY signup_date, customer_key LIMIT 25

query order_timestamp_desc order_limit
SELECT customer_key, last_login FROM customers ORDER BY last_login DESC, customer_key LIMIT 25

query order_bool order_limit
SELECT product_id, discontinued FROM products ORDER BY discontinued, product_id

query order_decimal order_limit
SELECT customer_key, credit_limit FROM customers ORDER BY credit_limit, customer_key LIMIT 30

query order_partition_key order_limit
SELECT order_id, dt FROM orders ORDER BY dt DESC, order_id LIMIT 20

query order_mixed_directions order_limit
SELECT status, priority, count(*) FROM orders GROUP BY status, priority ORDER BY status DESC, priority ASC

query limit_no_order_count order_limit
SELECT count(*) FROM (SELECT order_id FROM orders LIMIT 17) t

# ============================================================ subqueries in FROM

query from_subquery_filter subquery_from
SELECT * FROM (SELECT order_id, qty * 2 AS q2 FROM orders WHERE dt = '2024-02-28') t WHERE q2 > 50

query from_subquery_agg subquery_from
SELECT status, n FROM (SELECT status, count(*) AS n FROM orders GROUP BY status) t WHERE n > 100

query from_subquery_nested subquery_from
SELECT max(s) FROM (SELECT customer_id, sum(qty) AS s FROM (SELECT * FROM orders WHERE qty > 0) a GROUP BY customer_id) b

query from_subquery_agg_of_agg subquery_from
SELECT n, count(*) FROM (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) t GROUP BY n

query from_subquery_limit subquery_from
SELECT sum(qty) FROM (SELECT qty FROM orders ORDER BY order_id LIMIT 100) t

query from_subquery_distinct subquery_from
SELECT count(*) FROM (SELECT DISTINCT note FROM orders) t

query from_subquery_columns_renamed subquery_from
SELECT x + y FROM (SELECT qty AS x, priority AS y FROM orders WHERE order_id < 100100) t

query from_subquery_expressions subquery_from
SELECT band, count(*) FROM (SELECT CASE WHEN weight > 25 THEN 'heavy' ELSE 'light' END AS band FROM products) t GROUP BY band

query from_subquery_order_outer subquery_from
SELECT * FROM (SELECT product_id, price FROM products WHERE category = 'tools') t ORDER BY price DESC NULLS FIRST, product_id

query from_subquery_partition_filter subquery_from
SELECT dt, count(*) FROM (SELECT dt FROM orders) t WHERE dt = '2024-03-03' GROUP BY dt

# ============================================================ Trino semantics pinned
# Where DuckDB's answer differs from Trino's, the Trino answer is written here.

query trino_int_division trino
SELECT 7 / 2, -7 / 2, 7 / -2, 7 % 3, -7 % 3, 7 % -3
---- expect Trino integer / truncates toward zero; % takes the dividend's sign
3	-3	-3	1	-1	1

query trino_double_division_by_zero trino
SELECT 1e0 / 0e0, -1e0 / 0e0, 0e0 / 0e0
---- expect Trino double division follows IEEE (DuckDB returns NULL)
Infinity	-Infinity	NaN

query trino_int_division_by_zero trino
SELECT 5 / 0
---- error division by zero

query trino_int_modulo_by_zero trino
SELECT 5 % 0
---- error division by zero

query trino_int_division_by_zero_column trino
SELECT qty / (qty - qty) FROM orders WHERE qty = 7
---- error division by zero

query trino_integer_overflow trino
SELECT 2147483647 + 1
---- error overflow

query trino_bigint_overflow trino
SELECT 9223372036854775807 + 1
---- error overflow

query trino_integer_multiply_overflow trino
SELECT 100000 * 100000
---- error overflow

query trino_cast_double_to_int_rounds trino
SELECT CAST(DOUBLE '2.5' AS integer), CAST(DOUBLE '-2.5' AS integer), CAST(DOUBLE '3.5' AS bigint), CAST(DOUBLE '0.49' AS integer), CAST(DOUBLE '-0.5' AS smallint)
---- expect Trino rounds half away from zero (MathFunctions.round); DuckDB rounds half to even
3	-3	4	0	-1

query trino_cast_decimal_to_int_rounds trino
SELECT CAST(2.5 AS integer), CAST(-2.5 AS integer), CAST(1.49 AS integer), CAST(-0.5 AS bigint)
---- expect Trino rounds decimals half up (away from zero)
3	-3	1	-1

query trino_round_double trino
SELECT round(DOUBLE '2.5'), round(DOUBLE '-2.5'), round(DOUBLE '0.125', 2), round(DOUBLE '-0.125', 2), round(DOUBLE '1.005', 2), round(DOUBLE '2.675', 2)
---- expect Trino: Math.round(x * 10^d) / 10^d, away from zero for negatives (1.005 * 100 is 100.49999999999999, 2.675 * 100 is 267.5)
3.0	-3.0	0.13	-0.13	1.0	2.68

query trino_round_decimal trino
SELECT round(2.5), round(-2.5), round(2.45, 1), round(-2.45, 1), round(123.456, -1)
---- expect Trino decimal round is half up
3	-3	2.5	-2.5	120

query trino_decimal_division trino
SELECT 1 / 3.0, 2.00 / 3, 10.00 / 4, -2.00 / 3, 7 / 2.0
---- expect Trino decimal division keeps scale max(s1, s2), rounding half up (DuckDB divides in double)
0.3	0.67	2.50	-0.67	3.5

query trino_decimal_arith_exact trino
SELECT 0.1 + 0.2, 1.10 * 3, 0.3 - 0.1 = 0.2
---- expect decimal literals are exact
0.3	3.30	true

query trino_avg_decimal trino
SELECT avg(unit_price) FROM orders
---- expect Trino avg(decimal(10,2)) is decimal(10,2), rounded half up (DuckDB returns a double)
453.01

query trino_avg_decimal_grouped trino
SELECT status, avg(unit_price) FROM orders GROUP BY status
---- expect Trino avg(decimal(10,2)) is decimal(10,2), rounded half up (DuckDB returns a double)
(empty)	466.19
Shipped	475.60
cancelled	457.73
pending	446.07
returned	431.58
shipped	459.25
NULL	437.35

query trino_avg_decimal_products trino
SELECT avg(price), avg(price * 2) FROM products
---- expect Trino avg(decimal) keeps the argument's scale, rounded half up
516.97	1033.94

query trino_substr_edges trino
SELECT substr('hello', 0), substr('hello', 0, 2), substr('hello', 6), substr('hello', -5), substr('hello', -6), substr('hello', 2, 0), substr('hello', 5, 10)
---- expect Trino substr: start 0 or outside the string gives ''
(empty)	(empty)	(empty)	hello	(empty)	(empty)	o

query trino_split_part_beyond trino
SELECT split_part('a b', ' ', 3), split_part('a b', ' ', 2), split_part('', ' ', 1), split_part('a  b', ' ', 2)
---- expect Trino split_part returns NULL past the last field (DuckDB '')
NULL	b	(empty)	(empty)

query trino_concat_null trino
SELECT concat('a', NULL), 'a' || NULL, concat('a', 'b', 'c'), concat('', '')
---- expect Trino concat is NULL when any argument is NULL (DuckDB skips NULLs)
NULL	NULL	abc	(empty)

query trino_greatest_least_null trino
SELECT greatest(1, NULL), least(NULL, 2), greatest(1, 2, 3), least(1.5, 2)
---- expect Trino greatest/least are NULL when any argument is NULL (DuckDB skips NULLs)
NULL	NULL	3	1.5

query trino_nan_comparisons trino
SELECT nan() = nan(), nan() <> nan(), is_nan(nan()), nan() > 1e0, infinity() > 1e308, -infinity() < -1e308
---- expect Trino compares NaN as IEEE (DuckDB: NaN = NaN is true)
false	true	true	false	true	true

query trino_like_rules trino
SELECT 'abc' LIKE 'ABC', 'abc' LIKE 'a_c', 'a%c' LIKE 'a\%c' ESCAPE '\', 'abc' LIKE '%', '' LIKE '%', 'a_c' LIKE 'a#_c' ESCAPE '#'
---- expect LIKE is case-sensitive, no default escape
false	true	true	true	true	true

query trino_date_add_clamps trino
SELECT date_add('month', 1, DATE '2024-01-31'), date_add('year', 1, DATE '2024-02-29'), date_add('month', -1, DATE '2024-03-31'), date_add('day', 1, DATE '2024-02-28'), date_add('week', 1, DATE '2024-02-26')
---- expect Trino clamps to the month's last day
2024-02-29	2025-02-28	2024-02-29	2024-02-29	2024-03-04

query trino_date_diff_whole_units trino
SELECT date_diff('month', DATE '2024-01-31', DATE '2024-02-29'), date_diff('month', DATE '2024-02-29', DATE '2024-03-28'), date_diff('month', DATE '2024-01-15', DATE '2024-02-14'), date_diff('year', DATE '2023-03-01', DATE '2024-02-29'), date_diff('day', DATE '2024-03-01', DATE '2024-02-28'), date_diff('month', DATE '2024-03-31', DATE '2024-02-29')
---- expect Trino (Joda) counts whole units, end-of-month aware (DuckDB date_diff counts boundaries)
1	0	0	0	-2	-1

query trino_date_diff_timestamps trino
SELECT date_diff('day', TIMESTAMP '2024-03-01 23:00:00', TIMESTAMP '2024-03-02 01:00:00'), date_diff('hour', TIMESTAMP '2024-03-01 23:59:00', TIMESTAMP '2024-03-02 00:58:00'), date_diff('second', TIMESTAMP '2024-03-01 00:00:00.900', TIMESTAMP '2024-03-01 00:00:01.100')
---- expect whole units between the instants
0	0	0

query trino_iso_week trino
SELECT day_of_week(DATE '2024-03-03'), day_of_week(DATE '2024-03-04'), week(DATE '2024-12-30'), year_of_week(DATE '2024-12-30'), week(DATE '2021-01-03'), year_of_week(DATE '2021-01-03'), day_of_year(DATE '2024-12-31')
---- expect ISO weeks, Monday = 1
7	1	1	2025	53	2020	366

query trino_date_trunc_and_last_day trino
SELECT date_trunc('week', DATE '2024-03-03'), date_trunc('quarter', DATE '2024-02-29'), date_trunc('month', DATE '2024-02-29'), last_day_of_month(DATE '2024-02-10'), last_day_of_month(DATE '2023-02-10')
---- expect date_trunc of a DATE is a DATE (weeks start on Monday)
2024-02-26	2024-01-01	2024-02-01	2024-02-29	2023-02-28

query trino_timestamp_column_text trino
SELECT CAST(created_at AS varchar) FROM orders WHERE order_id IN (100018, 100027)
---- expect Hive timestamp columns are timestamp(3) in Trino/Athena: three fraction digits always
2024-03-04 22:44:55.500
2024-02-28 14:45:01.123

query trino_timestamp_literal_text trino
SELECT CAST(TIMESTAMP '2024-01-01 10:00:00' AS varchar), CAST(TIMESTAMP '2024-01-01 10:00:00.5' AS varchar)
---- expect a timestamp literal's precision is the number of fraction digits written
2024-01-01 10:00:00	2024-01-01 10:00:00.5

query trino_nulls_last_desc trino
SELECT priority FROM (SELECT DISTINCT priority FROM orders) t ORDER BY priority DESC
---- expect Trino sorts NULLs last in both directions
5
4
3
2
1
NULL

query trino_nulls_first_asc trino
SELECT priority FROM (SELECT DISTINCT priority FROM orders) t ORDER BY priority NULLS FIRST
---- expect
NULL
1
2
3
4
5

query trino_cast_invalid_int trino
SELECT CAST('abc' AS integer)
---- error abc

query trino_cast_invalid_date trino
SELECT CAST('2024-02-30' AS date)
---- error 2024-02-30

query trino_cast_decimal_overflow trino
SELECT CAST(999.995 AS decimal(5,2))
---- error 999.995

query trino_lpad_empty_pad trino
SELECT lpad('a', 3, '')
---- error pad

query trino_cast_int_to_boolean trino
SELECT CAST(1 AS boolean), CAST(0 AS boolean), CAST(-2 AS boolean)
---- expect nonzero is true
true	false	true

query trino_string_order_bytes trino
SELECT 'Z' < 'a', 'é' > 'z', 'ab' < 'abc', '' < 'a'
---- expect varchar compares by code point (UTF-8 bytes)
true	true	true	true

query trino_sign_truncate trino
SELECT sign(-5), sign(0), sign(DOUBLE '-2.5'), sign(-2.5), truncate(DOUBLE '-2.7'), truncate(2.7), truncate(-2.7)
---- expect
-1	0	-1.0	-1	-2.0	2	-2

query trino_power_mod trino
SELECT power(2, 10), power(2, -1), mod(-7, 3), mod(7, -3), mod(DOUBLE '5.5', 2)
---- expect power is double; mod takes the dividend's sign
1024.0	0.5	-1	1	1.5

query trino_ceil_floor_negative trino
SELECT ceil(-0.5), floor(-0.5), floor(DOUBLE '-0.5'), ceil(1.01), floor(DOUBLE '2.0')
---- expect
0	-1	-1.0	2	2.0

query trino_in_with_null trino
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), NULL IN (1), 1 NOT IN (2, 3)
---- expect three-valued IN
true	NULL	NULL	NULL	true

query trino_case_null_operand trino
SELECT CASE NULL WHEN NULL THEN 1 ELSE 2 END, CASE WHEN NULL THEN 1 ELSE 2 END, nullif(NULL, 1), coalesce(NULL, NULL, 3)
---- expect NULL never equals NULL in CASE
2	2	NULL	3

query trino_unicode_strings trino
SELECT length('straße'), length(''), length('日本'), reverse('café'), upper('éàü'), lower('ÉÀÜ'), strpos('café au lait', 'au')
---- expect lengths and positions count code points
6	0	2	éfac	ÉÀÜ	éàü	6

query trino_trim_two_args trino
SELECT trim('xxaxx', 'x'), ltrim('xxaxx', 'x'), rtrim('xxaxx', 'x'), trim('  a  ')
---- expect
a	axx	xxa	a

query trino_boolean_ops trino
SELECT true AND NULL, false AND NULL, true OR NULL, false OR NULL, NOT CAST(NULL AS boolean)
---- expect three-valued logic
NULL	false	true	NULL	NULL

query trino_empty_aggregates trino
SELECT sum(qty), avg(qty), min(qty), max(qty), count(qty), count(*), bool_or(is_gift), stddev(qty) FROM orders WHERE false
---- expect
NULL	NULL	NULL	NULL	0	0	NULL	NULL

query trino_stddev_single_row trino
SELECT stddev(qty), variance(qty), stddev_pop(qty), var_pop(qty) FROM orders WHERE order_id = 100018
---- expect sample statistics of one row are NULL, population ones 0
NULL	NULL	0.0	0.0

query trino_cast_double_to_decimal trino
SELECT CAST(DOUBLE '1.005' AS decimal(5,2)), CAST(DOUBLE '0.35' AS decimal(5,1)), CAST(DOUBLE '2.675' AS decimal(5,2)), CAST(DOUBLE '-0.125' AS decimal(5,2))
---- expect Trino: BigDecimal.valueOf(double) (the shortest decimal text) rounded HALF_UP; DuckDB rounds the binary value (1.005 -> 1.00)
1.01	0.4	2.68	-0.13

query trino_nan_in_list trino
SELECT nan() IN (nan(), 1e0), nan() NOT IN (1e0, 2e0), 1e0 IN (nan(), 1e0), nan() IN (1e0)
---- expect IN is a chain of = (IEEE): NaN is in no list
false	true	true	false

query trino_nan_order trino
SELECT DISTINCT CASE WHEN qty > 50 THEN nan() WHEN qty < 0 THEN infinity() WHEN qty = 0 THEN -infinity() END AS x FROM orders ORDER BY x
---- expect with NULLS LAST (the default) NaN sorts after every number
-Infinity
Infinity
NaN
NULL

query trino_nan_order_nulls_first trino
SELECT DISTINCT CASE WHEN qty > 50 THEN nan() WHEN qty < 0 THEN infinity() WHEN qty = 0 THEN -infinity() END AS x FROM orders ORDER BY x NULLS FIRST
---- expect with NULLS FIRST NaN sorts before every number
NULL
NaN
-Infinity
Infinity

query trino_nan_min_max trino
SELECT min(x), max(x), count(DISTINCT x), count(x) > 2900 FROM (SELECT CASE WHEN qty > 50 THEN nan() ELSE discount END AS x FROM orders) t
---- expect min/max never prefer NaN over a number; DISTINCT counts NaN once
-0.125	10.0	75	false

query nan_group_by null
SELECT x, count(*) FROM (SELECT CASE WHEN qty > 50 THEN nan() WHEN qty < 0 THEN infinity() ELSE discount END AS x FROM orders) t GROUP BY x

query nan_distinct null
SELECT DISTINCT CASE WHEN qty > 50 THEN nan() ELSE priority * 1e0 END FROM orders

query trino_infinity_arith trino
SELECT infinity() - infinity(), infinity() * 0, -infinity() < 0, is_infinite(1e0 / 0e0), is_nan(0e0 / 0e0), sqrt(-1e0)
---- expect IEEE arithmetic
NaN	NaN	true	true	true	NaN

# ============================================================ joins: INNER

query join_inner_on join_inner
SELECT o.order_id, c.customer_key, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id

query join_inner_keyword join_inner
SELECT o.order_id, p.name, p.category FROM orders o INNER JOIN products p ON o.product_id = p.product_id WHERE o.dt = '2024-03-01'

query join_inner_count join_inner
SELECT count(*), count(DISTINCT o.order_id), sum(o.qty) FROM orders o JOIN customers c ON o.customer_id = c.customer_id

query join_inner_group join_inner
SELECT c.city, count(*), sum(o.qty), sum(o.unit_price) FROM orders o JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.city

query join_inner_two_conditions join_inner
SELECT o.order_id, c.customer_key FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND o.order_date >= c.signup_date WHERE o.qty > 30

query join_inner_non_equi_extra join_inner
SELECT count(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id AND o.priority > c.tier

query join_inner_theta_only join_inner
SELECT count(*) FROM products a JOIN products b ON a.price < b.price

query join_inner_between join_inner
SELECT a.product_id, count(*) FROM products a JOIN products b ON b.weight BETWEEN a.weight - 1 AND a.weight + 1 AND a.product_id <> b.product_id GROUP BY a.product_id

query join_inner_expression_key join_inner
SELECT o.order_id, p.product_id FROM orders o JOIN products p ON o.product_id + 1 = p.product_id WHERE o.qty > 40

query join_inner_where_both_sides join_inner
SELECT o.order_id, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE c.country = 'DE' AND o.is_gift

query join_inner_null_keys_never_match join_inner
SELECT count(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE o.customer_id IS NULL OR c.customer_id IS NULL

query join_inner_not_distinct join_inner
SELECT count(*), count(o.customer_id) FROM orders o JOIN customers c ON o.customer_id IS NOT DISTINCT FROM c.customer_id

query join_inner_string_key join_inner
SELECT a.city, count(*) FROM customers a JOIN customers b ON a.city = b.city GROUP BY a.city

query join_inner_date_key join_inner
SELECT o.order_id, c.customer_key FROM orders o JOIN customers c ON o.order_date = c.signup_date

query join_inner_decimal_key join_inner
SELECT o.order_id, p.product_id FROM orders o JOIN products p ON o.unit_price = p.price

query join_inner_mixed_int_types join_inner
SELECT o.order_id, p.product_id FROM orders o JOIN products p ON o.qty = p.stock WHERE o.qty > 20

query join_inner_partition_keys join_inner
SELECT o.dt, c.tier, count(*) FROM orders o JOIN customers c ON o.customer_id = c.customer_id WHERE o.dt >= '2024-03-02' AND c.tier IN (1, 3) GROUP BY o.dt, c.tier

query join_inner_order_limit join_inner
SELECT o.order_id, c.customer_key, o.qty FROM orders o JOIN customers c ON o.customer_id = c.customer_id ORDER BY o.qty DESC, o.order_id, c.customer_key LIMIT 25

query join_inner_subquery join_inner
SELECT c.customer_key, c.name, s.n FROM customers c JOIN (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) s ON c.customer_id = s.customer_id WHERE s.n > 12

query join_inner_two_subqueries join_inner
SELECT a.customer_id, a.q, b.k FROM (SELECT customer_id, sum(qty) AS q FROM orders GROUP BY customer_id) a JOIN (SELECT customer_id, count(*) AS k FROM customers GROUP BY customer_id) b ON a.customer_id = b.customer_id

query join_inner_select_star join_inner
SELECT * FROM products p JOIN orders o ON p.product_id = o.product_id WHERE o.order_id < 100040

query join_inner_qualified_star join_inner
SELECT p.*, o.qty FROM products p JOIN orders o ON p.product_id = o.product_id WHERE o.order_id < 100060

query join_inner_distinct join_inner
SELECT DISTINCT c.country, p.category FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id

query join_inner_having join_inner
SELECT p.category, count(*) AS n FROM orders o JOIN products p ON o.product_id = p.product_id GROUP BY p.category HAVING sum(o.qty) > 1000

query join_inner_expressions_across join_inner
SELECT o.order_id, o.unit_price - p.price, o.qty * p.weight FROM orders o JOIN products p ON o.product_id = p.product_id WHERE o.order_id < 100300

query join_inner_parenthesized join_inner
SELECT o.order_id, c.customer_key, p.product_id FROM orders o JOIN (customers c JOIN products p ON c.tier = p.product_id % 4) ON o.customer_id = c.customer_id AND o.product_id = p.product_id

# ============================================================ joins: OUTER

query join_left join_outer
SELECT o.order_id, c.customer_key FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id

query join_left_outer_keyword join_outer
SELECT o.order_id, p.name FROM orders o LEFT OUTER JOIN products p ON o.product_id = p.product_id WHERE o.dt = '2024-02-27'

query join_left_unmatched join_outer
SELECT o.order_id, o.customer_id FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id WHERE c.customer_key IS NULL

query join_left_counts join_outer
SELECT count(*), count(c.customer_key), count(o.customer_id) FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id

query join_left_filter_in_on join_outer
SELECT o.order_id, c.customer_key FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id AND c.is_active WHERE o.order_id < 100500

query join_left_filter_in_where join_outer
SELECT o.order_id, c.customer_key FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id WHERE c.is_active AND o.order_id < 100500

query join_left_on_right_constant join_outer
SELECT p.product_id, o.order_id FROM products p LEFT JOIN orders o ON p.product_id = o.product_id AND o.qty > 45

query join_left_coalesce join_outer
SELECT o.order_id, coalesce(c.name, '?'), coalesce(c.tier, -1) FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id WHERE o.order_id < 100300

query join_left_group join_outer
SELECT p.category, count(o.order_id), sum(o.qty) FROM products p LEFT JOIN orders o ON o.product_id = p.product_id GROUP BY p.category

query join_left_aggregate_right join_outer
SELECT c.customer_key, s.n FROM customers c LEFT JOIN (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) s ON c.customer_id = s.customer_id

query join_right join_outer
SELECT p.product_id, count(o.order_id) FROM orders o RIGHT JOIN products p ON o.product_id = p.product_id GROUP BY p.product_id

query join_right_unmatched join_outer
SELECT p.product_id, p.name FROM orders o RIGHT OUTER JOIN products p ON o.product_id = p.product_id WHERE o.order_id IS NULL

query join_right_rows join_outer
SELECT o.order_id, c.customer_key FROM orders o RIGHT JOIN customers c ON o.customer_id = c.customer_id AND o.dt = '2024-03-03'

query join_full join_outer
SELECT o.product_id, p.product_id FROM (SELECT DISTINCT product_id FROM orders) o FULL JOIN products p ON o.product_id = p.product_id

query join_full_outer_counts join_outer
SELECT count(*), count(o.order_id), count(c.customer_key) FROM orders o FULL OUTER JOIN customers c ON o.customer_id = c.customer_id

query join_full_aggregates join_outer
SELECT coalesce(a.customer_id, b.customer_id) AS id, a.n, b.k FROM (SELECT customer_id, count(*) AS n FROM orders WHERE dt = '2024-03-01' GROUP BY customer_id) a FULL JOIN (SELECT customer_id, count(*) AS k FROM customers WHERE tier = 2 GROUP BY customer_id) b ON a.customer_id = b.customer_id

query join_full_on_false join_outer
SELECT count(*), count(a.product_id), count(b.customer_key) FROM products a FULL JOIN customers b ON false

query join_full_non_equi join_outer
SELECT a.product_id, b.product_id FROM products a FULL JOIN products b ON a.product_id = b.product_id + 100

query join_left_chain join_outer
SELECT o.order_id, c.customer_key, p.product_id FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id LEFT JOIN products p ON o.product_id = p.product_id WHERE o.dt = '2024-03-04'

query join_left_then_inner join_outer
SELECT o.order_id, c.customer_key, p.product_id FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id WHERE o.qty > 30

query join_left_is_null_both join_outer
SELECT count(*) FROM orders o LEFT JOIN products p ON o.product_id = p.product_id WHERE p.product_id IS NULL AND o.product_id IS NOT NULL

query join_outer_order_limit join_outer
SELECT p.product_id, o.order_id FROM products p LEFT JOIN orders o ON p.product_id = o.product_id ORDER BY p.product_id, o.order_id NULLS FIRST LIMIT 40

# ============================================================ joins: CROSS, comma, USING, self, multi-way

query join_cross_count join_cross
SELECT count(*) FROM products CROSS JOIN customers

query join_cross_small join_cross
SELECT p.product_id, t.tier FROM products p CROSS JOIN (SELECT DISTINCT tier FROM customers) t WHERE p.product_id < 6

query join_cross_aggregate join_cross
SELECT t.tier, count(*), sum(p.price) FROM products p CROSS JOIN (SELECT DISTINCT tier FROM customers) t GROUP BY t.tier

query join_cross_scalar_agg join_cross
SELECT o.order_id, o.qty - m.avg_qty FROM orders o CROSS JOIN (SELECT avg(qty) AS avg_qty FROM orders) m WHERE o.order_id < 100200

query join_comma join_comma
SELECT o.order_id, p.name FROM orders o, products p WHERE o.product_id = p.product_id AND o.qty > 40

query join_comma_three join_comma
SELECT c.country, p.category, count(*) FROM orders o, customers c, products p WHERE o.customer_id = c.customer_id AND o.product_id = p.product_id GROUP BY c.country, p.category

query join_comma_cross join_comma
SELECT count(*) FROM products a, products b WHERE a.product_id < 10

query join_comma_subquery join_comma
SELECT o.order_id FROM orders o, (SELECT max(qty) AS m FROM orders) x WHERE o.qty = x.m

query join_using join_using
SELECT customer_id, o.order_id, c.customer_key FROM orders o JOIN customers c USING (customer_id)

query join_using_star join_using
SELECT * FROM products a JOIN products b USING (product_id) WHERE product_id < 12

query join_using_left join_using
SELECT customer_id, count(*), count(c.customer_key) FROM orders o LEFT JOIN customers c USING (customer_id) GROUP BY customer_id

query join_using_right join_using
SELECT product_id, count(o.order_id) FROM orders o RIGHT JOIN products p USING (product_id) GROUP BY product_id

query join_using_full join_using
SELECT product_id, o.n, p.name FROM (SELECT product_id, count(*) AS n FROM orders GROUP BY product_id) o FULL JOIN products p USING (product_id)

query join_using_two_columns join_using
SELECT count(*) FROM orders a JOIN orders b USING (customer_id, product_id) WHERE a.order_id < b.order_id

query join_using_three_way join_using
SELECT customer_id, count(*) FROM orders JOIN customers USING (customer_id) JOIN (SELECT DISTINCT customer_id FROM orders WHERE is_gift) g USING (customer_id) GROUP BY customer_id

query join_self_pairs join_self
SELECT a.order_id, b.order_id FROM orders a JOIN orders b ON a.customer_id = b.customer_id AND a.product_id = b.product_id AND a.order_id < b.order_id

query join_self_duplicate_keys join_self
SELECT c1.customer_id, c1.customer_key, c2.customer_key FROM customers c1 JOIN customers c2 ON c1.customer_id = c2.customer_id AND c1.customer_key <> c2.customer_key

query join_self_previous join_self
SELECT a.product_id, b.product_id, b.price - a.price FROM products a JOIN products b ON b.product_id = a.product_id + 1

query join_self_left join_self
SELECT a.customer_key, count(b.customer_key) FROM customers a LEFT JOIN customers b ON a.city = b.city AND a.customer_key < b.customer_key GROUP BY a.customer_key

query join_self_same_day join_self
SELECT a.order_date, count(*) FROM orders a JOIN orders b ON a.order_date = b.order_date AND a.customer_id = b.customer_id AND a.order_id <> b.order_id GROUP BY a.order_date

query join_multi_inner join_multi
SELECT o.order_id, c.name, p.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id WHERE o.dt = '2024-02-29'

query join_multi_group join_multi
SELECT c.country, p.category, count(*), sum(o.qty * p.price) FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id GROUP BY c.country, p.category

query join_multi_left join_multi
SELECT o.order_id, c.customer_key, p.product_id FROM orders o LEFT JOIN customers c ON o.customer_id = c.customer_id LEFT JOIN products p ON o.product_id = p.product_id

query join_multi_four join_multi
SELECT o.order_id, c.customer_key, p.product_id, o2.order_id FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id JOIN orders o2 ON o2.customer_id = c.customer_id AND o2.product_id = p.product_id AND o2.order_id > o.order_id

query join_multi_chain_conditions join_multi
SELECT count(*) FROM orders o JOIN products p ON o.product_id = p.product_id JOIN customers c ON o.customer_id = c.customer_id AND p.launched < c.signup_date

query join_multi_mixed_outer join_multi
SELECT p.category, c.country, count(o.order_id) FROM products p LEFT JOIN orders o ON o.product_id = p.product_id LEFT JOIN customers c ON c.customer_id = o.customer_id GROUP BY p.category, c.country

query join_multi_full_chain join_multi
SELECT count(*), count(a.product_id), count(b.product_id), count(c.product_id) FROM (SELECT product_id FROM products WHERE product_id < 30) a FULL JOIN (SELECT product_id FROM products WHERE product_id > 20) b ON a.product_id = b.product_id FULL JOIN (SELECT DISTINCT product_id FROM orders WHERE dt = '2024-03-01') c ON coalesce(a.product_id, b.product_id) = c.product_id

# ============================================================ subqueries in expressions

query scalar_uncorrelated_select subquery_scalar
SELECT order_id, qty - (SELECT max(qty) FROM orders) FROM orders WHERE order_id < 100100

query scalar_uncorrelated_where subquery_scalar
SELECT order_id, qty FROM orders WHERE qty > (SELECT avg(qty) FROM orders) + 25

query scalar_in_having subquery_scalar
SELECT customer_id, count(*) FROM orders GROUP BY customer_id HAVING count(*) > (SELECT count(*) FROM orders) / 250

query scalar_empty_is_null subquery_scalar
SELECT (SELECT max(qty) FROM orders WHERE order_id < 0), (SELECT count(*) FROM orders WHERE order_id < 0)

query scalar_no_from subquery_scalar
SELECT (SELECT 1) + 1, (SELECT 'a') || 'b'

query scalar_in_case subquery_scalar
SELECT order_id, CASE WHEN qty > (SELECT avg(qty) FROM orders) THEN 'above' ELSE 'below' END FROM orders WHERE order_id < 100100

query scalar_multiple_rows_error subquery_scalar
SELECT (SELECT qty FROM orders WHERE qty > 50)
---- error multiple rows

query scalar_string subquery_scalar
SELECT count(*) FROM orders WHERE status = (SELECT min(status) FROM orders WHERE status <> '')

query correlated_scalar_count subquery_correlated
SELECT c.customer_key, (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id) FROM customers c

query correlated_scalar_sum subquery_correlated
SELECT p.product_id, (SELECT sum(o.qty) FROM orders o WHERE o.product_id = p.product_id) FROM products p

query correlated_scalar_where subquery_correlated
SELECT o.order_id, o.qty FROM orders o WHERE o.qty > (SELECT avg(o2.qty) FROM orders o2 WHERE o2.customer_id = o.customer_id) + 15

query correlated_scalar_max_per_group subquery_correlated
SELECT p.product_id, p.category, p.price FROM products p WHERE p.price = (SELECT max(p2.price) FROM products p2 WHERE p2.category = p.category)

query correlated_scalar_two_keys subquery_correlated
SELECT o.order_id, (SELECT count(*) FROM orders o2 WHERE o2.customer_id = o.customer_id AND o2.product_id = o.product_id) FROM orders o WHERE o.order_id < 100400

query correlated_scalar_non_equi subquery_correlated
SELECT p.product_id, (SELECT count(*) FROM products p2 WHERE p2.price > p.price) FROM products p

query correlated_in_select_and_where subquery_correlated
SELECT c.customer_key, (SELECT max(o.order_date) FROM orders o WHERE o.customer_id = c.customer_id) FROM customers c WHERE (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id) >= 10

query exists_correlated exists
SELECT c.customer_key FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.qty > 40)

query not_exists_correlated exists
SELECT p.product_id FROM products p WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.product_id = p.product_id)

query not_exists_customers exists
SELECT c.customer_key, c.customer_id FROM customers c WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.customer_id = c.customer_id)

query exists_uncorrelated_false exists
SELECT count(*) FROM products WHERE EXISTS (SELECT 1 FROM orders WHERE qty > 1000)

query exists_uncorrelated_true exists
SELECT count(*) FROM products WHERE EXISTS (SELECT 1 FROM orders WHERE qty > 10)

query exists_in_select exists
SELECT p.product_id, EXISTS (SELECT 1 FROM orders o WHERE o.product_id = p.product_id AND o.is_gift) FROM products p

query exists_non_equi exists
SELECT c.customer_key FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.order_date < c.signup_date)

query exists_or exists
SELECT count(*) FROM customers c WHERE c.tier = 3 OR EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.status = 'returned')

query in_subquery in_subquery
SELECT count(*) FROM orders WHERE customer_id IN (SELECT customer_id FROM customers WHERE city = 'Paris')

query in_subquery_with_nulls in_subquery
SELECT count(*) FROM orders WHERE customer_id IN (SELECT customer_id FROM customers)

query not_in_subquery_null_inside in_subquery
SELECT count(*) FROM orders WHERE customer_id NOT IN (SELECT customer_id FROM customers)

query not_in_subquery_no_nulls in_subquery
SELECT count(*) FROM orders WHERE customer_id NOT IN (SELECT customer_id FROM customers WHERE customer_id IS NOT NULL)

query not_in_subquery_rows in_subquery
SELECT order_id, customer_id FROM orders WHERE customer_id NOT IN (SELECT customer_id FROM customers WHERE customer_id IS NOT NULL) AND dt = '2024-03-02'

query in_subquery_select_list in_subquery
SELECT order_id, customer_id IN (SELECT customer_id FROM customers WHERE tier = 1) FROM orders WHERE order_id < 100300

query not_in_subquery_select_list in_subquery
SELECT order_id, product_id NOT IN (SELECT product_id FROM products WHERE category = 'toys'), customer_id NOT IN (SELECT customer_id FROM customers WHERE tier = 2) FROM orders WHERE order_id < 100300

query in_subquery_empty in_subquery
SELECT count(*), count_if(qty NOT IN (SELECT qty FROM orders WHERE false)) FROM orders WHERE qty IN (SELECT qty FROM orders WHERE false) OR true

query in_subquery_strings in_subquery
SELECT count(*) FROM customers WHERE city IN (SELECT note FROM orders) OR name IN (SELECT status FROM orders)

query in_subquery_aggregate in_subquery
SELECT product_id, name FROM products WHERE product_id IN (SELECT product_id FROM orders GROUP BY product_id HAVING sum(qty) > 350)

query in_subquery_correlated in_subquery
SELECT o.order_id FROM orders o WHERE o.qty IN (SELECT o2.qty FROM orders o2 WHERE o2.customer_id = o.customer_id AND o2.order_id <> o.order_id) AND o.dt = '2024-03-01'

query in_subquery_decimal in_subquery
SELECT count(*) FROM orders WHERE unit_price IN (SELECT price FROM products)

# ============================================================ WITH

query cte_basic cte
WITH big AS (SELECT * FROM orders WHERE qty > 30) SELECT count(*), sum(qty) FROM big

query cte_referenced_twice cte
WITH s AS (SELECT customer_id, sum(qty) AS q FROM orders GROUP BY customer_id) SELECT a.customer_id, a.q, b.q FROM s a JOIN s b ON a.customer_id = b.customer_id + 1 WHERE a.q > b.q

query cte_chain cte
WITH a AS (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id), b AS (SELECT n, count(*) AS k FROM a GROUP BY n) SELECT * FROM b

query cte_column_aliases cte
WITH t(id, n) AS (SELECT customer_id, count(*) FROM orders GROUP BY customer_id) SELECT max(n), min(id), count(id) FROM t

query cte_in_from_subquery cte
SELECT * FROM (WITH x AS (SELECT product_id, price FROM products WHERE category = 'food') SELECT * FROM x WHERE price > 100) t

query cte_shadows_table cte
WITH orders AS (SELECT * FROM products) SELECT count(*) FROM orders

query cte_scalar_join cte
WITH m AS (SELECT max(qty) AS mq FROM orders) SELECT o.order_id FROM orders o, m WHERE o.qty = m.mq

query cte_union cte
WITH a AS (SELECT customer_id FROM orders WHERE dt = '2024-03-01') SELECT customer_id FROM a UNION ALL SELECT customer_id FROM a WHERE customer_id < 50

query cte_unused cte
WITH x AS (SELECT 1 AS one) SELECT count(*) FROM products

query cte_in_subquery_predicate cte
WITH paris AS (SELECT customer_id FROM customers WHERE city = 'Paris') SELECT count(*) FROM orders WHERE customer_id IN (SELECT customer_id FROM paris)

query cte_three_references cte
WITH d AS (SELECT dt, count(*) AS n FROM orders GROUP BY dt) SELECT d1.dt, d1.n, (SELECT max(n) FROM d), (SELECT min(n) FROM d) FROM d d1

query cte_window cte
WITH r AS (SELECT customer_id, order_id, row_number() OVER (PARTITION BY customer_id ORDER BY order_id) AS rn FROM orders) SELECT customer_id, order_id FROM r WHERE rn = 1

query cte_left_join_self cte
WITH c AS (SELECT customer_id, count(*) AS k FROM customers GROUP BY customer_id) SELECT x.customer_id, y.k FROM c x LEFT JOIN c y ON x.customer_id = y.customer_id + 37

query cte_aggregate_of_join cte
WITH j AS (SELECT o.order_id, c.country, o.qty FROM orders o JOIN customers c ON o.customer_id = c.customer_id) SELECT country, sum(qty), count(DISTINCT order_id) FROM j GROUP BY country

# ============================================================ set operations

query union_all_basic setop
SELECT customer_id FROM orders WHERE dt = '2024-02-27' UNION ALL SELECT customer_id FROM customers WHERE tier = 3

query union_distinct_basic setop
SELECT customer_id FROM orders WHERE dt = '2024-02-27' UNION SELECT customer_id FROM customers WHERE tier = 3

query union_order_limit setop
SELECT product_id FROM products UNION SELECT product_id FROM orders ORDER BY 1 LIMIT 12

query union_order_desc_nulls setop
SELECT product_id FROM products WHERE product_id > 60 UNION SELECT product_id FROM orders WHERE product_id > 62 OR product_id IS NULL ORDER BY 1 DESC

query union_three setop
SELECT 'o' AS src, count(*) FROM orders UNION ALL SELECT 'c', count(*) FROM customers UNION ALL SELECT 'p', count(*) FROM products

query union_type_widening setop
SELECT qty FROM orders WHERE order_id < 100030 UNION ALL SELECT stock FROM products WHERE product_id < 5 UNION ALL SELECT priority FROM orders WHERE order_id < 100015

query union_decimal_double setop
SELECT unit_price FROM orders WHERE order_id < 100030 UNION ALL SELECT price FROM products WHERE product_id < 6

query union_strings_nulls setop
SELECT status FROM orders UNION SELECT category FROM products UNION SELECT city FROM customers

query union_all_aggregate_outer setop
SELECT k, count(*) FROM (SELECT status AS k FROM orders UNION ALL SELECT category FROM products) t GROUP BY k

query intersect_basic setop
SELECT customer_id FROM orders INTERSECT SELECT customer_id FROM customers

query intersect_two_columns setop
SELECT customer_id, product_id FROM orders WHERE dt = '2024-03-01' INTERSECT SELECT customer_id, product_id FROM orders WHERE dt = '2024-03-02'

query except_basic setop
SELECT product_id FROM orders EXCEPT SELECT product_id FROM products

query except_reverse setop
SELECT customer_id FROM customers EXCEPT SELECT customer_id FROM orders

query except_order_limit setop
SELECT customer_id FROM customers EXCEPT SELECT customer_id FROM orders WHERE dt <> '2024-02-27' ORDER BY 1 NULLS FIRST LIMIT 10

query setop_precedence setop
SELECT product_id FROM products WHERE product_id < 10 UNION SELECT product_id FROM products WHERE product_id > 60 INTERSECT SELECT product_id FROM products WHERE product_id > 62

query setop_parenthesized setop
(SELECT product_id FROM products WHERE product_id < 10 UNION SELECT product_id FROM products WHERE product_id > 60) INTERSECT SELECT product_id FROM products WHERE product_id > 62

query setop_except_then_union setop
SELECT product_id FROM products EXCEPT SELECT product_id FROM orders UNION SELECT 1000

query setop_branch_limits setop
(SELECT order_id FROM orders ORDER BY qty DESC NULLS LAST, order_id LIMIT 3) UNION ALL (SELECT order_id FROM orders ORDER BY qty NULLS LAST, order_id LIMIT 3)

query setop_in_subquery setop
SELECT count(*) FROM orders WHERE customer_id IN (SELECT customer_id FROM customers WHERE tier = 1 UNION SELECT customer_id FROM customers WHERE tier = 3)

query setop_in_cte setop
WITH ids AS (SELECT product_id FROM products INTERSECT SELECT product_id FROM orders WHERE qty > 40) SELECT count(*), min(product_id), max(product_id) FROM ids

query setop_union_all_order_multi setop
SELECT status, qty FROM orders WHERE order_id < 100020 UNION ALL SELECT category, CAST(stock AS integer) FROM products WHERE product_id < 8 ORDER BY 1 NULLS FIRST, 2 DESC

query setop_intersect_all setop
SELECT status FROM orders WHERE dt = '2024-03-01' INTERSECT ALL SELECT status FROM orders WHERE dt = '2024-03-02'

query setop_except_all setop
SELECT priority FROM orders WHERE dt = '2024-03-01' EXCEPT ALL SELECT priority FROM orders WHERE dt = '2024-03-02'

query setop_distinct_keyword setop
SELECT is_gift FROM orders UNION DISTINCT SELECT discontinued FROM products

# ============================================================ VALUES

query values_table values
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, NULL)) AS t(x, y)

query values_standalone values
VALUES (1, 'a'), (2, 'b')

query values_single_column values
SELECT x * 2 FROM (VALUES 1, 2, 3) AS t(x)
---- duckdb DuckDB needs parentheses around each VALUES row
SELECT x * 2 FROM (VALUES (1), (2), (3)) AS t(x)

query values_join values
SELECT t.label, count(*) FROM orders o JOIN (VALUES ('shipped', 'S'), ('pending', 'P'), ('', 'E')) AS t(status, label) ON o.status = t.status GROUP BY t.label

query values_left_join values
SELECT v.k, p.name FROM (VALUES 1, 2, 9, 100) AS v(k) LEFT JOIN products p ON p.product_id = v.k
---- duckdb DuckDB needs parentheses around each VALUES row
SELECT v.k, p.name FROM (VALUES (1), (2), (9), (100)) AS v(k) LEFT JOIN products p ON p.product_id = v.k

query values_aggregate values
SELECT sum(x), max(y), count(*) FROM (VALUES (1, 2.5), (2, 3.5), (NULL, NULL)) AS t(x, y)

query values_mixed_numeric values
SELECT x FROM (VALUES 1, 2.5, 3) AS t(x)
---- duckdb DuckDB needs parentheses around each VALUES row
SELECT x FROM (VALUES (1), (2.5), (3)) AS t(x)

query values_in_cte values
WITH v(d) AS (VALUES DATE '2024-02-29', DATE '2024-03-01') SELECT v.d, count(o.order_id) FROM v LEFT JOIN orders o ON o.order_date = v.d GROUP BY v.d
---- duckdb DuckDB needs parentheses around each VALUES row
WITH v(d) AS (VALUES (DATE '2024-02-29'), (DATE '2024-03-01')) SELECT v.d, count(o.order_id) FROM v LEFT JOIN orders o ON o.order_date = v.d GROUP BY v.d

query values_union values
SELECT x FROM (VALUES 1, 2) AS t(x) UNION ALL SELECT product_id FROM products WHERE product_id < 3
---- duckdb DuckDB needs parentheses around each VALUES row
SELECT x FROM (VALUES (1), (2)) AS t(x) UNION ALL SELECT product_id FROM products WHERE product_id < 3

query values_in_predicate values
SELECT count(*) FROM orders WHERE status IN (SELECT s FROM (VALUES 'shipped', 'returned') AS t(s))
---- duckdb DuckDB needs parentheses around each VALUES row
SELECT count(*) FROM orders WHERE status IN (SELECT s FROM (VALUES ('shipped'), ('returned')) AS t(s))

query values_order_limit values
SELECT * FROM (VALUES (3, 'c'), (1, 'a'), (2, 'b')) AS t(n, s) ORDER BY n DESC LIMIT 2

query values_booleans_nulls values
SELECT a, b, a AND b, a OR b FROM (VALUES (true, NULL), (false, NULL), (NULL, NULL), (true, false)) AS t(a, b)

# ============================================================ GROUPING SETS / ROLLUP / CUBE

query gs_grouping_sets grouping_sets
SELECT status, is_gift, count(*) FROM orders GROUP BY GROUPING SETS ((status), (is_gift), ())

query gs_rollup grouping_sets
SELECT dt, status, count(*), sum(qty) FROM orders GROUP BY ROLLUP (dt, status)

query gs_cube grouping_sets
SELECT is_gift, priority, count(*) FROM orders GROUP BY CUBE (is_gift, priority)

query gs_grouping_fn grouping_sets
SELECT status, is_gift, grouping(status, is_gift), count(*) FROM orders GROUP BY CUBE (status, is_gift)

query gs_grouping_single grouping_sets
SELECT country, grouping(country), count(*) FROM customers GROUP BY ROLLUP (country)

query gs_having grouping_sets
SELECT country, city, count(*) FROM customers GROUP BY ROLLUP (country, city) HAVING count(*) > 10

query gs_order_by_grouping grouping_sets
SELECT tier, is_active, grouping(tier, is_active) AS g, count(*) FROM customers GROUP BY CUBE (tier, is_active) ORDER BY g, tier NULLS FIRST, is_active NULLS FIRST

query gs_mixed_plain_and_rollup grouping_sets
SELECT tier, country, count(*) FROM customers GROUP BY tier, ROLLUP (country)

query gs_distinct_aggregate grouping_sets
SELECT dt, count(DISTINCT customer_id), count(*) FROM orders GROUP BY ROLLUP (dt)

query gs_empty_set_only grouping_sets
SELECT count(*), sum(qty) FROM orders GROUP BY GROUPING SETS (())

query gs_empty_input_rollup grouping_sets
SELECT status, count(*), sum(qty) FROM orders WHERE false GROUP BY ROLLUP (status)

query gs_empty_input_cube grouping_sets
SELECT status, is_gift, count(*) FROM orders WHERE qty > 1000 GROUP BY CUBE (status, is_gift)

query gs_empty_input_sets_only grouping_sets
SELECT count(*), max(qty) FROM orders WHERE false GROUP BY GROUPING SETS (())

query gs_empty_input_no_grand_total grouping_sets
SELECT status, count(*) FROM orders WHERE false GROUP BY GROUPING SETS ((status), (is_gift))

query group_by_empty_parens_empty_input group_by
SELECT count(*), sum(qty) FROM orders WHERE false GROUP BY ()

query gs_expression_keys grouping_sets
SELECT year(signup_date) AS y, tier, count(*) FROM customers GROUP BY GROUPING SETS ((year(signup_date)), (tier), (year(signup_date), tier))

query gs_rollup_join grouping_sets
SELECT c.country, p.category, sum(o.qty) FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id GROUP BY ROLLUP (c.country, p.category)

query gs_cube_three grouping_sets
SELECT is_gift, priority, status, count(*) FROM orders WHERE dt = '2024-03-01' GROUP BY CUBE (is_gift, priority, status)

query gs_sets_with_decimals grouping_sets
SELECT category, discontinued, sum(price), min(weight) FROM products GROUP BY GROUPING SETS ((category, discontinued), (category), ())

# ============================================================ FILTER (WHERE ...)

query aggfilter_counts agg_filter
SELECT count(*) FILTER (WHERE is_gift), count(*) FILTER (WHERE qty > 10), sum(qty) FILTER (WHERE status = 'shipped') FROM orders

query aggfilter_grouped agg_filter
SELECT status, count(*) FILTER (WHERE is_gift), avg(qty) FILTER (WHERE qty > 0), max(unit_price) FILTER (WHERE priority = 1) FROM orders GROUP BY status

query aggfilter_distinct agg_filter
SELECT count(DISTINCT customer_id) FILTER (WHERE qty > 5), count(DISTINCT customer_id) FROM orders

query aggfilter_all_false agg_filter
SELECT count(*) FILTER (WHERE false), sum(qty) FILTER (WHERE false), count(qty) FILTER (WHERE qty IS NULL) FROM orders

query aggfilter_double agg_filter
SELECT dt, sum(discount) FILTER (WHERE discount > 0), min(discount) FILTER (WHERE discount > 0) FROM orders GROUP BY dt

query aggfilter_rollup agg_filter
SELECT tier, count(*) FILTER (WHERE is_active), sum(credit_limit) FILTER (WHERE credit_limit > 0) FROM customers GROUP BY ROLLUP (tier)

query aggfilter_having agg_filter
SELECT customer_id FROM orders GROUP BY customer_id HAVING count(*) FILTER (WHERE status = 'returned') >= 3

query aggfilter_join agg_filter
SELECT c.country, count(*) FILTER (WHERE p.category = 'toys'), count(*) FILTER (WHERE p.category IS NULL) FROM orders o JOIN customers c ON o.customer_id = c.customer_id JOIN products p ON o.product_id = p.product_id GROUP BY c.country

query aggfilter_string_minmax agg_filter
SELECT min(note) FILTER (WHERE note <> ''), max(name) FILTER (WHERE tier = 2) FROM orders, (SELECT name, tier FROM customers WHERE customer_key = 1001) c

# ============================================================ window functions: ranking

query win_row_number_partition window_rank
SELECT order_id, customer_id, row_number() OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders

query win_row_number_global window_rank
SELECT order_id, row_number() OVER (ORDER BY order_id DESC) FROM orders WHERE dt = '2024-02-28'

query win_rank_ties window_rank
SELECT order_id, qty, rank() OVER (ORDER BY qty DESC) FROM orders WHERE dt = '2024-03-01'

query win_dense_rank window_rank
SELECT order_id, status, qty, dense_rank() OVER (PARTITION BY status ORDER BY qty) FROM orders

query win_rank_nulls window_rank
SELECT product_id, price, rank() OVER (ORDER BY price), rank() OVER (ORDER BY price DESC NULLS FIRST) FROM products

query win_percent_rank window_rank
SELECT order_id, percent_rank() OVER (PARTITION BY dt ORDER BY qty) FROM orders

query win_cume_dist window_rank
SELECT order_id, cume_dist() OVER (PARTITION BY dt ORDER BY unit_price) FROM orders

query win_ntile window_rank
SELECT product_id, ntile(4) OVER (ORDER BY product_id), ntile(7) OVER (ORDER BY product_id) FROM products

query win_ntile_partition window_rank
SELECT order_id, ntile(3) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders

query win_ranks_together window_rank
SELECT customer_key, score, row_number() OVER w, rank() OVER w, dense_rank() OVER w FROM customers WINDOW w AS (PARTITION BY tier ORDER BY score DESC, customer_key)

query win_top_n_per_group window_rank
SELECT * FROM (SELECT customer_id, order_id, unit_price, row_number() OVER (PARTITION BY customer_id ORDER BY unit_price DESC NULLS LAST, order_id) AS rn FROM orders) t WHERE rn <= 2

query win_rank_over_aggregate window_rank
SELECT status, sum(qty), rank() OVER (ORDER BY sum(qty) DESC) FROM orders GROUP BY status

query win_rank_partition_expression window_rank
SELECT order_id, rank() OVER (PARTITION BY qty % 3 ORDER BY created_at) FROM orders WHERE dt = '2024-03-04'

query win_row_number_order_limit window_rank
SELECT order_id, row_number() OVER (ORDER BY created_at NULLS FIRST, order_id) AS rn FROM orders ORDER BY rn LIMIT 20

# ============================================================ window functions: values

query win_lag_lead window_value
SELECT order_id, lag(qty) OVER (PARTITION BY customer_id ORDER BY order_id), lead(qty, 2) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders

query win_lag_default window_value
SELECT order_id, lag(qty, 1, 0) OVER (PARTITION BY customer_id ORDER BY order_id), lead(status, 1, 'none') OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders

query win_lag_global window_value
SELECT product_id, price - lag(price) OVER (ORDER BY product_id) FROM products

query win_first_last_value window_value
SELECT order_id, first_value(qty) OVER (PARTITION BY customer_id ORDER BY order_id), last_value(qty) OVER (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM orders

query win_last_value_default_frame window_value
SELECT order_id, last_value(order_id) OVER (PARTITION BY dt ORDER BY order_id) FROM orders

query win_last_value_peers window_value
SELECT order_id, qty, last_value(qty) OVER (PARTITION BY dt ORDER BY qty) FROM orders

query win_nth_value window_value
SELECT order_id, nth_value(qty, 2) OVER (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM orders

query win_nth_value_growing window_value
SELECT product_id, nth_value(name, 3) OVER (ORDER BY product_id) FROM products

query win_first_value_strings window_value
SELECT customer_key, first_value(name) OVER (PARTITION BY city ORDER BY customer_key), last_value(name) OVER (PARTITION BY city ORDER BY customer_key ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM customers

query win_lag_ignore_nulls window_value
SELECT order_id, lag(qty) IGNORE NULLS OVER (ORDER BY order_id) FROM orders WHERE dt = '2024-02-27'
---- duckdb DuckDB writes IGNORE NULLS inside the call
SELECT order_id, lag(qty IGNORE NULLS) OVER (ORDER BY order_id) FROM orders WHERE dt = '2024-02-27'

query win_lead_dates window_value
SELECT order_id, date_diff('day', order_date, lead(order_date) OVER (PARTITION BY customer_id ORDER BY order_id)) FROM orders

# ============================================================ window functions: aggregates and frames

query win_sum_running window_agg
SELECT order_id, sum(qty) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders

query win_sum_partition window_agg
SELECT order_id, sum(qty) OVER (PARTITION BY status), count(*) OVER (PARTITION BY status) FROM orders

query win_sum_whole window_agg
SELECT product_id, sum(price) OVER (), price * 100 / sum(price) OVER () FROM products
---- duckdb Trino divides decimals in decimal (scale 2 here, half up); DuckDB in double
SELECT product_id, sum(price) OVER (), round(CAST(price * 100 AS DOUBLE) / CAST(sum(price) OVER () AS DOUBLE), 2) FROM products

query win_avg_rows_frame window_agg
SELECT order_id, avg(qty) OVER (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM orders

query win_rows_centered window_agg
SELECT product_id, sum(stock) OVER (ORDER BY product_id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM products

query win_rows_following window_agg
SELECT order_id, sum(qty) OVER (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM orders

query win_range_peers window_agg
SELECT order_id, qty, sum(qty) OVER (ORDER BY qty RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM orders WHERE dt = '2024-03-03'

query win_range_offset window_agg
SELECT product_id, weight, count(*) OVER (ORDER BY weight RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM products

query win_min_max window_agg
SELECT order_id, min(unit_price) OVER (PARTITION BY dt), max(unit_price) OVER (PARTITION BY dt) FROM orders

query win_count_column window_agg
SELECT order_id, count(note) OVER (PARTITION BY customer_id), count(*) OVER (PARTITION BY customer_id ORDER BY order_id) FROM orders

query win_double_running window_agg
SELECT order_id, sum(discount) OVER (PARTITION BY dt ORDER BY order_id) FROM orders

query win_decimal_running window_agg
SELECT order_id, sum(unit_price) OVER (PARTITION BY customer_id ORDER BY order_id ROWS UNBOUNDED PRECEDING) FROM orders

query win_multiple_specs window_agg
SELECT order_id, sum(qty) OVER (PARTITION BY dt), sum(qty) OVER (PARTITION BY status), row_number() OVER (PARTITION BY dt, status ORDER BY order_id) FROM orders

query win_bool_agg window_agg
SELECT customer_key, bool_or(is_active) OVER (PARTITION BY city), count_if(is_active) OVER (PARTITION BY city) FROM customers

query win_over_join window_agg
SELECT o.order_id, c.customer_key, sum(o.qty) OVER (PARTITION BY c.country ORDER BY o.order_id, c.customer_key) FROM orders o JOIN customers c ON o.customer_id = c.customer_id

query win_filter_on_window window_agg
SELECT * FROM (SELECT order_id, qty, avg(qty) OVER (PARTITION BY customer_id) AS a FROM orders) t WHERE qty > a + 20

query win_window_clause window_agg
SELECT order_id, sum(qty) OVER w, max(qty) OVER w FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY order_id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)

query win_stddev_window window_agg
SELECT product_id, stddev_pop(weight) OVER (PARTITION BY category) FROM products

query win_range_current_row window_agg
SELECT order_id, count(*) OVER (PARTITION BY dt ORDER BY qty RANGE CURRENT ROW) FROM orders

# ============================================================ correlated subqueries: grouped queries, select lists, two levels

query corr_grouped_having_count subquery_corr_grouped
SELECT o.customer_id, count(*) FROM orders o GROUP BY o.customer_id HAVING count(*) > (SELECT count(*) FROM customers c WHERE c.customer_id = o.customer_id) * 12

query corr_grouped_select_scalar subquery_corr_grouped
SELECT o.product_id, sum(o.qty), (SELECT max(p.price) FROM products p WHERE p.product_id = o.product_id) FROM orders o GROUP BY o.product_id

query corr_grouped_select_count_empty subquery_corr_grouped
SELECT o.customer_id, (SELECT count(*) FROM events e WHERE e.customer_id = o.customer_id) FROM orders o WHERE o.dt = '2024-03-02' GROUP BY o.customer_id

query corr_grouped_having_exists subquery_corr_grouped
SELECT o.customer_id, count(*) FROM orders o GROUP BY o.customer_id HAVING EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id AND c.tier = 1)

query corr_grouped_having_not_exists subquery_corr_grouped
SELECT o.customer_id FROM orders o GROUP BY o.customer_id HAVING NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = o.customer_id)

query corr_grouped_having_in subquery_corr_grouped
SELECT o.product_id, count(*) FROM orders o GROUP BY o.product_id HAVING o.product_id IN (SELECT p.product_id FROM products p WHERE p.category = 'toys')

query corr_grouped_not_in_value subquery_corr_grouped
SELECT o.customer_id, o.customer_id NOT IN (SELECT c.customer_id FROM customers c WHERE c.city = 'Paris') FROM orders o GROUP BY o.customer_id

query corr_grouped_in_value_correlated subquery_corr_grouped
SELECT o.dt, o.customer_id, o.customer_id IN (SELECT e.customer_id FROM events e WHERE e.note = min(o.note)) FROM orders o GROUP BY o.dt, o.customer_id

query corr_grouped_non_equi subquery_corr_grouped
SELECT o.dt, (SELECT count(*) FROM products p WHERE p.product_id > o.dt_num) FROM (SELECT dt, length(dt) + customer_id AS dt_num FROM orders) o GROUP BY o.dt, o.dt_num

query corr_grouped_two_keys subquery_corr_grouped
SELECT o.customer_id, o.product_id, count(*) FROM orders o WHERE o.dt = '2024-03-01' GROUP BY o.customer_id, o.product_id HAVING EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer_id = o.customer_id AND o2.product_id = o.product_id AND o2.dt <> '2024-03-01')

query corr_grouped_outer_agg_having subquery_corr_grouped
SELECT o.customer_id, sum(o.qty) FROM orders o GROUP BY o.customer_id HAVING (SELECT count(*) FROM products p WHERE p.price < sum(o.qty)) > 30

query corr_grouped_outer_agg_select subquery_corr_grouped
SELECT o.product_id, max(o.unit_price), (SELECT count(*) FROM products p WHERE p.price > max(o.unit_price)) FROM orders o GROUP BY o.product_id

query corr_grouped_outer_agg_and_key subquery_corr_grouped
SELECT p.category, (SELECT count(*) FROM orders o WHERE o.product_id <> min(p.product_id) AND o.status = p.category) FROM products p GROUP BY p.category

query corr_grouped_order_by subquery_corr_grouped
SELECT p.category, count(*) FROM products p GROUP BY p.category ORDER BY (SELECT count(*) FROM products p2 WHERE p2.category = p.category AND p2.discontinued) DESC, p.category NULLS LAST

query corr_grouped_rollup subquery_corr_grouped
SELECT p.category, count(*), (SELECT count(*) FROM products p2 WHERE p2.category = p.category) FROM products p GROUP BY ROLLUP (p.category)

query corr_grouped_window subquery_corr_grouped
SELECT p.category, rank() OVER (ORDER BY (SELECT sum(o.qty) FROM orders o JOIN products p2 ON o.product_id = p2.product_id WHERE p2.category = p.category) DESC NULLS LAST) FROM products p GROUP BY p.category

query corr_grouped_multiple_rows subquery_corr_grouped
SELECT o.customer_id FROM orders o GROUP BY o.customer_id HAVING (SELECT c.customer_key FROM customers c WHERE c.customer_id = o.customer_id) > 0
---- error multiple rows

query corr_grouped_not_grouped_column subquery_corr_grouped
SELECT o.customer_id FROM orders o GROUP BY o.customer_id HAVING EXISTS (SELECT 1 FROM products p WHERE p.product_id = o.product_id)
---- error must be an aggregate expression or appear in GROUP BY

query corr_select_outer_expression subquery_corr_select
SELECT o.order_id, (SELECT o.qty * p.price FROM products p WHERE p.product_id = o.product_id) FROM orders o WHERE o.dt = '2024-03-01'

query corr_select_outer_coalesce subquery_corr_select
SELECT c.customer_key, (SELECT coalesce(p.name, c.name) FROM products p WHERE p.product_id = c.customer_id) FROM customers c

query corr_select_outer_aggregate subquery_corr_select
SELECT p.product_id, (SELECT max(o.qty) + p.stock FROM orders o WHERE o.product_id = p.product_id) FROM products p

query corr_select_outer_no_from subquery_corr_select
SELECT p.product_id, (SELECT p.price * 2), (SELECT p.name || '!') FROM products p

query corr_select_outer_uncorrelated_where subquery_corr_select
SELECT c.customer_key, (SELECT c.name || p.name FROM products p WHERE p.product_id = 1) FROM customers c

query corr_select_outer_limit subquery_corr_select
SELECT c.customer_key, (SELECT o.order_id + c.customer_key FROM orders o WHERE o.customer_id = c.customer_id ORDER BY o.order_id LIMIT 1) FROM customers c

query corr_select_outer_non_equi subquery_corr_select
SELECT p.product_id, (SELECT p.price - p2.price FROM products p2 WHERE p2.product_id = p.product_id + 1 AND p2.price > p.price) FROM products p

query corr_select_outer_exists_items subquery_corr_select
SELECT c.customer_key, EXISTS (SELECT c.name, o.qty FROM orders o WHERE o.customer_id = c.customer_id AND o.qty > 45) FROM customers c

query two_level_pullup_exists subquery_two_levels
SELECT c.customer_key FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND EXISTS (SELECT 1 FROM events e WHERE e.customer_id = c.customer_id AND e.note = o.note))

query two_level_pullup_count subquery_two_levels
SELECT c.customer_key, (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id AND EXISTS (SELECT 1 FROM events e WHERE e.customer_id = c.customer_id AND e.note = o.note)) FROM customers c

query two_level_pullup_in subquery_two_levels
SELECT c.customer_key, (SELECT count(*) FROM orders o WHERE o.dt = '2024-03-03' AND o.note IN (SELECT e.note FROM events e WHERE e.customer_id = c.customer_id)) FROM customers c

query two_level_pullup_in_two_keys subquery_two_levels
SELECT p.product_id, (SELECT count(*) FROM orders o WHERE o.product_id = p.product_id AND o.customer_id IN (SELECT e.customer_id FROM events e WHERE e.note = o.note AND e.code = p.product_id)) FROM products p

query two_level_hoist_not_exists subquery_two_levels
SELECT p.product_id FROM products p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.product_id = p.product_id AND o.qty > 45 AND NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.product_id = p.product_id AND o2.is_gift))

query two_level_hoist_scalar subquery_two_levels
SELECT p.product_id, (SELECT max(o.qty) - (SELECT min(o2.qty) FROM orders o2 WHERE o2.product_id = p.product_id) FROM orders o WHERE o.product_id = p.product_id AND o.dt = '2024-03-01') FROM products p

query two_level_hoist_in_select subquery_two_levels
SELECT c.customer_key, (SELECT (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id)) FROM customers c

query two_level_hoist_non_equi subquery_two_levels
SELECT p.product_id, (SELECT count(*) FROM orders o WHERE o.product_id = p.product_id AND EXISTS (SELECT 1 FROM products p2 WHERE p2.category = p.category AND p2.price > p.price)) FROM products p

query two_level_hoist_in_value subquery_two_levels
SELECT p.product_id, (SELECT count(*) FROM orders o WHERE o.product_id = p.product_id AND p.product_id NOT IN (SELECT o2.product_id FROM orders o2 WHERE o2.customer_id = p.product_id)) FROM products p

query two_level_not_exists_both_levels subquery_two_levels
SELECT c.customer_key FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND NOT EXISTS (SELECT 1 FROM events e WHERE e.customer_id = c.customer_id AND e.note = o.note))

query corr_exists_global_agg subquery_corr_agg
SELECT p.product_id, EXISTS (SELECT max(o.qty) FROM orders o WHERE o.product_id = p.product_id) FROM products p

query corr_in_count_empty subquery_corr_agg
SELECT p.product_id, 0 IN (SELECT count(*) FROM orders o WHERE o.product_id = p.product_id) FROM products p

query corr_not_in_global_agg_where subquery_corr_agg
SELECT p.product_id FROM products p WHERE p.stock NOT IN (SELECT sum(o.qty) FROM orders o WHERE o.product_id = p.product_id)

query corr_count_expression subquery_corr_agg
SELECT p.product_id, (SELECT count(*) * 2 + 1 FROM orders o WHERE o.product_id = p.product_id) FROM products p

query corr_count_difference subquery_corr_agg
SELECT c.customer_key, (SELECT count(o.qty) - count(*) FROM orders o WHERE o.customer_id = c.customer_id) FROM customers c

query corr_count_plus_outer subquery_corr_agg
SELECT p.product_id, (SELECT count(*) + p.stock FROM orders o WHERE o.product_id = p.product_id) FROM products p

query two_level_item_reads_outermost subquery_two_levels
SELECT c.customer_key, (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id AND (SELECT o.qty - c.tier) > 0) FROM customers c

query two_level_item_scalar_both subquery_two_levels
SELECT o.order_id, (SELECT (SELECT p.price * o.qty FROM products p WHERE p.product_id = o2.product_id) FROM orders o2 WHERE o2.order_id = o.order_id) FROM orders o WHERE o.dt = '2024-03-04'

query corr_having_in_subquery_exists subquery_corr_having
SELECT p.product_id FROM products p WHERE EXISTS (SELECT o.product_id FROM orders o GROUP BY o.product_id HAVING o.product_id = p.product_id AND sum(o.qty) > 300)

query corr_having_in_subquery_scalar subquery_corr_having
SELECT c.customer_key, (SELECT count(*) FROM orders o WHERE o.customer_id = c.customer_id GROUP BY o.customer_id HAVING max(o.qty) > c.tier * 10) FROM customers c

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

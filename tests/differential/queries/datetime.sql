# Date/time functions and intervals (issue 8), sqe against DuckDB
# (format: README.md beside ../run.mjs). DuckDB spells MySQL's %i/%s as
# %M/%S, and date + interval gives a TIMESTAMP there (cast back to DATE).
# Where DuckDB has no equivalent, the query carries Trino's answer.

query dt_date_format_basic datetime
SELECT order_id, date_format(created_at, '%Y-%m-%d %H:%i:%s') FROM orders
---- duckdb MySQL %i/%s are strftime %M/%S
SELECT order_id, strftime(created_at, '%Y-%m-%d %H:%M:%S') FROM orders

query dt_date_format_names datetime
SELECT order_id, date_format(created_at, '%a %W %b %M %d %e %j %p %f') FROM orders
---- duckdb strftime spells full names %A/%B and day of month unpadded %-d
SELECT order_id, strftime(created_at, '%a %A %b %B %d %-d %j %p %f') FROM orders

query dt_date_format_date datetime
SELECT customer_key, date_format(signup_date, '%m/%d/%Y %T') FROM customers
---- duckdb
SELECT customer_key, strftime(signup_date::TIMESTAMP, '%m/%d/%Y %H:%M:%S') FROM customers

query dt_date_parse_roundtrip datetime
SELECT order_id, date_parse(date_format(created_at, '%Y/%m/%d %H:%i:%s.%f'), '%Y/%m/%d %H:%i:%s.%f') FROM orders
---- duckdb
SELECT order_id, strptime(strftime(created_at, '%Y/%m/%d %H:%M:%S.%f'), '%Y/%m/%d %H:%M:%S.%f') FROM orders

query dt_date_parse_group datetime
SELECT date_parse(dt, '%Y-%m-%d') AS d, count(*) FROM orders WHERE dt <> '__HIVE_DEFAULT_PARTITION__' GROUP BY 1
---- duckdb
SELECT strptime(dt, '%Y-%m-%d') AS d, count(*) FROM orders WHERE dt <> '__HIVE_DEFAULT_PARTITION__' GROUP BY 1

query dt_format_datetime datetime
SELECT order_id, format_datetime(created_at, 'yyyy-MM-dd HH:mm:ss.SSS') FROM orders
---- duckdb
SELECT order_id, strftime(created_at, '%Y-%m-%d %H:%M:%S.%g') FROM orders

query dt_date_plus_interval datetime
SELECT order_id, order_date + INTERVAL '3' DAY, order_date - INTERVAL '1' MONTH, order_date + INTERVAL '1-1' YEAR TO MONTH FROM orders
---- duckdb date + interval is a TIMESTAMP in DuckDB
SELECT order_id, CAST(order_date + INTERVAL 3 DAY AS DATE), CAST(order_date - INTERVAL 1 MONTH AS DATE), CAST(order_date + INTERVAL 13 MONTH AS DATE) FROM orders

query dt_timestamp_plus_interval datetime
SELECT order_id, created_at + INTERVAL '90' MINUTE, created_at - INTERVAL '1 02:03:04.5' DAY TO SECOND, created_at + INTERVAL '1' MONTH FROM orders
---- duckdb
SELECT order_id, created_at + INTERVAL 90 MINUTE, created_at - (INTERVAL 1 DAY + INTERVAL 7384500 MILLISECOND), created_at + INTERVAL 1 MONTH FROM orders

query dt_interval_filter datetime
SELECT count(*) FROM orders WHERE created_at >= TIMESTAMP '2024-02-28 00:00:00' + INTERVAL '12' HOUR AND order_date < DATE '2024-03-01' + INTERVAL '2' DAY
---- duckdb
SELECT count(*) FROM orders WHERE created_at >= TIMESTAMP '2024-02-28 00:00:00' + INTERVAL 12 HOUR AND order_date < DATE '2024-03-01' + INTERVAL 2 DAY

query dt_timestamp_diff_millis datetime
SELECT order_id, to_milliseconds(created_at - TIMESTAMP '2024-01-01 00:00:00') FROM orders
---- duckdb
SELECT order_id, epoch_ms(created_at) - epoch_ms(TIMESTAMP '2024-01-01 00:00:00') FROM orders

query dt_interval_fields datetime
SELECT order_id, day(created_at - TIMESTAMP '2024-01-01 00:00:00'), hour(created_at - TIMESTAMP '2024-01-01 00:00:00') FROM orders
---- duckdb
SELECT order_id, (epoch_ms(created_at) - epoch_ms(TIMESTAMP '2024-01-01 00:00:00')) // 86400000, (epoch_ms(created_at) - epoch_ms(TIMESTAMP '2024-01-01 00:00:00')) % 86400000 // 3600000 FROM orders

query dt_iso8601 datetime
SELECT order_id, to_iso8601(order_date), from_iso8601_date(CAST(order_date AS varchar)), CAST(from_iso8601_timestamp(replace(CAST(created_at AS varchar), ' ', 'T')) AS timestamp) FROM orders
---- duckdb
SELECT order_id, strftime(order_date, '%Y-%m-%d'), order_date, created_at FROM orders

query dt_week_fields datetime
SELECT customer_key, week(signup_date), year_of_week(signup_date), date_trunc('week', last_login) FROM customers
---- duckdb
SELECT customer_key, weekofyear(signup_date), isoyear(signup_date), date_trunc('week', last_login) FROM customers

query dt_unixtime_roundtrip datetime
SELECT order_id, CAST(from_unixtime(to_unixtime(created_at)) AS timestamp) FROM orders
---- duckdb
SELECT order_id, created_at FROM orders

query dt_now_stable datetime
SELECT count(DISTINCT now()), min(current_timestamp) = max(localtimestamp) FROM orders
---- expect Trino evaluates now()/current_timestamp/localtimestamp once per query
1	true

query dt_trino_date_parse_doc datetime
SELECT date_parse('2022/10/20/05', '%Y/%m/%d/%H'), date_format(TIMESTAMP '2022-10-20 05:10:00', '%m-%d-%Y %H')
---- expect Trino documentation, MySQL date functions
2022-10-20 05:00:00.000	10-20-2022 05

query dt_trino_interval_doc datetime
SELECT CAST(INTERVAL '2' DAY + INTERVAL '3' HOUR AS varchar), CAST(INTERVAL '3' YEAR - INTERVAL '5' MONTH AS varchar), TIMESTAMP '2012-10-31 01:00' + INTERVAL '1' MONTH
---- expect Trino documentation, date and time operators (interval text forms differ from DuckDB's)
2 03:00:00.000	2-7	2012-11-30 01:00:00.000

query dt_trino_durations datetime
SELECT human_readable_seconds(56363463), CAST(parse_duration('3.81 d') AS varchar)
---- expect Trino documentation, duration functions (no DuckDB equivalent)
93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds	3 19:26:24.000

query dt_trino_date_parse_error datetime
SELECT date_parse('2022/02/30', '%Y/%m/%d')
---- error Value 30 for dayOfMonth must be in the range [1,28]

# The session time zone (SET TIME ZONE, issue 8): a plain timestamp becomes
# an instant as a wall time in the session zone (Trino's coercion to
# timestamp with time zone); DuckDB's timezone(zone, timestamp) is the same
# reading, without session state.
query dt_session_zone_cast datetime
SET TIME ZONE 'America/New_York'; SELECT order_id, to_unixtime(CAST(created_at AS timestamp with time zone)) FROM orders
---- duckdb
SELECT order_id, epoch(timezone('America/New_York', created_at)) FROM orders

query dt_session_zone_at_timezone datetime
SET TIME ZONE 'America/Los_Angeles'; SELECT order_id, CAST(at_timezone(created_at, 'UTC') AS timestamp), CAST(created_at AT TIME ZONE 'Asia/Tokyo' AS timestamp) FROM orders
---- duckdb
SELECT order_id, timezone('UTC', timezone('America/Los_Angeles', created_at)), timezone('Asia/Tokyo', timezone('America/Los_Angeles', created_at)) FROM orders

query dt_session_zone_compare datetime rowsort
SET TIME ZONE 'Pacific/Auckland'; SELECT order_id FROM orders WHERE created_at < TIMESTAMP '2024-02-20 00:00:00 UTC'
---- duckdb
SELECT order_id FROM orders WHERE timezone('Pacific/Auckland', created_at) < TIMESTAMPTZ '2024-02-20 00:00:00+00'

query dt_session_zone_unixtime datetime
SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE; SELECT order_id, to_unixtime(created_at), CAST(from_unixtime(to_unixtime(created_at)) AT TIME ZONE 'UTC' AS timestamp) FROM orders
---- duckdb
SELECT order_id, epoch(created_at - INTERVAL '5 hours 30 minutes'), created_at - INTERVAL '5 hours 30 minutes' FROM orders

query dt_session_zone_current datetime
SET TIME ZONE 'Asia/Tokyo'; SELECT current_timezone(), CAST(current_timestamp AS timestamp) = localtimestamp, CAST(current_timestamp AS date) = current_date, typeof(now())
---- expect current_timestamp is in the session zone; localtimestamp/current_date are its wall time and date there
Asia/Tokyo	true	true	timestamp(3) with time zone

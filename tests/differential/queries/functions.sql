# Trino functions of issue 8 (strings, regular expressions, JSON, hashing,
# URL, conditional and math) against DuckDB where the semantics match, with
# Trino's answers written out where DuckDB differs (format: ../README.md).
# Names start with fn_.

query fn_concat_ws_skips_nulls trino_fn rowsort
SELECT order_id, concat_ws('|', status, note, dt) FROM orders WHERE order_id < 60

query fn_strpos_levenshtein trino_fn rowsort
SELECT product_id, strpos(name, 'a'), levenshtein_distance(coalesce(name, ''), coalesce(category, '')) FROM products
---- duckdb DuckDB spells it levenshtein
SELECT product_id, strpos(name, 'a'), levenshtein(coalesce(name, ''), coalesce(category, '')) FROM products

query fn_translate_reverse_length trino_fn rowsort
SELECT customer_key, translate(name, 'aeiou', 'AEIOU'), reverse(city), length(name) FROM customers

query fn_chr_codepoint trino_fn
SELECT chr(65), chr(233), codepoint('é'), codepoint('A')
---- duckdb DuckDB spells codepoint unicode
SELECT chr(65), chr(233), unicode('é'), unicode('A')

query fn_regexp_like_count trino_fn rowsort
SELECT customer_key, regexp_like(name, '^[A-M]'), regexp_like(city, 'o.*n') FROM customers
---- duckdb
SELECT customer_key, regexp_matches(name, '^[A-M]'), regexp_matches(city, 'o.*n') FROM customers

query fn_regexp_replace_groups trino_fn rowsort
SELECT product_id, regexp_replace(name, '([a-z]+)', '<$1>') FROM products
---- duckdb Trino's $1 is DuckDB's \1, and Trino replaces every match (DuckDB: 'g')
SELECT product_id, regexp_replace(name, '([a-z]+)', '<\1>', 'g') FROM products

query fn_regexp_extract_group trino_fn rowsort
SELECT product_id, regexp_extract(name, '([A-Za-z]+)', 1) FROM products WHERE regexp_like(name, '[A-Za-z]')
---- duckdb both return the first match's group when there is a match
SELECT product_id, regexp_extract(name, '([A-Za-z]+)', 1) FROM products WHERE regexp_matches(name, '[A-Za-z]')

query fn_regexp_extract_no_match trino_fn
SELECT regexp_extract('abc', '\d+'), regexp_extract('abc', '(x)?b', 1)
---- expect Trino: no match (or a group that did not take part) is NULL; DuckDB gives ''
NULL	NULL

query fn_regexp_count_position trino_fn
SELECT regexp_count('1a 2b 14m', '\s*[a-z]+\s*'), regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b', 12, 2)
---- expect Trino documentation examples (DuckDB has no regexp_count/regexp_position)
3	31

query fn_json_extract_scalar trino_fn
SELECT json_extract_scalar('{"a": {"b": [1, "x", true]}}', '$.a.b[1]'), json_extract_scalar('{"a": 1.5}', '$.a'), json_extract_scalar('{"a": {"b": 1}}', '$.a'), json_extract_scalar('{"a": null}', '$.a')
---- duckdb json_extract_string of a scalar is the same text; of an object Trino gives NULL
SELECT json_extract_string('{"a": {"b": [1, "x", true]}}', '$.a.b[1]'), json_extract_string('{"a": 1.5}', '$.a'), NULL, json_extract_string('{"a": null}', '$.a')

query fn_json_array_length trino_fn
SELECT json_array_length('[1, 2, [3, 4]]'), json_array_length('[]')

query fn_json_extract_object trino_fn
SELECT json_extract('{"a": {"b" : [1, 2]}}', '$.a'), json_size('{"x": {"a": 1, "b": 2}}', '$.x')
---- expect Trino: compact JSON text; json_size counts members
{"b":[1,2]}	2

query fn_md5_sha256_hex trino_fn rowsort
SELECT customer_key, lower(to_hex(md5(to_utf8(name)))), lower(to_hex(sha256(to_utf8(city)))) FROM customers WHERE name IS NOT NULL AND city IS NOT NULL
---- duckdb DuckDB hashes VARCHAR straight to lower-case hex
SELECT customer_key, md5(name), sha256(city) FROM customers WHERE name IS NOT NULL AND city IS NOT NULL

query fn_base64_roundtrip trino_fn rowsort
SELECT product_id, to_base64(to_utf8(name)), from_utf8(from_base64(to_base64(to_utf8(name)))) = name FROM products WHERE name IS NOT NULL
---- duckdb
SELECT product_id, to_base64(encode(name)), decode(from_base64(to_base64(encode(name)))) = name FROM products WHERE name IS NOT NULL

query fn_hash_known_values trino_fn
SELECT to_hex(xxhash64(to_utf8('abc'))), crc32(to_utf8('abc')), to_hex(sha1(to_utf8('abc')))
---- expect reference values of XXH64 (seed 0), CRC-32 and SHA-1
44BC2CF5AD770999	891568578	A9993E364706816ABA3E25717850C26C9CD0D89D

query fn_url_extract trino_fn
SELECT url_extract_host('https://www.example.com:8443/a/b?x=1&y=two#top'), url_extract_port('https://www.example.com:8443/a/b?x=1&y=two#top'), url_extract_path('https://www.example.com:8443/a/b?x=1&y=two#top'), url_extract_parameter('https://www.example.com:8443/a/b?x=1&y=two#top', 'y'), url_extract_fragment('https://www.example.com:8443/a/b?x=1&y=two#top')
---- expect Trino (java.net.URI); DuckDB has no URL functions
www.example.com	8443	/a/b	two	top

query fn_url_encode trino_fn
SELECT url_encode('a b&c=d/é'), url_decode('a+b%26c')
---- expect Trino (Guava form escaper, Java URLDecoder)
a+b%26c%3Dd%2F%C3%A9	a b&c

query fn_try_division trino_fn rowsort
SELECT order_id, try(100 / qty) FROM orders WHERE order_id < 80
---- duckdb DuckDB's integer division by zero is NULL already; Trino needs try()
SELECT order_id, CASE WHEN qty = 0 THEN NULL ELSE 100 // qty END FROM orders WHERE order_id < 80

query fn_try_cast_text trino_fn rowsort
SELECT order_id, try(CAST(note AS integer)) FROM orders WHERE order_id < 80
---- duckdb
SELECT order_id, TRY_CAST(trim(note) AS integer) FROM orders WHERE order_id < 80

query fn_bitwise trino_fn rowsort
SELECT product_id, bitwise_and(stock, 255), bitwise_or(product_id, 8), bitwise_xor(product_id, 5) FROM products WHERE stock IS NOT NULL
---- duckdb
SELECT product_id, stock & 255, product_id | 8, xor(product_id, 5) FROM products WHERE stock IS NOT NULL

query fn_width_bucket trino_fn rowsort
SELECT product_id, width_bucket(weight, 0, 100, 10) FROM products WHERE weight IS NOT NULL
---- duckdb
SELECT product_id, CASE WHEN weight < 0 THEN 0 WHEN weight >= 100 THEN 11 ELSE CAST(floor(10 * weight / 100 + 1) AS BIGINT) END FROM products WHERE weight IS NOT NULL

query fn_to_from_base trino_fn
SELECT to_base(255, 16), to_base(-10, 2), from_base('7fffffff', 16)
---- expect Trino (DuckDB has no to_base/from_base)
ff	-1010	2147483647

query fn_truncate_n trino_fn rowsort
SELECT product_id, truncate(price, 1) FROM products WHERE price IS NOT NULL
---- duckdb Trino keeps decimal(8,2), zeroing the last digit
SELECT product_id, trunc(price * 10) / 10 FROM products WHERE price IS NOT NULL

query fn_soundex_luhn trino_fn
SELECT soundex('Robert'), soundex('Tymczak'), luhn_check('79927398713')
---- expect Trino documentation examples
R163	T522	true

# SQL/JSON clauses (issue 8): json_value RETURNING with DEFAULT ON EMPTY,
# json_exists; DuckDB's json_extract_string / json_exists on the same
# documents (built from columns, always well-formed).
query fn_json_value_returning trino_fn
SELECT order_id, json_value('{"q":' || CAST(qty AS varchar) || ',"p":' || CAST(priority AS varchar) || '}', 'lax $.q' RETURNING bigint DEFAULT -1 ON EMPTY) + 1, json_value('{"q":' || CAST(qty AS varchar) || '}', 'lax $.missing' RETURNING bigint DEFAULT -1 ON EMPTY) FROM orders
---- duckdb
SELECT order_id, CAST(json_extract_string('{"q":' || CAST(qty AS varchar) || ',"p":' || CAST(priority AS varchar) || '}', '$.q') AS BIGINT) + 1, CASE WHEN qty IS NULL THEN NULL ELSE -1 END FROM orders

query fn_json_exists trino_fn
SELECT order_id, json_exists('{"s":"' || coalesce(status, '') || '","n":' || CAST(order_id AS varchar) || '}', 'lax $.s'), json_exists('{"n":' || CAST(order_id AS varchar) || '}', 'lax $.s') FROM orders
---- duckdb
SELECT order_id, json_exists('{"s":"' || coalesce(status, '') || '","n":' || CAST(order_id AS varchar) || '}', '$.s'), json_exists('{"n":' || CAST(order_id AS varchar) || '}', '$.s') FROM orders

query fn_json_query_wrapper trino_fn
SELECT order_id, json_query('{"a":[' || CAST(order_id AS varchar) || ']}', 'lax $.a' WITH ARRAY WRAPPER), json_query('{"a":' || CAST(order_id AS varchar) || '}', 'lax $.a' WITH CONDITIONAL ARRAY WRAPPER) FROM orders
---- duckdb
SELECT order_id, '[[' || CAST(order_id AS varchar) || ']]', '[' || CAST(order_id AS varchar) || ']' FROM orders

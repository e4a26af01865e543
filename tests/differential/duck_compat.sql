-- Trino names and semantics in DuckDB, loaded by run.mjs before any query so
-- that most queries can be written once, in Trino's dialect, and run on both
-- engines. Each macro is a translation of a documented Trino function; where
-- a name clashes with a DuckDB built-in of different meaning, the macro
-- shadows it and calls the built-in by its qualified name (system.main.f).
-- Session settings (run.mjs): integer_division = true (Trino's integer `/`
-- truncates), default_null_order = 'nulls_last' (Trino: NULLS LAST both ways).

-- names Trino has and DuckDB spells differently
CREATE MACRO truncate(x) AS trunc(x);
CREATE MACRO e() AS exp(1);
CREATE MACRO is_nan(x) AS isnan(x);
CREATE MACRO is_finite(x) AS isfinite(x);
CREATE MACRO is_infinite(x) AS isinf(x);
CREATE MACRO day_of_week(d) AS isodow(d);
CREATE MACRO day_of_month(d) AS dayofmonth(d);
CREATE MACRO day_of_year(d) AS dayofyear(d);
CREATE MACRO doy(d) AS dayofyear(d);
CREATE MACRO week_of_year(d) AS week(d);
CREATE MACRO year_of_week(d) AS isoyear(d);
CREATE MACRO yow(d) AS isoyear(d);
CREATE MACRO last_day_of_month(d) AS last_day(d);
CREATE MACRO to_unixtime(t) AS epoch(t);
CREATE MACRO every(b) AS bool_and(b);
-- (DuckDB compares NaN as equal to itself and greater than every number; Trino
-- as IEEE: queries that compare NaN carry a written Trino expectation)
CREATE MACRO nan() AS CAST('NaN' AS DOUBLE);
CREATE MACRO infinity() AS CAST('Infinity' AS DOUBLE);
-- Trino's approx_distinct is exact below its sparse-HLL limit; sqe's is exact
CREATE MACRO approx_distinct(x) AS count(DISTINCT x);

-- same name, different meaning in DuckDB
-- Trino dow is ISO (Monday = 1 .. Sunday = 7); DuckDB's dow has Sunday = 0
CREATE MACRO dow(d) AS isodow(d);
-- Trino millisecond() is the millisecond of the second; DuckDB's counts the seconds too
CREATE MACRO millisecond(t) AS system.main.millisecond(t) % 1000;
-- Trino date_diff counts whole units between the two values (DuckDB's date_sub);
-- DuckDB's date_diff counts unit boundaries crossed
CREATE MACRO date_diff(u, a, b) AS date_sub(u, a, b);
-- Trino greatest/least return NULL when any argument is NULL; DuckDB skips NULLs
CREATE MACRO greatest(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE system.main.greatest(a, b) END,
             (a, b, c) AS CASE WHEN a IS NULL OR b IS NULL OR c IS NULL THEN NULL ELSE system.main.greatest(a, b, c) END,
             (a, b, c, d) AS CASE WHEN a IS NULL OR b IS NULL OR c IS NULL OR d IS NULL THEN NULL ELSE system.main.greatest(a, b, c, d) END;
CREATE MACRO least(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL ELSE system.main.least(a, b) END,
          (a, b, c) AS CASE WHEN a IS NULL OR b IS NULL OR c IS NULL THEN NULL ELSE system.main.least(a, b, c) END,
          (a, b, c, d) AS CASE WHEN a IS NULL OR b IS NULL OR c IS NULL OR d IS NULL THEN NULL ELSE system.main.least(a, b, c, d) END;
-- Trino upper() maps code point by code point (Java Character.toUpperCase): ß has no
-- one-code-point capital there and stays ß; DuckDB gives ẞ (the data holds no ẞ)
CREATE MACRO upper(s) AS replace(system.main.upper(s), 'ẞ', 'ß');
-- Trino concat returns NULL when any argument is NULL; DuckDB's skips NULLs
-- (a macro hides every arity of the built-in, so each arity used is spelled out)
CREATE MACRO concat(a, b) AS a || b, (a, b, c) AS a || b || c, (a, b, c, d) AS a || b || c || d,
  (a, b, c, d, e) AS a || b || c || d || e, (a, b, c, d, e, f) AS a || b || c || d || e || f;
-- Trino has replace(s, search) removing every occurrence
CREATE MACRO replace(s, f) AS system.main.replace(s, f, ''), (s, f, r) AS system.main.replace(s, f, r);
-- Trino split_part returns NULL past the last field; DuckDB returns ''
CREATE MACRO split_part(s, d, i) AS
  CASE WHEN i > len(string_split(s, d)) THEN NULL ELSE system.main.split_part(s, d, i) END;
-- Trino substr: start 0 or beyond either end gives ''; a negative start counts from the end
CREATE MACRO substr(s, st) AS
  CASE WHEN st = 0 OR st > length(s) OR -st > length(s) THEN '' ELSE system.main.substr(s, st) END,
  (s, st, n) AS
  CASE WHEN st = 0 OR st > length(s) OR -st > length(s) THEN '' ELSE system.main.substr(s, st, n) END;
CREATE MACRO substring(s, st) AS substr(s, st), (s, st, n) AS substr(s, st, n);

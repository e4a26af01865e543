// gen_topn.mjs - writes the Parquet files of tests/sql/parquet/topn_dynamic.test
// (the top-N dynamic filter) with DuckDB; the files are committed, this script
// documents how they were made:
//
//   cp tests/sql/parquet/data/gen_topn.mjs tests/differential/ &&
//     node tests/differential/gen_topn.mjs tests/sql/parquet/data/topn
//
// (writes data/topn/part-*.parquet and data/dict/d.parquet)
//
// (run from a folder whose node_modules has @duckdb/node-api: npm ci in
// tests/differential, as scripts/deps.sh does)
//
// Three files of 6144 rows (ids 1..18432, contiguous and sorted per file)
// in row groups of 2048 rows (DuckDB's smallest), so min/max statistics of
// id, s and d are ranges that a bound excludes, and:
//   v  int     NULL for every tenth id and for ids above 14336 (the last two
//              row groups hold only NULLs), else 20000 - id (descending)
//   g  int     id / 5000: long runs of ties
//   s  string  'k' || lpad(id, 5, '0') (sorted like id)
//   d  double  id / 2, NaN for id 7000
//   note string the first 6 characters of md5(id) (for a LIKE filter)
//   c  string  NULL when id % 7 = 0, else red / green / a 22-byte colour
//              by id % 3 (dictionary-encoded: GROUP BY over dictionaries)
import { DuckDBInstance } from '@duckdb/node-api';
import path from 'node:path';

const OUT = path.resolve(process.argv[2] || 'topn');
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
for (let f = 0; f < 3; f++) {
  const lo = f * 6144 + 1, hi = lo + 6143;
  await con.run(`COPY (
    SELECT id::BIGINT AS id,
           CASE WHEN id > 14336 OR id % 10 = 0 THEN NULL ELSE (20000 - id)::INTEGER END AS v,
           (id // 5000)::INTEGER AS g,
           'k' || lpad(id::VARCHAR, 5, '0') AS s,
           CASE WHEN id = 7000 THEN 'NaN'::DOUBLE ELSE id / 2 END AS d,
           substr(md5(id::VARCHAR), 1, 6) AS note,
           CASE WHEN id % 7 = 0 THEN NULL
                ELSE ['red', 'green', 'a-long-colour-name-xyz'][id % 3 + 1] END AS c
    FROM range(${lo}, ${hi + 1}) r(id) ORDER BY id
  ) TO '${OUT}/part-${f}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 2048, COMPRESSION SNAPPY)`);
}
// dictionary.test: one file of 3 row groups of 8192 rows (4 batches per
// dictionary), columns id, g (int, 4 values) and c (string with NULLs), as
// above
const DICT = path.join(path.dirname(OUT), 'dict');
await con.run(`COPY (
  SELECT id::INTEGER AS id, (id % 4)::INTEGER AS g,
         CASE WHEN id % 7 = 0 THEN NULL
              ELSE ['red', 'green', 'a-long-colour-name-xyz'][id % 3 + 1] END AS c
  FROM range(1, 24577) r(id) ORDER BY id
) TO '${DICT}/d.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 8192, COMPRESSION SNAPPY)`);
console.log(`wrote ${OUT}/part-{0,1,2}.parquet and ${DICT}/d.parquet`);

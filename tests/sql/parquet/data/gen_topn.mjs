// gen_topn.mjs - writes the Parquet files of tests/sql/parquet/topn_dynamic.test
// (the top-N dynamic filter) with DuckDB; the files are committed, this script
// documents how they were made:
//
//   cp tests/sql/parquet/data/gen_topn.mjs tests/differential/ &&
//     node tests/differential/gen_topn.mjs tests/sql/parquet/data/topn
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
           substr(md5(id::VARCHAR), 1, 6) AS note
    FROM range(${lo}, ${hi + 1}) r(id) ORDER BY id
  ) TO '${OUT}/part-${f}.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 2048, COMPRESSION SNAPPY)`);
}
console.log(`wrote ${OUT}/part-{0,1,2}.parquet`);

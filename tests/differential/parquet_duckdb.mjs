// parquet_duckdb.mjs - Parquet files written by DuckDB, read by sqe, checked
// against DuckDB's own reading of the same files (issue 6, SPEC §4.4).
//
//   node tests/differential/parquet_duckdb.mjs [--sqe build/sqe-cli] [--keep] [--only SUBSTR]
//
// DuckDB writes one table holding every flat type it can put in Parquet
// (integers signed and unsigned, float, double, decimals stored in INT32,
// INT64 and FIXED_LEN_BYTE_ARRAY, strings, blobs, enum, uuid, date, time,
// timestamps in s/ms/us/ns and with time zone, booleans), with NULLs, long
// and short strings, and low-cardinality columns next to unique ones, as
// files in every codec DuckDB writes (uncompressed, snappy, gzip, zstd,
// lz4_raw, brotli) x dictionary on/off x format V1 (PLAIN/dictionary, data
// page v1) and V2 (DELTA_* / BYTE_STREAM_SPLIT encodings, data page v2), in
// row groups of 1000 rows. Each file gets its own folder and sqe table
// (STORED AS PARQUET); sqe's SELECT ... ORDER BY id must equal DuckDB's
// SELECT over read_parquet of the same file, cell by cell (lib.mjs
// comparison: numbers with a relative tolerance of 1e-9, timestamps without
// trailing zeros). Then the error paths: a LIST column selected, an
// INTERVAL column, a string column declared INT, a decimal that does not fit
// its declared precision. Exit 1 on any mismatch.
import { DuckDBInstance } from '@duckdb/node-api';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { duckCell, parseSqeJson, compareRows, showCell } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const args = process.argv.slice(2);
const opt = { sqe: path.join(REPO, 'build/sqe-cli'), keep: false, only: '' };
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--sqe') opt.sqe = path.resolve(args[++i]);
  else if (args[i] === '--keep') opt.keep = true;
  else if (args[i] === '--only') opt.only = args[++i];
  else { console.error(`usage: parquet_duckdb.mjs [--sqe PATH] [--keep] [--only SUBSTR]`); process.exit(2); }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sqe-pq-duck-'));
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
await con.run(`SET TimeZone = 'UTC'`);
const ROWS = 2500;

// column name, DuckDB expression over i, sqe DDL type, sqe select, DuckDB select
const COLS = [
  ['b', `CASE WHEN i % 7 = 3 THEN NULL ELSE i % 3 = 0 END`, 'boolean'],
  ['i8', `CASE WHEN i % 11 = 0 THEN NULL ELSE (i % 256 - 128)::TINYINT END`, 'tinyint'],
  ['i16', `(i * 37 % 65536 - 32768)::SMALLINT`, 'smallint'],
  ['i32', `CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 1000003 % 4294967296 - 2147483648)::INTEGER END`, 'int'],
  ['i64', `((i::HUGEINT * 9007199254740993) % 18446744073709551557 - 9223372036854775807)::BIGINT`, 'bigint'],
  ['i32_as_i64', `(i * 3)::INTEGER`, 'bigint'],
  ['u8', `(i % 256)::UTINYINT`, 'smallint'],
  ['u16', `(i * 31 % 65536)::USMALLINT`, 'int'],
  ['u32', `((i::HUGEINT * 2654435761) % 4294967296)::UINTEGER`, 'bigint'],
  ['u64', `((i::HUGEINT * 11400714819323198485) % 18446744073709551615)::UBIGINT`, 'decimal(20,0)'],
  ['f32', `CASE WHEN i % 13 = 0 THEN NULL ELSE (i / 7.0)::FLOAT END`, 'real', 'CAST(f32 AS double)', 'CAST(f32 AS DOUBLE)'],
  ['f32_as_f64', `(i / 3.0)::FLOAT`, 'double'],
  ['f64', `i * 1.0e-3 + 0.1`, 'double'],
  ['d4', `CASE WHEN i % 9 = 0 THEN NULL ELSE ((i % 9999) / 100.0 - 49.99)::DECIMAL(4,2) END`, 'decimal(4,2)'],
  ['d9', `((i * 7919) % 999999999 / 1000.0)::DECIMAL(9,3)`, 'decimal(9,3)'],
  ['d18', `((i::BIGINT * 104729 * 1000003) / 10000.0)::DECIMAL(18,4)`, 'decimal(18,4)'],
  ['d38', `(i::HUGEINT * 12345678901234567890123 / 100)::DECIMAL(38,10)`, 'decimal(38,10)'],
  ['d9_wide', `((i % 1000) / 100.0)::DECIMAL(9,2)`, 'decimal(12,4)'],
  ['s', `CASE WHEN i % 17 = 0 THEN NULL ELSE 'v' || (i % 50) END`, 'string'],
  ['s_long', `repeat('x', i % 40) || i::VARCHAR || '-ünï'`, 'string'],
  ['s_empty', `CASE WHEN i % 2 = 0 THEN '' ELSE 'e' END`, 'string'],
  ['vc', `'abcdefghij' || i`, 'varchar(5)'],
  ['bl', `('blob' || (i % 100))::BLOB`, 'binary', 'from_utf8(bl)', `CAST(bl AS VARCHAR)`], // sqe prints VARBINARY as hex: compare the text
  ['en', `(['red', 'green', 'blue'])[i % 3 + 1]::ENUM('red', 'green', 'blue')`, 'string', 'en', 'CAST(en AS VARCHAR)'],
  ['uu', `('00000000-0000-4000-8000-' || lpad(printf('%x', i * 7777), 12, '0'))::UUID`, 'string', 'uu', 'CAST(uu AS VARCHAR)'],
  ['dt', `CASE WHEN i % 19 = 0 THEN NULL ELSE DATE '1969-12-01' + (i * 13)::INTEGER END`, 'date'],
  ['dt_as_ts', `DATE '2020-02-28' + i::INTEGER`, 'timestamp', 'dt_as_ts', 'CAST(dt_as_ts AS TIMESTAMP)'],
  ['tm', `TIME '00:00:00' + INTERVAL (i * 12345678) MICROSECOND`, 'string', 'tm', `strftime(DATE '2000-01-01' + tm, '%H:%M:%S.%f')`],
  ['ts', `TIMESTAMP '1960-01-01 00:00:00' + INTERVAL (i * 987654321123) MICROSECOND`, 'timestamp'],
  ['ts_ms', `(TIMESTAMP '2001-02-03 04:05:06.789' + INTERVAL (i * 1000) SECOND)::TIMESTAMP_MS`, 'timestamp', 'ts_ms', 'CAST(ts_ms AS TIMESTAMP)'],
  ['ts_s', `(TIMESTAMP '1999-12-31 23:59:59' + INTERVAL (i) HOUR)::TIMESTAMP_S`, 'timestamp', 'ts_s', 'CAST(ts_s AS TIMESTAMP)'],
  ['ts_ns', `(TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i * 1234567) MICROSECOND)::TIMESTAMP_NS + INTERVAL 0 SECOND`, 'timestamp', 'ts_ns', 'CAST(ts_ns AS TIMESTAMP)'],
  ['tstz', `(TIMESTAMP '2010-06-15 12:00:00' + INTERVAL (i * 3600) SECOND)::TIMESTAMPTZ`, 'timestamp', 'tstz', 'CAST(tstz AS TIMESTAMP)'],
];
const sqeSel = (c) => c[3] || c[0];
const duckSel = (c) => c[4] || c[0];

await con.run(`CREATE TABLE src AS SELECT i AS id, ${COLS.map((c) => `${c[1]} AS ${c[0]}`).join(', ')} FROM range(${ROWS}) t(i)`);
// ts_ns: make it a real nanosecond value (not a multiple of 1000 ns)
await con.run(`UPDATE src SET ts_ns = make_timestamp_ns(epoch_ns(ts_ns) + id % 1000)`);

const CODECS = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4_raw', 'brotli'];
const cases = [];
for (const codec of CODECS)
  for (const dict of [true, false])
    for (const ver of ['V1', 'V2']) {
      const name = `t_${codec}_${dict ? 'dict' : 'plain'}_${ver.toLowerCase()}`;
      if (opt.only && !name.includes(opt.only)) continue;
      const dir = path.join(tmp, 'data', name);
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, 'part-0.parquet');
      const o = [`FORMAT parquet`, `COMPRESSION '${codec}'`, `ROW_GROUP_SIZE 1000`, `PARQUET_VERSION '${ver}'`];
      if (!dict) o.push('DICTIONARY_SIZE_LIMIT 0');
      await con.run(`COPY src TO '${file}' (${o.join(', ')})`);
      cases.push({ name, dir, file });
    }

// Runs statements in one sqe-cli process over its own warehouse `wh`; the
// rows of the last result (and all results), or the error.
let whSeq = 0;
function sqe(statements) {
  const wh = path.join(tmp, 'wh', String(whSeq++));
  fs.mkdirSync(wh, { recursive: true }); // a missing root folder cannot be attached
  const a = ['--embedded', '--hive-root', `lake=${wh}`, '--format', 'json', '-c', 'USE lake'];
  for (const st of statements) a.push('-c', st);
  return new Promise((resolve) => {
    const child = spawn(opt.sqe, a);
    let out = '', err = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => {
      if (code !== 0) {
        const m = err.match(/^Error: (.*)$/m);
        resolve({ error: m ? m[1] : `exit ${code}: ${err.slice(0, 300)}` });
        return;
      }
      try {
        const res = parseSqeJson(out);
        resolve({ rows: res[res.length - 1].rows, all: res.map((x) => x.rows) });
      } catch (e) { resolve({ error: `unparsable output: ${e.message}` }); }
    });
  });
}

// Runs fn over items, `width` at a time; results in order.
async function pool(items, width, fn) {
  const out = new Array(items.length);
  let next = 0;
  const worker = async () => { while (next < items.length) { const i = next++; out[i] = await fn(items[i], i); } };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
const WIDTH = 3;

const ddlCols = ['id bigint', ...COLS.map((c) => `${c[0]} ${c[2]}`)].join(', ');
// Names the first differing cell (row id and column) of two ordered results.
function firstCellDiff(got, want) {
  const names = ['id', ...COLS.map((c) => c[0])];
  if (got.length !== want.length) return `${got.length} rows, DuckDB ${want.length}`;
  for (let r = 0; r < got.length; r++)
    for (let k = 0; k < names.length; k++)
      if (compareRows([[got[r][k]]], [[want[r][k]]], true))
        return `row id ${showCell(want[r][0])}, column ${names[k]}: sqe ${showCell(got[r][k])}, DuckDB ${showCell(want[r][k])}`;
  return null;
}

let failures = 0;
const fail = (what, msg) => { failures++; console.log(`FAIL ${what}: ${msg}`); };

const sqeAnswers = pool(cases, WIDTH, (c) => sqe([
  `CREATE EXTERNAL TABLE ${c.name} (${ddlCols}) STORED AS PARQUET LOCATION '${c.dir}'`,
  `SELECT id, ${COLS.map(sqeSel).join(', ')} FROM ${c.name} ORDER BY id`,
]));
const answers = await sqeAnswers;
for (const [ci, c] of cases.entries()) {
  const encs = await con.runAndReadAll(`SELECT string_agg(DISTINCT encodings, ' ') FROM parquet_metadata('${c.file}')`);
  const duck = await con.runAndReadAll(`SELECT id, ${COLS.map(duckSel).join(', ')} FROM read_parquet('${c.file}') ORDER BY id`);
  const want = duck.getRows().map((row) => row.map(duckCell));
  const got = answers[ci];
  if (got.error) { fail(c.name, got.error); continue; }
  // vc is declared varchar(5): sqe keeps 5 characters
  for (const row of want) { const k = 1 + COLS.findIndex((x) => x[0] === 'vc'); if (row[k]) row[k] = { t: 's', v: row[k].v.slice(0, 5) }; }
  let why = compareRows(got.rows, want, true);
  if (why) why = firstCellDiff(got.rows, want) || why;
  if (why) fail(c.name, `${why}\n  encodings: ${String(encs.getRows()[0][0])}`);
  else console.log(`ok   ${c.name} (${ROWS} rows; ${String(encs.getRows()[0][0])})`);
}

// Filters through row-group pruning give DuckDB's answers too.
if (cases.length) {
  const c = cases[0];
  const qs = [
    [`count(*)`, `id >= 2100`], [`count(*)`, `id < 10 OR id > 2490`], [`count(*)`, `s = 'v7'`],
    [`count(*)`, `i32 IS NULL`], [`count(*)`, `d9 > 500`], [`count(*)`, `dt < DATE '1970-06-01'`],
    [`count(*)`, `id IN (5, 1500, 2499)`], [`sum(i16)`, `id BETWEEN 1000 AND 1999`],
  ];
  const got = await sqe([`CREATE EXTERNAL TABLE f (${ddlCols}) STORED AS PARQUET LOCATION '${c.dir}'`,
    ...qs.map(([agg, where]) => `SELECT ${agg} FROM f WHERE ${where}`)]);
  for (const [k, [agg, where]] of qs.entries()) {
    const duck = await con.runAndReadAll(`SELECT ${agg} FROM read_parquet('${c.file}') WHERE ${where}`);
    const want = duck.getRows().map((row) => row.map(duckCell));
    const why = got.error || compareRows(got.all[got.all.length - qs.length + k], want, true);
    if (why) fail(`filter ${where}`, why); else console.log(`ok   filter ${where}`);
  }
}

// Error paths.
{
  const dir = path.join(tmp, 'data', 'errs');
  fs.mkdirSync(dir, { recursive: true });
  await con.run(`COPY (SELECT 1 AS id, [1, 2] AS l, INTERVAL 3 DAY AS iv, 'x' AS s, 123.45::DECIMAL(5,2) AS d, {'a': 1, 'b': 'x'} AS st, MAP {'k': 1} AS mp, 7 AS last) TO '${dir}/e.parquet' (FORMAT parquet)`);
  // two columns equal ignoring case: DuckDB will not write them, so its file's
  // footer is patched (same length, thrift stays valid)
  const dupDir = path.join(tmp, 'data', 'dup');
  fs.mkdirSync(dupDir, { recursive: true });
  await con.run(`COPY (SELECT 1 AS dupcol, 2 AS qqqqqq, 3 AS other) TO '${dupDir}/d.parquet' (FORMAT parquet)`);
  const bytes = fs.readFileSync(`${dupDir}/d.parquet`);
  fs.writeFileSync(`${dupDir}/d.parquet`, Buffer.from(bytes.toString('latin1').replaceAll('qqqqqq', 'DUPCOL'), 'latin1'));
  // Writers such as Arrow leave NaN out of min/max: a row group of 2.0 and
  // NaN with min = max = 2 still has a row <> 2. DuckDB writes no min/max
  // then, so its file of 2.0 and one 3.0 (PLAIN, uncompressed) is patched:
  // the 3.0 in the page becomes NaN, the 3.0 in the statistics 2.0.
  fs.mkdirSync(path.join(tmp, 'data', 'nan'), { recursive: true });
  const nanFile = `${tmp}/data/nan/n.parquet`;
  await con.run(`COPY (SELECT CASE WHEN i = 3 THEN 3.0 ELSE 2.0 END::DOUBLE AS f FROM range(10) t(i)) TO '${nanFile}' (FORMAT parquet, COMPRESSION 'uncompressed', DICTIONARY_SIZE_LIMIT 0)`);
  {
    const b = fs.readFileSync(nanFile);
    const flen = b.readUInt32LE(b.length - 8), footAt = b.length - 8 - flen;
    const three = Buffer.alloc(8), two = Buffer.alloc(8), nan = Buffer.alloc(8);
    three.writeDoubleLE(3.0); two.writeDoubleLE(2.0); nan.writeDoubleLE(NaN);
    for (let i = 0; i + 8 <= b.length; i++)
      if (b.subarray(i, i + 8).equals(three)) (i < footAt ? nan : two).copy(b, i);
    fs.writeFileSync(nanFile, b);
  }
  const checks = [
    [`CREATE EXTERNAL TABLE n1 (f double) STORED AS PARQUET LOCATION '${tmp}/data/nan'`, `SELECT count(*) FROM n1 WHERE f <> 2`, ['1']],
    [`CREATE EXTERNAL TABLE d1 (dupcol int) STORED AS PARQUET LOCATION '${dupDir}'`, `SELECT dupcol FROM d1`, `has two columns that both match column 'dupcol' when case is ignored: 'dupcol' and 'DUPCOL'`],
    [`CREATE EXTERNAL TABLE d2 (other int) STORED AS PARQUET LOCATION '${dupDir}'`, `SELECT other FROM d2`, null],
    [`CREATE EXTERNAL TABLE e1 (id int, l string) STORED AS PARQUET LOCATION '${dir}'`, `SELECT l FROM e1`, `nested Parquet column 'l' (LIST) is not supported yet`],
    [`CREATE EXTERNAL TABLE e1b (id int, l string) STORED AS PARQUET LOCATION '${dir}'`, `SELECT id FROM e1b`, null],
    [`CREATE EXTERNAL TABLE e1c (st string) STORED AS PARQUET LOCATION '${dir}'`, `SELECT st FROM e1c`, `nested Parquet column 'st' (struct) is not supported yet`],
    [`CREATE EXTERNAL TABLE e1d (mp string) STORED AS PARQUET LOCATION '${dir}'`, `SELECT mp FROM e1d`, `nested Parquet column 'mp' (MAP) is not supported yet`],
    // leaves after nested columns still bind to the right column chunk
    [`CREATE EXTERNAL TABLE e1e (last int, st string, l string) STORED AS PARQUET LOCATION '${dir}'`, `SELECT count(*), sum(last) FROM e1e WHERE last = 7`, ['1', '7']],
    [`CREATE EXTERNAL TABLE e2 (id int, iv string) STORED AS PARQUET LOCATION '${dir}'`, `SELECT iv FROM e2`, `column 'iv' of Parquet file`],
    [`CREATE EXTERNAL TABLE e3 (id int, s int) STORED AS PARQUET LOCATION '${dir}'`, `SELECT s FROM e3`, `has type BYTE_ARRAY (STRING), which cannot be read as the declared type integer`],
    [`CREATE EXTERNAL TABLE e4 (id int, d decimal(4,2)) STORED AS PARQUET LOCATION '${dir}'`, `SELECT d FROM e4`, `value 123.45 of column 'd'`],
  ];
  const gots = await pool(checks, WIDTH, ([ddl, q]) => sqe([ddl, q]));
  for (const [k, [, q, want]] of checks.entries()) {
    const got = gots[k];
    const rowText = got.rows ? got.rows.map((r) => r.map((c) => (c ? c.v : 'NULL')).join(',')).join(';') : '';
    if (Array.isArray(want) ? got.error || rowText !== want.join(',') : want === null ? got.error : !(got.error || '').includes(want))
      fail(q, `expected ${want === null ? 'rows' : Array.isArray(want) ? want.join(',') : `an error containing "${want}"`}, got ${got.error ? `error: ${got.error}` : rowText}`);
    else console.log(`ok   ${q}${want ? ' -> ' + want : ''}`);
  }
}

if (!opt.keep) fs.rmSync(tmp, { recursive: true, force: true });
else console.log(`kept ${tmp}`);
console.log(failures ? `parquet_duckdb: ${failures} failures` : `parquet_duckdb: all passed (${cases.length} files)`);
process.exit(failures ? 1 : 0);

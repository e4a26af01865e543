#!/usr/bin/env node
// DuckDB side of bench.mjs: runs named queries over the same CSV files sqe reads, in this one process
// (so /usr/bin/time around it gives the peak RSS of exactly these queries).
//
// Usage: node duck-run.mjs --peer DIR --data DIR --shipments DIR --queries FILE.json --out FILE.json
//                          [--format csv|parquet|json] [--threads 2] [--runs 5] [--warmup 1]
//                          [--memory-limit 256MB] [--temp-dir DIR]
//
// --peer is the DuckDB harness (../shared/bench copy with node_modules); @duckdb/node-api is loaded from
// there. --queries holds [{ "name": "Q1", "sql": "..." }, ...]. Views (--format csv, the default: CSV,
// headerless, explicit types, no sniffing, orders exactly as the harness's duck.mjs reads it; --format
// parquet or json: orders and customers from <data>/<format>/ with read_parquet / read_json as duck.mjs
// reads them, shipments stay CSV):
//   orders    <data>/csv/orders/dt=*/part-*.csv   id BIGINT, customer_id BIGINT, amount DOUBLE, status, note,
//                                                 qty INTEGER; dt VARCHAR from the path
//   customers <data>/csv/customers/*.csv          customer_id BIGINT, name, segment, country, signup_date DATE
//   shipments <shipments>/*.csv                   order_id BIGINT, carrier, shipped_date DATE, cost DOUBLE
// Each query: <warmup> untimed runs, then <runs> timed runs of runAndReadAll (wall ms, result materialized
// in JS). A failing query is recorded with its error message and the next one runs.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const peer = opt('--peer'), data = opt('--data'), ships = opt('--shipments');
const qfile = opt('--queries'), out = opt('--out');
if (!peer || !data || !qfile || !out) {
  console.error('usage: node duck-run.mjs --peer DIR --data DIR --shipments DIR --queries FILE.json --out FILE.json [--threads 2] [--runs 5] [--warmup 1] [--memory-limit SIZE] [--temp-dir DIR]');
  process.exit(2);
}
const threads = opt('--threads', '2'), runs = Number(opt('--runs', '5')), warmup = Number(opt('--warmup', '1'));
const memLimit = opt('--memory-limit'), tempDir = opt('--temp-dir'), format = opt('--format', 'csv');

const req = createRequire(path.join(path.resolve(peer), 'package.json'));
const { DuckDBInstance } = await import(pathToFileURL(req.resolve('@duckdb/node-api')).href);

const sqlStr = (s) => `'${String(s).replace(/'/g, "''")}'`;
const config = { threads: String(threads), autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };
if (memLimit) config.memory_limit = memLimit;
if (tempDir) { fs.mkdirSync(tempDir, { recursive: true }); config.temp_directory = tempDir; }
const inst = await DuckDBInstance.create(':memory:', config);
const con = await inst.connect();
const csv = (glob, cols, extra = '') => `read_csv(${sqlStr(glob)}, header = false, delim = ',', quote = '"', escape = '"', ` +
  `auto_detect = false, columns = {${cols}}${extra})`;
const ORDER_COLS = `'id': 'BIGINT', 'customer_id': 'BIGINT', 'amount': 'DOUBLE', 'status': 'VARCHAR', 'note': 'VARCHAR', 'qty': 'INTEGER'`;
const CUST_COLS = `'customer_id': 'BIGINT', 'name': 'VARCHAR', 'segment': 'VARCHAR', 'country': 'VARCHAR', 'signup_date': 'DATE'`;
const HIVE = `hive_partitioning = true, hive_types = {'dt': 'VARCHAR'}`;
const ordersGlob = sqlStr(path.join(path.resolve(data), format, 'orders', 'dt=*', `part-*.${format}`));
const custGlob = sqlStr(path.join(path.resolve(data), format, 'customers', `*.${format}`));
const orders = {
  csv: csv(path.join(path.resolve(data), 'csv', 'orders', 'dt=*', 'part-*.csv'), ORDER_COLS, `, ${HIVE}`),
  parquet: `read_parquet(${ordersGlob}, ${HIVE})`,
  json: `read_json(${ordersGlob}, format = 'newline_delimited', auto_detect = false, columns = {${ORDER_COLS}}, ${HIVE})`,
}[format];
const customers = {
  csv: csv(path.join(path.resolve(data), 'csv', 'customers', '*.csv'), CUST_COLS),
  parquet: `read_parquet(${custGlob})`,
  json: `read_json(${custGlob}, format = 'newline_delimited', auto_detect = false, columns = {${CUST_COLS}})`,
}[format];
if (!orders) { console.error(`duck-run: unknown --format ${format}`); process.exit(2); }
await con.run(`CREATE VIEW orders AS SELECT id, customer_id, amount, status, note, qty, dt FROM ${orders}`);
await con.run(`CREATE VIEW customers AS SELECT * FROM ${customers}`);
if (ships) {
  await con.run(`CREATE VIEW shipments AS SELECT * FROM ${csv(path.join(path.resolve(ships), '*.csv'),
    `'order_id': 'BIGINT', 'carrier': 'VARCHAR', 'shipped_date': 'DATE', 'cost': 'DOUBLE'`)}`);
}
const env = (await con.runAndReadAll(`SELECT version() AS version, current_setting('threads') AS threads,
  current_setting('memory_limit') AS memory_limit`)).getRowObjectsJson()[0];

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const results = [];
for (const q of JSON.parse(fs.readFileSync(qfile, 'utf8'))) {
  const res = { name: q.name, sql: q.sql };
  let t = performance.now();
  try {
    let last = null;
    for (let i = 0; i < warmup; i++) { t = performance.now(); last = await con.runAndReadAll(q.sql); }
    const times = [];
    for (let i = 0; i < runs; i++) {
      t = performance.now();
      last = await con.runAndReadAll(q.sql);
      times.push(+(performance.now() - t).toFixed(2));
    }
    Object.assign(res, { times_ms: times, median_ms: times.length ? median(times) : null, columns: last.columnNames(), rows: last.getRowsJson() });
  } catch (e) {
    Object.assign(res, { error: String(e && e.message || e), failed_after_ms: +(performance.now() - t).toFixed(2) });
  }
  results.push(res);
}
fs.writeFileSync(out, JSON.stringify({ engine: 'duckdb', env, queries: results }, null, 2) + '\n');

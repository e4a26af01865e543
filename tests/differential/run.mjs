#!/usr/bin/env node
// Differential test tier: every query of queries/*.sql runs on sqe (sqe-cli,
// one process per query) and on DuckDB (@duckdb/node-api, in this process)
// over the same generated Hive-partitioned CSV warehouse, and the results are
// compared row by row. See README.md beside this file.
//
//   node run.mjs [--sqe PATH] [--min-pass N] [--filter REGEX] [--category C[,C]]
//                [--jobs N] [--work DIR] [--keep] [--verbose] [--show NAME] [--report FILE]
import { DuckDBInstance } from '@duckdb/node-api';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeWarehouse } from './gen_data.mjs';
import { DB, TABLES, allColumns, duckType, kindOf } from './schema.mjs';
import {
  compareRows, duckCell, parseQueryFile, parseSkipFile, parseSqeJson, showRow,
} from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');

function usage(code) {
  console.error(`usage: node run.mjs [options]
  --sqe PATH          sqe-cli to test (default: $SQE_CLI or <repo>/build/sqe-cli)
  --min-pass N        fail when fewer than N queries pass
  --filter REGEX      only queries whose name matches
  --category C[,C]    only these categories
  --queries FILE      query file(s) to run (repeatable; default: queries/*.sql)
  --jobs N            sqe processes at once (default 2)
  --work DIR          warehouse folder (default: a new temp folder, removed after)
  --keep              keep the temp folder
  --verbose           print every query's outcome
  --show NAME         run one query and print both engines' rows
  --report FILE       write every outcome as JSON
  --oracle-check      check the queries, not sqe: each must run on DuckDB and give the
                      same answer when the tables' rows are stored in another order`);
  process.exit(code);
}

const opt = { sqe: process.env.SQE_CLI || path.join(REPO, 'build', 'sqe-cli'), minPass: 0, jobs: 2, queries: [] };
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const next = () => { if (i + 1 >= a.length) usage(2); return a[++i]; };
    switch (a[i]) {
      case '--sqe': opt.sqe = path.resolve(next()); break;
      case '--min-pass': opt.minPass = Number(next()); break;
      case '--filter': opt.filter = new RegExp(next()); break;
      case '--category': opt.categories = new Set(next().split(',')); break;
      case '--queries': opt.queries.push(path.resolve(next())); break;
      case '--jobs': opt.jobs = Math.max(1, Number(next())); break;
      case '--work': opt.work = path.resolve(next()); break;
      case '--keep': opt.keep = true; break;
      case '--oracle-check': opt.oracleCheck = true; break;
      case '--verbose': opt.verbose = true; break;
      case '--show': opt.show = next(); break;
      case '--report': opt.report = path.resolve(next()); break;
      case '-h': case '--help': usage(0); break;
      default: console.error(`run.mjs: unknown argument ${a[i]}`); usage(2);
    }
  }
}
if (!opt.oracleCheck && !fs.existsSync(opt.sqe)) { console.error(`differential: sqe-cli not found at ${opt.sqe} (build it, or pass --sqe)`); process.exit(2); }

// ------------------------------------------------------------------ queries
const queryFiles = opt.queries.length ? opt.queries
  : fs.readdirSync(path.join(HERE, 'queries')).filter((f) => f.endsWith('.sql')).sort().map((f) => path.join(HERE, 'queries', f));
let queries = queryFiles.flatMap(parseQueryFile);
{
  const seen = new Map();
  for (const q of queries) {
    if (seen.has(q.name)) { console.error(`differential: duplicate query name ${q.name} (${seen.get(q.name)} and ${q.file}:${q.line})`); process.exit(2); }
    seen.set(q.name, `${q.file}:${q.line}`);
  }
}
const totalDefined = queries.length;
if (opt.show) queries = queries.filter((q) => q.name === opt.show);
if (opt.filter) queries = queries.filter((q) => opt.filter.test(q.name));
if (opt.categories) queries = queries.filter((q) => opt.categories.has(q.category));
if (!queries.length) { console.error('differential: no query selected'); process.exit(2); }
const skips = parseSkipFile(path.join(HERE, 'skip.txt'));
const skipOf = (name) => skips.find((s) => s.re.test(name));

// ------------------------------------------------------------------ warehouse
const work = opt.work || fs.mkdtempSync(path.join(os.tmpdir(), 'sqe-difftest-'));
const cleanup = () => { if (!opt.work && !opt.keep) fs.rmSync(work, { recursive: true, force: true }); };
const t0 = performance.now();
const layout = writeWarehouse(work);
const whRoot = path.join(work, 'wh');
fs.mkdirSync(whRoot, { recursive: true });
const sqlStr = (s) => `'${String(s).replace(/'/g, "''")}'`;

// sqe: Athena DDL over the files
function sqeDdl() {
  const stmts = [`CREATE SCHEMA IF NOT EXISTS lake.${DB}`];
  for (const t of TABLES) {
    const cols = t.columns.map(([c, ty]) => `${c} ${ty}`).join(', ');
    const parts = t.partitions.length ? ` PARTITIONED BY (${t.partitions.map(([c, ty]) => `${c} ${ty}`).join(', ')})` : '';
    stmts.push(`DROP TABLE IF EXISTS lake.${DB}.${t.name}`);
    stmts.push(`CREATE EXTERNAL TABLE lake.${DB}.${t.name} (${cols})${parts} ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ` +
      `STORED AS TEXTFILE LOCATION ${sqlStr(layout[t.name].location + '/')}`);
  }
  return stmts;
}
if (!opt.oracleCheck) {
  const args = ['--embedded', '--hive-root', `lake=${whRoot}`, '--format', 'csv'];
  for (const s of sqeDdl()) args.push('-c', s);
  const r = spawnSync(opt.sqe, args, { encoding: 'utf8' });
  if (r.status !== 0) { console.error(`differential: sqe DDL failed:\n${r.stderr}`); cleanup(); process.exit(1); }
}

// DuckDB: every column read as text, then typed as LazySimpleSerDe does:
// \N is NULL for every type, an empty field is NULL for non-string types.
const inst = await DuckDBInstance.create(':memory:', {
  threads: '1', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false',
});
const compatSql = fs.readFileSync(path.join(HERE, 'duck_compat.sql'), 'utf8').replace(/--[^\n]*/g, '').split(';').filter((x) => x.trim());
async function duckSession(catalog) {
  const c = await inst.connect();
  await c.run(`USE ${catalog}.${DB}`); // bare, db.t and lake.db.t names resolve as in sqe
  await c.run(`SET integer_division = true`);
  await c.run(`SET default_null_order = 'nulls_last'`);
  for (const stmt of compatSql) await c.run(stmt);
  return c;
}
{
  const c = await inst.connect();
  await c.run(`ATTACH ':memory:' AS lake`);
  await c.run(`CREATE SCHEMA lake.${DB}`);
  for (const t of TABLES) {
    const loc = layout[t.name].location;
    const glob = path.join(loc, ...t.partitions.map(() => '*'), '*.csv');
    const colSpec = '{' + t.columns.map(([col]) => `'${col}': 'VARCHAR'`).join(', ') + '}';
    const hive = t.partitions.length
      ? `hive_partitioning = true, hive_types = {${t.partitions.map(([col, ty]) => `'${col}': '${duckType(ty)}'`).join(', ')}}`
      : 'hive_partitioning = false';
    const vlen = (ty) => (ty.match(/^varchar\((\d+)\)$/) || [])[1]; // Hive cuts varchar(n) values to n characters
    const sel = t.columns.map(([col, ty]) => (kindOf(ty) === 'str'
      ? `CASE WHEN ${col} = '\\N' THEN NULL ELSE ${vlen(ty) ? `substr(${col}, 1, ${vlen(ty)})` : col} END AS ${col}`
      : `CASE WHEN ${col} = '\\N' OR ${col} = '' THEN NULL ELSE CAST(${col} AS ${duckType(ty)}) END AS ${col}`));
    const src = `read_csv(${sqlStr(glob)}, header = false, delim = ',', quote = '', escape = '', ` +
      `nullstr = '<no null string>', auto_detect = false, null_padding = true, strict_mode = false, columns = ${colSpec}, ${hive})`;
    await c.run(`CREATE TABLE lake.${DB}.${t.name} AS SELECT ${[...sel, ...t.partitions.map(([col]) => col)].join(', ')} FROM ${src}`);
  }
  if (opt.oracleCheck) {
    // the same tables with their rows in another order: a query whose answer
    // depends on row order (LIMIT or a window without a total order) shows up
    await c.run(`ATTACH ':memory:' AS shuffled`);
    await c.run(`CREATE SCHEMA shuffled.${DB}`);
    for (const t of TABLES) {
      await c.run(`CREATE TABLE shuffled.${DB}.${t.name} AS SELECT * FROM lake.${DB}.${t.name} ORDER BY hash(rowid * 7919 + 13)`);
    }
  }
  c.closeSync?.();
}
const con = await duckSession('lake');

let duckChain = Promise.resolve();
function runDuck(sql) {
  const p = duckChain.then(async () => {
    try {
      const r = await con.runAndReadAll(sql);
      return { rows: r.getRows().map((row) => row.map(duckCell)), columns: r.columnNames() };
    } catch (e) {
      return { error: String(e.message || e).split('\n')[0] };
    }
  });
  duckChain = p.then(() => {}, () => {});
  return p;
}

function runSqe(sql) {
  return new Promise((resolve) => {
    const args = ['--embedded', '--hive-root', `lake=${whRoot}`, '--format', 'json', '-c', `USE lake.${DB}`, '-c', sql];
    const child = spawn(opt.sqe, args, { env: { ...process.env, SQE_LOG: 'debug' } });
    let out = '', err = '';
    // decode as a stream: a UTF-8 character split across two pipe reads stays whole
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const m = err.match(/^Error: (.*)$/m);
        const cls = err.match(/class: (\w+)/);
        resolve({ error: m ? m[1] : (signal ? `killed by ${signal}${signal === 'SIGKILL' ? ' (timeout 30 s?)' : ''}` : `exit ${code}: ${err.trim().slice(0, 300)}`), errorClass: cls ? cls[1] : null, crashed: !m });
        return;
      }
      try {
        const res = parseSqeJson(out);
        const last = res[res.length - 1] || { rows: [], columns: [] };
        resolve({ rows: last.rows, columns: last.columns });
      } catch (e) {
        resolve({ error: `unparsable output: ${e.message}`, crashed: true });
      }
    });
  });
}

// ------------------------------------------------------------------ oracle check
if (opt.oracleCheck) {
  const con2 = await duckSession('shuffled');
  const run2 = async (sql) => {
    try {
      const r = await con2.runAndReadAll(sql);
      return { rows: r.getRows().map((row) => row.map(duckCell)) };
    } catch (e) { return { error: String(e.message || e).split('\n')[0] }; }
  };
  let bad = 0, checked = 0;
  for (const q of queries) {
    if (q.expect || q.error) continue;
    checked++;
    const a = await runDuck(q.duckdb || q.sql);
    const b = await run2(q.duckdb || q.sql);
    const why = a.error ? `duckdb error: ${a.error}` : b.error ? `duckdb error (shuffled): ${b.error}`
      : compareRows(b.rows, a.rows, q.mode === 'ordered');
    const big = !a.error && a.rows.length > 20000 ? `${a.rows.length} rows (keep results small)` : null;
    if (why || big) { bad++; console.log(`ORACLE ${q.name} ${path.relative(REPO, q.file)}:${q.line}\n  ${q.sql}\n  => ${why ? why.replace('sqe', 'shuffled') : big}`); }
  }
  console.log(`oracle check: ${checked} queries, ${bad} with problems`);
  cleanup();
  process.exit(bad ? 1 : 0);
}

// ------------------------------------------------------------------ self-check
// Both engines must see the same tables before any query is worth comparing.
function selfCheckSql(t) {
  const items = ['count(*)'];
  for (const [c, ty] of allColumns(t)) {
    const k = kindOf(ty);
    items.push(`count(${c})`);
    if (k === 'int' || k === 'dec' || k === 'dbl') items.push(`sum(${c})`, `min(${c})`, `max(${c})`);
    if (k === 'str') items.push(`sum(length(${c}))`, `count(DISTINCT ${c})`, `min(${c})`, `max(${c})`, `count_if(${c} = '')`);
    if (k === 'date' || k === 'ts') items.push(`min(${c})`, `max(${c})`, `count(DISTINCT ${c})`);
    if (k === 'bool') items.push(`count_if(${c})`);
  }
  const checks = [{ name: `selfcheck_${t.name}`, sql: `SELECT ${items.join(', ')} FROM ${t.name}` }];
  for (const [p] of t.partitions) {
    checks.push({ name: `selfcheck_${t.name}_${p}`, sql: `SELECT ${p}, count(*), count(${t.columns[0][0]}) FROM ${t.name} GROUP BY ${p}` });
  }
  return checks;
}
{
  let bad = 0;
  for (const t of TABLES) {
    for (const c of selfCheckSql(t)) {
      const [s, d] = await Promise.all([runSqe(c.sql), runDuck(c.sql)]);
      const why = s.error ? `sqe error: ${s.error}` : d.error ? `duckdb error: ${d.error}` : compareRows(s.rows, d.rows, false);
      if (why) { bad++; console.error(`differential: ${c.name}: the engines do not load the same table: ${why}\n  ${c.sql}`); }
    }
  }
  if (bad) { console.error('differential: self-check failed; no query compared'); cleanup(); process.exit(1); }
}
const tSetup = performance.now();

// ------------------------------------------------------------------ queries
const NOT_SUPPORTED = (r) => r.errorClass === 'NOT_SUPPORTED' || /not supported/i.test(r.error || '');

async function runOne(q) {
  const tq = performance.now();
  const sqe = await runSqe(q.sql);
  const sqeMs = performance.now() - tq;
  const res = { name: q.name, category: q.category, where: `${path.relative(REPO, q.file)}:${q.line}`, sql: q.sql };
  const skip = skipOf(q.name);
  const verdict = (status, detail) => Object.assign(res, { status, detail });
  let v;
  if (q.error) {
    if (sqe.error && sqe.error.toLowerCase().includes(q.error.toLowerCase())) v = verdict('pass', 'expected error');
    else if (sqe.error && NOT_SUPPORTED(sqe)) v = verdict('unsupported', sqe.error);
    else v = verdict('fail', sqe.error ? `sqe error '${sqe.error}', expected one containing '${q.error}'` : `sqe succeeded (${sqe.rows.length} rows), expected an error containing '${q.error}'`);
  } else if (sqe.error) {
    if (NOT_SUPPORTED(sqe) && !sqe.crashed) {
      // DuckDB still runs it, so a broken query shows now, not when the feature lands
      const duck = q.expect ? {} : await runDuck(q.duckdb || q.sql);
      v = duck.error ? verdict('fail', `duckdb (oracle) error: ${duck.error}`) : verdict('unsupported', sqe.error);
    }
    else v = verdict('fail', `sqe ${sqe.crashed ? 'crashed' : 'error'}: ${sqe.error}`);
  } else if (q.expect) {
    const why = compareRows(sqe.rows, q.expect, q.mode === 'ordered', true);
    v = why ? verdict('fail', `vs written Trino expectation: ${why}`) : verdict('pass');
  } else {
    const td = performance.now();
    const duck = await runDuck(q.duckdb || q.sql);
    res.duckMs = Math.round(performance.now() - td);
    if (duck.error) v = verdict('fail', `duckdb (oracle) error: ${duck.error}`);
    else {
      const why = compareRows(sqe.rows, duck.rows, q.mode === 'ordered');
      v = why ? verdict('fail', `vs duckdb: ${why}`) : verdict('pass');
      res.duckRows = duck.rows.length;
    }
  }
  res.sqeMs = Math.round(sqeMs);
  res.ms = Math.round(performance.now() - tq);
  if (skip) {
    skip.used++;
    if (v.status === 'pass') res.staleSkip = skip.pattern;
    else { const [st, de] = [res.status, res.detail]; res.status = 'skiplist'; res.detail = `${skip.reason} [${st}: ${de}]`; }
  }
  if (opt.show) {
    const duck = await runDuck(q.duckdb || q.sql);
    console.log(`-- ${q.name} (${q.category}, ${q.mode}) ${res.where}\n${q.sql}`);
    if (q.duckdb) console.log(`-- duckdb:\n${q.duckdb}`);
    console.log(`-- sqe: ${sqe.error ? 'ERROR ' + sqe.error : sqe.rows.length + ' rows; columns ' + (sqe.columns || []).join(', ')}`);
    for (const r of (sqe.rows || []).slice(0, 50)) console.log('   ' + showRow(r));
    console.log(`-- duckdb: ${duck.error ? 'ERROR ' + duck.error : duck.rows.length + ' rows; columns ' + duck.columns.join(', ')}`);
    for (const r of (duck.rows || []).slice(0, 50)) console.log('   ' + showRow(r));
    if (q.expect) { console.log('-- expected (Trino):'); for (const r of q.expect) console.log('   ' + showRow(r)); }
  }
  return res;
}

const results = new Array(queries.length);
{
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const i = next++;
      results[i] = await runOne(queries[i]);
      const r = results[i];
      if (opt.verbose) console.log(`${r.status.padEnd(11)} ${r.name}${r.detail ? ': ' + r.detail : ''}`);
    }
  };
  await Promise.all(Array.from({ length: opt.jobs }, worker));
}
const tEnd = performance.now();
con.closeSync?.();
cleanup();

// ------------------------------------------------------------------ report
const cats = new Map();
for (const r of results) {
  if (!cats.has(r.category)) cats.set(r.category, { pass: 0, unsupported: 0, skiplist: 0, fail: 0 });
  cats.get(r.category)[r.status]++;
}
const failed = results.filter((r) => r.status === 'fail');
for (const r of failed) console.log(`FAIL ${r.name} [${r.category}] ${r.where}\n  ${r.sql.replace(/\n/g, '\n  ')}\n  => ${r.detail}`);
if (opt.verbose) for (const r of results.filter((x) => x.status === 'unsupported')) console.log(`unsupported ${r.name}: ${r.detail}`);
{
  // which missing features hold how many queries back
  const why = new Map();
  for (const r of results.filter((x) => x.status === 'unsupported')) {
    const k = r.detail.replace(/ at line \d+:\d+$/, '');
    why.set(k, (why.get(k) || 0) + 1);
  }
  if (why.size) {
    console.log('\nskipped as not supported by sqe (first error of each query):');
    for (const [k, n] of [...why.entries()].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(6)}  ${k}`);
  }
}
const stale = results.filter((r) => r.staleSkip);
for (const r of stale) console.log(`note: ${r.name} passes now; remove its skip entry '${r.staleSkip}' from skip.txt`);
if (!opt.filter && !opt.categories && !opt.show && opt.queries.length === 0)
  for (const s of skips.filter((x) => !x.used)) console.log(`note: skip entry '${s.pattern}' (skip.txt:${s.line}) matches no query`);

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`\n${pad('category', 22)}${lpad('total', 7)}${lpad('passed', 8)}${lpad('unsupp.', 9)}${lpad('skiplist', 10)}${lpad('failed', 8)}`);
const tot = { pass: 0, unsupported: 0, skiplist: 0, fail: 0 };
for (const [c, n] of [...cats.entries()].sort()) {
  const total = n.pass + n.unsupported + n.skiplist + n.fail;
  console.log(`${pad(c, 22)}${lpad(total, 7)}${lpad(n.pass, 8)}${lpad(n.unsupported, 9)}${lpad(n.skiplist, 10)}${lpad(n.fail, 8)}`);
  for (const k of Object.keys(tot)) tot[k] += n[k];
}
console.log(`${pad('all', 22)}${lpad(results.length, 7)}${lpad(tot.pass, 8)}${lpad(tot.unsupported, 9)}${lpad(tot.skiplist, 10)}${lpad(tot.fail, 8)}`);
console.log(`(${results.length} of ${totalDefined} queries; setup ${((tSetup - t0) / 1000).toFixed(1)} s, queries ${((tEnd - tSetup) / 1000).toFixed(1)} s; ` +
  `skipped = ${tot.unsupported} answered "not supported" by sqe + ${tot.skiplist} on skip.txt)`);
if (opt.report) fs.writeFileSync(opt.report, JSON.stringify({ sqe: opt.sqe, results }, null, 1) + '\n');

const skipped = tot.unsupported + tot.skiplist;
console.log(`differential: ${tot.pass} passed, ${skipped} skipped (not supported), ${tot.fail} failed`);
let code = tot.fail ? 1 : 0;
if (opt.minPass && tot.pass < opt.minPass) {
  console.log(`differential: only ${tot.pass} passed, fewer than --min-pass ${opt.minPass}`);
  code = 1;
}
process.exit(code);

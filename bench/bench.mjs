#!/usr/bin/env node
// Runs the shared benchmark queries on sqe and on DuckDB, alternating query by
// query so both see the same machine state, then checks sqe's answers against
// DuckDB's (check.mjs) and prints medians and ratios.
//
// sqe side: one sqe-cli process per query running the query 1 + runs times
// (--timing gives each statement's engine time; the first run is warm-up).
// DuckDB side: duck.mjs --only Qn (in-process timing, 1 warm-up + runs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const sqe = opt('--sqe'), peer = opt('--peer'), data = opt('--data'), out = opt('--out');
const runs = Number(opt('--runs', '5'));
const only = new Set(opt('--only', 'Q1,Q2,Q3,Q4,Q5,Q6,Q7,Q8,Q9').split(','));
fs.mkdirSync(out, { recursive: true });

const wh = path.join(out, 'warehouse');
fs.mkdirSync(wh, { recursive: true });
const loc = path.join(data, 'csv', 'orders') + '/';
const ddl = `CREATE EXTERNAL TABLE IF NOT EXISTS bench.b.orders (id bigint, customer_id bigint, amount double, ` +
  `status string, note string, qty int) PARTITIONED BY (dt string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ` +
  `STORED AS TEXTFILE LOCATION '${loc}'`;
const base = ['--embedded', '--hive-root', `bench=${wh}`];
let r = spawnSync(sqe, [...base, '-c', ddl], { encoding: 'utf8' });
if (r.status !== 0) { console.error(r.stderr); process.exit(1); }

const queries = fs.readFileSync(path.join(peer, 'queries.sql'), 'utf8').split('\n')
  .map((l) => l.trim()).filter((l) => l && !l.startsWith('--'))
  .map((sql, i) => ({ name: `Q${i + 1}`, sql })).filter((q) => only.has(q.name));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const sqeOut = { engine: 'sqe', queries: [] }, duckOut = { engine: 'duckdb', queries: [] };
const rowsOf = (json) => JSON.parse(json).map((o) => Object.values(o));
for (const q of queries) {
  const sql = `USE bench.b; ${q.sql}`;
  const cargs = [...base, '--timing', '--format', 'json', '-c', 'USE bench.b'];
  for (let i = 0; i <= runs; i++) cargs.push('-c', q.sql);
  r = spawnSync(sqe, cargs, { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) { console.error(`sqe ${q.name} failed: ${r.stderr}`); process.exit(1); }
  const times = [...r.stderr.matchAll(/Time: ([0-9.]+) ms/g)].map((m) => Number(m[1])).slice(2); // USE + warm-up
  // The CLI prints one JSON array per statement; keep the last one.
  const arrays = r.stdout.trim().split(/\n(?=\[)/);
  sqeOut.queries.push({ name: q.name, sql: q.sql, median_ms: median(times), times_ms: times, rows: rowsOf(arrays[arrays.length - 1]) });
  const dj = path.join(out, `duck-${q.name}.json`);
  r = spawnSync('node', [path.join(peer, 'duck.mjs'), data, 'csv', path.join(peer, 'queries.sql'), '--only', q.name,
    '--runs', String(runs), '--json', dj], { encoding: 'utf8', cwd: peer, maxBuffer: 1 << 30 });
  if (r.status !== 0) { console.error(`duckdb ${q.name} failed: ${r.stderr}`); process.exit(1); }
  const d = JSON.parse(fs.readFileSync(dj, 'utf8')).queries[0];
  duckOut.queries.push(d);
  const s = sqeOut.queries.at(-1);
  console.error(`${q.name}: sqe ${s.median_ms.toFixed(1)} ms, duckdb ${d.median_ms.toFixed(1)} ms, ratio ${(s.median_ms / d.median_ms).toFixed(2)}`);
}
fs.writeFileSync(path.join(out, 'sqe.json'), JSON.stringify(sqeOut, null, 2));
fs.writeFileSync(path.join(out, 'duck.json'), JSON.stringify(duckOut, null, 2));
const chk = spawnSync('node', [path.join(peer, 'check.mjs'), path.join(out, 'duck.json'), path.join(out, 'sqe.json')], { encoding: 'utf8' });
console.log('## Answers (check.mjs duckdb vs sqe)\n```\n' + chk.stdout.trim() + '\n```\n');
console.log('| query | sqe median ms | duckdb median ms | sqe / duckdb |\n|---|---:|---:|---:|');
let ts = 0, td = 0;
for (let i = 0; i < sqeOut.queries.length; i++) {
  const s = sqeOut.queries[i], d = duckOut.queries[i];
  ts += s.median_ms; td += d.median_ms;
  console.log(`| ${s.name} | ${s.median_ms.toFixed(1)} | ${d.median_ms.toFixed(1)} | ${(s.median_ms / d.median_ms).toFixed(2)} |`);
}
console.log(`| **sum** | ${ts.toFixed(0)} | ${td.toFixed(0)} | ${(ts / td).toFixed(2)} |`);
process.exit(chk.status === 0 ? 0 : 1);

#!/usr/bin/env node
// sqe vs DuckDB on the same Hive-partitioned CSV files, in one run, alternating case by case
// (sqe first, then DuckDB), same thread count; see bench/README.md. bench/run.sh sets it up.
//
//   node bench.mjs --sqe build/sqe-cli --peer DIR --data DIR --shipments DIR --out DIR
//                  [--runs 5] [--export-runs 3] [--threads 2] [--only LIST]
//                  [--timeout 900] [--check-timeout 120] [--rss-cap-mb 4096] [--format csv|parquet|json]
//
// Every measured program runs in its own process under /usr/bin/time (peak RSS, %M), one case per
// process: sqe-cli runs the statement 1 + runs times (--timing gives each statement's engine time; the
// first run is a warm-up), duck-run.mjs does the same in DuckDB. Cases (--only takes ids or groups):
//   queries  Q1..Q10 of the harness's queries.sql, J3 (3-way join)       timed, answers checked
//   export   SELECT * FROM orders as CSV to /dev/null                      wall time per process, RSS
//   g10m     GROUP BY 10M distinct keys, under --memory-limit 256MB and without a limit
//   mem      the memory assertions of issue 5 (distinct-, string-heavy, wide select) under a limit
//   functions  function throughput over every row (issue 8): regexp_extract, date_parse and
//            json_extract_scalar over 10M values next to DuckDB's regexp_extract, strptime and
//            json_extract_string; not in the default list: --only functions (alias funcs)
// A watchdog kills a measured program past its timeout or past --rss-cap-mb of RSS (this is a shared
// machine); the result then says so. Output: a Markdown report on stdout and in <out>/report.md, the
// raw numbers in <out>/results.json. Exit status 1 when answers differ or sqe died of a signal it was
// not sent by the watchdog; memory FAIL lines do not change it (they are measurements, not tests).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const sqe = path.resolve(opt('--sqe')), peer = path.resolve(opt('--peer')), data = path.resolve(opt('--data'));
const ships = path.resolve(opt('--shipments')), out = path.resolve(opt('--out'));
const runs = Number(opt('--runs', '5')), exportRuns = Number(opt('--export-runs', '3'));
const threads = String(opt('--threads', '2'));
const timeoutS = Number(opt('--timeout', '900')), checkTimeoutS = Number(opt('--check-timeout', '120'));
const rssCapKb = Number(opt('--rss-cap-mb', '4096')) * 1024;
// The format of orders and customers (shipments are always CSV): csv (default), parquet or json, as
// gen.mjs writes them under <data>/<format>/.
const format = opt('--format', 'csv');
if (!['csv', 'parquet', 'json'].includes(format)) { console.error(`bench: unknown --format ${format}`); process.exit(2); }
fs.mkdirSync(out, { recursive: true });
const sqlDir = path.join(out, 'sql');
fs.mkdirSync(sqlDir, { recursive: true });

// ---------------------------------------------------------------------------------------------------
// Cases.
const harnessQueries = fs.readFileSync(path.join(peer, 'queries.sql'), 'utf8').split('\n')
  .map((l) => l.trim()).filter((l) => l && !l.startsWith('--')).map((sql, i) => ({ id: `Q${i + 1}`, sql }));
const wide = (n, item, from = '') => `SELECT ${Array.from({ length: n }, (_, i) => item(i + 1)).join(', ')}${from}`;
const cases = [
  ...harnessQueries.map((q) => ({ ...q, group: 'queries', kind: 'query' })),
  { id: 'J3', group: 'queries', kind: 'query', title: '3-way join + GROUP BY',
    sql: 'SELECT c.country, s.carrier, count(*), sum(o.amount), avg(s.cost) FROM orders o JOIN shipments s ON o.id = s.order_id ' +
      'JOIN customers c ON o.customer_id = c.customer_id GROUP BY c.country, s.carrier ORDER BY 1, 2' },
  // Issue 6: a selective filter on a column the files are sorted by (id ranges per file): the report
  // gives the fraction of Parquet row groups sqe read (EXPLAIN ANALYZE's counters).
  { id: 'P-sorted', group: 'pruning', kind: 'query', rowGroups: true, title: 'selective filter on the sorted id column',
    sql: 'SELECT count(*), sum(amount) FROM orders WHERE id BETWEEN 5000001 AND 5020000' },
  { id: 'EXPORT', group: 'export', kind: 'export', title: 'SELECT * as CSV to /dev/null', sql: 'SELECT * FROM orders',
    duckSql: "COPY (SELECT * FROM orders) TO '/dev/null' (FORMAT csv, HEADER true)" },
  { id: 'G10M-256MB', group: 'g10m', kind: 'query', memLimit: '256MB', maxRuns: 3, title: 'GROUP BY 10M keys, 256MB',
    sql: 'SELECT count(*) FROM (SELECT id, sum(amount) FROM orders GROUP BY id)', mustComplete: true },
  { id: 'G10M', group: 'g10m', kind: 'query', maxRuns: 3, title: 'GROUP BY 10M keys, no limit',
    sql: 'SELECT count(*) FROM (SELECT id, sum(amount) FROM orders GROUP BY id)' },
  // Function throughput over every row (10M with the default data): issue 8. Answers are integers.
  { id: 'F-date_parse', group: 'functions', kind: 'query', title: 'date_parse over 10M strings (DuckDB strptime)',
    sql: "SELECT count(*), sum(hour(date_parse(dt || ' ' || CAST(qty AS varchar) || ':' || CAST(id % 60 AS varchar), '%Y-%m-%d %H:%i'))) FROM orders",
    duckSql: "SELECT count(*), sum(hour(strptime(dt || ' ' || CAST(qty AS varchar) || ':' || CAST(id % 60 AS varchar), '%Y-%m-%d %H:%M'))) FROM orders" },
  { id: 'M-distinct-256MB', group: 'mem', kind: 'check', memLimit: '256MB', title: 'distinct-heavy, 256MB',
    sql: 'SELECT count(DISTINCT note), count(DISTINCT id) FROM orders' },
  { id: 'M-distinct-64MB', group: 'mem', kind: 'check', memLimit: '64MB', title: 'distinct-heavy, 64MB',
    sql: 'SELECT count(DISTINCT note), count(DISTINCT id) FROM orders' },
  { id: 'M-string-64MB', group: 'mem', kind: 'check', memLimit: '64MB', title: 'string-heavy, 64MB',
    sql: "SELECT max(length(lpad(note, 1000000, 'x'))) FROM orders WHERE dt = '2026-01-01'" },
  { id: 'M-wide-const-64MB', group: 'mem', kind: 'check', memLimit: '64MB', title: '60,000 constants, 64MB',
    sql: wide(60000, (i) => `${i} AS c${i}`) },
  { id: 'M-wide-cols-64MB', group: 'mem', kind: 'check', memLimit: '64MB', title: '60,000 columns x 5 rows, 64MB',
    sql: wide(60000, (i) => `${i % 2 ? 'amount' : 'qty'} AS c${i}`, " FROM orders WHERE dt = '2026-01-01' AND id <= 5") },
  { id: 'F-regexp-extract', group: 'functions', kind: 'query', maxRuns: 3, title: 'regexp_extract over 10M notes',
    sql: "SELECT count(*), sum(length(regexp_extract(note, '([a-z]+)[^a-z]*$', 1))) FROM orders" },
  { id: 'F-json-extract-scalar', group: 'functions', kind: 'query', maxRuns: 3, title: 'json_extract_scalar over 10M documents',
    sql: `SELECT sum(CAST(json_extract_scalar('{"k":{"id":' || CAST(id AS varchar) || ',"q":"' || status || '"},"t":[1,2]}', '$.k.id') AS bigint)) FROM orders`,
    duckSql: `SELECT sum(CAST(json_extract_string('{"k":{"id":' || CAST(id AS varchar) || ',"q":"' || status || '"},"t":[1,2]}', '$.k.id') AS bigint)) FROM orders` },
];
const onlyArg = opt('--only', 'queries,pruning,export,g10m,mem').split(',').map((s) => s.trim()).filter(Boolean);
const only = new Set(onlyArg.map((s) => (s.toLowerCase() === 'funcs' ? 'functions' : s).toUpperCase()));
const selected = cases.filter((c) => only.has(c.id.toUpperCase()) || only.has(c.group.toUpperCase()));
const mib = (kb) => (kb == null ? null : kb / 1024);

// ---------------------------------------------------------------------------------------------------
// Measuring one process: /usr/bin/time -f for wall/user/sys/peak RSS/exit, a watchdog for timeout and
// RSS cap (it kills the measured program, the child of time, so time still reports), and the CPU that
// other processes burnt meanwhile (busy jiffies in /proc/stat minus the measured process's own CPU).
const CLK_TCK = 100;
function busyCpuS() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] || 0)) / CLK_TCK; // user nice system irq softirq steal
  } catch { return 0; }
}
function childOf(pid) {
  try { return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || 0; } catch { return 0; }
}
function rssKb(pid) {
  try { const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8')); return m ? Number(m[1]) : 0; } catch { return 0; }
}
let timeSeq = 0;
function measure(cmd, argv, { stdout = 'pipe', timeout = timeoutS, env = {}, cwd } = {}) {
  const tfile = path.join(out, `time-${process.pid}-${timeSeq++}.txt`);
  return new Promise((resolve) => {
    const busy0 = busyCpuS(), t0 = performance.now();
    const p = spawn('/usr/bin/time', ['-o', tfile, '-f', '%e %U %S %M %x', cmd, ...argv], {
      stdio: ['ignore', stdout === 'ignore' ? 'ignore' : 'pipe', 'pipe'], env: { ...process.env, ...env }, cwd,
    });
    const chunks = [], errChunks = [];
    let lines = 0, killedFor = null;
    if (p.stdout) {
      p.stdout.on('data', (b) => {
        if (stdout === 'count') { for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) lines++; } else chunks.push(b);
      });
    }
    p.stderr.on('data', (b) => errChunks.push(b));
    const dog = setInterval(() => {
      const c = childOf(p.pid);
      if (!c) return;
      if (performance.now() - t0 > timeout * 1000) killedFor = `timed out after ${timeout} s`;
      else if (rssKb(c) > rssCapKb) killedFor = `killed at the RSS cap of ${rssCapKb / 1024} MiB`;
      else return;
      try { process.kill(c, 'SIGKILL'); } catch { /* gone */ }
    }, 100);
    p.on('close', () => {
      clearInterval(dog);
      const wallMs = performance.now() - t0, busy = busyCpuS() - busy0;
      let t = '';
      try { t = fs.readFileSync(tfile, 'utf8'); fs.unlinkSync(tfile); } catch { /* time itself died */ }
      const sig = /terminated by signal (\d+)/.exec(t);
      const last = t.trim().split('\n').at(-1).split(' ').map(Number);
      const [, user, sys, maxrss, exit] = last.length === 5 ? last : [null, 0, 0, null, null];
      resolve({
        wall_ms: wallMs, user_s: user, sys_s: sys, maxrss_kb: maxrss, exit: sig ? null : exit, signal: sig ? Number(sig[1]) : null,
        killed_for: killedFor, stdout: Buffer.concat(chunks).toString('utf8'), lines, stderr: Buffer.concat(errChunks).toString('utf8'),
        other_cpus: wallMs > 0 ? Math.max(0, busy - user - sys) / (wallMs / 1000) : 0,
      });
    });
  });
}
const median = (xs) => { if (!xs.length) return null; const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const sqeError = (stderr) => {
  const e = /^Error: (.*)$/m.exec(stderr), c = /^\s+class: ([A-Z_]+)/m.exec(stderr);
  return e ? `${c ? c[1] + ': ' : ''}${e[1]}` : null;
};
const outcome = (m, error) => m.killed_for ? m.killed_for
  : m.signal ? `died of signal ${m.signal}` : m.exit !== 0 ? (error || `exit status ${m.exit}`) : null;

// ---------------------------------------------------------------------------------------------------
// Setup: a fresh scratch warehouse with the three tables registered by Athena DDL.
const wh = path.join(out, 'warehouse');
fs.rmSync(wh, { recursive: true, force: true });
fs.mkdirSync(wh, { recursive: true });
const base = ['--embedded', '--hive-root', `bench=${wh}`, '--threads', threads];
// Athena DDL as a user would write it for each format.
const storage = {
  csv: `ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE`,
  parquet: `STORED AS PARQUET`,
  json: `ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe' STORED AS INPUTFORMAT ` +
    `'org.apache.hadoop.mapred.TextInputFormat' OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat'`,
}[format];
const ddl = [
  `CREATE EXTERNAL TABLE bench.b.orders (id bigint, customer_id bigint, amount double, status string, note string, qty int) ` +
    `PARTITIONED BY (dt string) ${storage} LOCATION '${path.join(data, format, 'orders')}/'`,
  `CREATE EXTERNAL TABLE bench.b.customers (customer_id bigint, name string, segment string, country string, signup_date date) ` +
    `${storage} LOCATION '${path.join(data, format, 'customers')}/'`,
  `CREATE EXTERNAL TABLE bench.b.shipments (order_id bigint, carrier string, shipped_date date, cost double) ` +
    `ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '${ships}/'`,
];
let r = spawnSync(sqe, [...base, ...ddl.flatMap((s) => ['-c', s])], { encoding: 'utf8' });
if (r.status !== 0) { console.error(`bench: DDL failed: ${r.stderr}`); process.exit(1); }
const duckRun = path.join(here, 'duck-run.mjs');
const duckArgs = (qfile, ofile, { memLimit, warmup = 1, nruns = runs } = {}) => [duckRun, '--peer', peer, '--data', data, '--format', format,
  '--shipments', ships, '--queries', qfile, '--out', ofile, '--threads', threads, '--runs', String(nruns), '--warmup', String(warmup),
  // sqe's sizes are powers of 1024 (README); DuckDB's MB is 10^6, so ask for MiB.
  ...(memLimit ? ['--memory-limit', memLimit.replace(/MB$/i, 'MiB'), '--temp-dir', path.join(out, 'duck-tmp')] : [])];

// DuckDB's peak RSS includes node and the DuckDB library: measure that floor once.
const floorQ = path.join(sqlDir, 'floor.json');
fs.writeFileSync(floorQ, JSON.stringify([{ name: 'floor', sql: 'SELECT 1' }]));
const floor = await measure('node', duckArgs(floorQ, path.join(out, 'duck-floor.json'), { warmup: 0, nruns: 1 }));
const sqeFloor = await measure(sqe, [...base, '-c', 'SELECT 1']);
console.error(`[bench] process floors: node+DuckDB ${mib(floor.maxrss_kb).toFixed(0)} MiB, sqe-cli ${mib(sqeFloor.maxrss_kb).toFixed(0)} MiB`);

// ---------------------------------------------------------------------------------------------------
const results = [];
const rowsOfJson = (text) => {
  const arrays = text.trim().split(/\n(?=\[)/); // one JSON array per statement; keep the last
  return JSON.parse(arrays[arrays.length - 1] || '[]').map((o) => Object.values(o));
};
for (const c of selected) {
  const res = { id: c.id, title: c.title || c.sql, sql: c.sql.length > 300 ? c.sql.slice(0, 120) + ` ... (${c.sql.length} chars)` : c.sql, kind: c.kind, memLimit: c.memLimit || null };
  const sqlFile = path.join(sqlDir, `${c.id}.sql`);
  fs.writeFileSync(sqlFile, c.sql + '\n');
  const limitArgs = c.memLimit ? ['--memory-limit', c.memLimit] : [];
  const n = c.kind === 'check' ? 0 : Math.min(runs, c.maxRuns || runs); // timed runs after the warm-up
  const tmo = c.kind === 'check' ? checkTimeoutS : timeoutS;

  // --- sqe
  if (c.kind === 'export') {
    const pr = [...base, '--format', 'csv', '-c', 'USE bench.b', '-f', sqlFile];
    const warm = await measure(sqe, pr, { stdout: 'count', timeout: tmo });
    const ms = [warm];
    res.sqe = { rows: warm.lines - 1, error: outcome(warm, sqeError(warm.stderr)) };
    if (!res.sqe.error) for (let i = 0; i < exportRuns; i++) ms.push(await measure(sqe, pr, { stdout: 'ignore', timeout: tmo }));
    const bad = ms.find((m) => outcome(m, sqeError(m.stderr)));
    Object.assign(res.sqe, {
      error: bad ? outcome(bad, sqeError(bad.stderr)) : null,
      times_ms: ms.slice(1).map((m) => +m.wall_ms.toFixed(1)), maxrss_kb: Math.max(...ms.map((m) => m.maxrss_kb || 0)),
      signal: bad ? bad.signal : null, killed_for: bad ? bad.killed_for : null, other_cpus: median(ms.map((m) => m.other_cpus)),
    });
    res.sqe.median_ms = median(res.sqe.times_ms);
  } else {
    const pr = [...base, '--timing', '--format', 'json', ...limitArgs, '-c', 'USE bench.b'];
    for (let i = 0; i <= n; i++) pr.push('-f', sqlFile);
    const m = await measure(sqe, pr, { timeout: tmo, env: { SQE_LOG: 'debug' } });
    const times = [...m.stderr.matchAll(/^Time: ([0-9.]+) ms/gm)].map((x) => Number(x[1])).slice(1); // drop USE
    const error = outcome(m, sqeError(m.stderr));
    res.sqe = {
      error, signal: m.signal, killed_for: m.killed_for, maxrss_kb: m.maxrss_kb, other_cpus: m.other_cpus, wall_ms: m.wall_ms,
      times_ms: error ? times : times.slice(c.kind === 'check' ? 0 : 1), // a failing statement still prints its time
    };
    res.sqe.median_ms = error ? (times.length ? times[times.length - 1] : m.wall_ms) : median(res.sqe.times_ms);
    if (!error) { try { res.sqe.rows = rowsOfJson(m.stdout); } catch (e) { res.sqe.error = `unparsable output: ${e.message}`; } }
  }

  // --- DuckDB
  const qf = path.join(sqlDir, `${c.id}.json`), of = path.join(out, `duck-${c.id}.json`);
  fs.writeFileSync(qf, JSON.stringify([{ name: c.id, sql: c.duckSql || c.sql }]));
  fs.rmSync(of, { force: true });
  const dm = await measure('node', duckArgs(qf, of, { memLimit: c.memLimit, warmup: c.kind === 'check' ? 0 : 1,
    nruns: c.kind === 'check' ? 1 : c.kind === 'export' ? exportRuns : n }), { timeout: tmo, cwd: out });
  let dq = null;
  try { dq = JSON.parse(fs.readFileSync(of, 'utf8')).queries[0]; } catch { /* died */ }
  res.duck = {
    error: outcome(dm, dm.stderr.trim().split('\n').at(-1)) || (dq ? dq.error || null : 'no result'),
    times_ms: dq && dq.times_ms || [], median_ms: dq ? (dq.median_ms != null ? dq.median_ms : dq.failed_after_ms) : null,
    maxrss_kb: dm.maxrss_kb, other_cpus: dm.other_cpus, rows: dq && dq.rows, killed_for: dm.killed_for, signal: dm.signal,
  };
  if (res.duck.error) res.duck.error = res.duck.error.split('\n')[0];
  if (c.kind === 'export' && res.duck.rows) res.duck.rows = Number(res.duck.rows[0][0]);

  // --- answers
  if (res.sqe.error || res.duck.error) res.answers = '-';
  else if (c.kind === 'export') res.answers = res.sqe.rows === res.duck.rows ? `ok (${res.sqe.rows} rows)` : `DIFF (${res.sqe.rows} vs ${res.duck.rows} rows)`;
  else {
    const sj = path.join(out, `check-${c.id}-sqe.json`), dj = path.join(out, `check-${c.id}-duck.json`);
    fs.writeFileSync(sj, JSON.stringify({ queries: [{ name: c.id, sql: c.sql, rows: res.sqe.rows }] }));
    fs.writeFileSync(dj, JSON.stringify({ queries: [{ name: c.id, sql: c.sql, rows: res.duck.rows }] }));
    const chk = spawnSync('node', [path.join(peer, 'check.mjs'), dj, sj], { encoding: 'utf8' });
    res.answers = (chk.stdout.split('\n')[0] || 'check failed').replace(/^[^:]*: /, '');
  }
  // --- row groups read (Parquet): one EXPLAIN ANALYZE run; also for every query case, where the
  // top-N dynamic filter may skip row groups (Q9)
  if (format === 'parquet' && (c.rowGroups || c.group === 'queries') && !res.sqe.error) {
    const ex = spawnSync(sqe, [...base, '-c', 'USE bench.b', '-c', `EXPLAIN ANALYZE ${c.sql}`], { encoding: 'utf8' });
    let total = 0, pruned = 0, dyn = 0;
    for (const m of (ex.stdout || '').matchAll(/row_groups=(\d+), row_groups_pruned=(\d+)(?:, dynamic_filter: row_groups_pruned=(\d+))?/g)) {
      total += Number(m[1]); pruned += Number(m[2]); dyn += Number(m[3] || 0);
    }
    if (total) res.sqe.row_groups = { total, pruned, dyn };
  }
  results.push(res);
  const fmt = (x) => (x == null ? '-' : x.toFixed(1));
  console.error(`[bench] ${c.id}: sqe ${res.sqe.error ? res.sqe.error.slice(0, 80) + ' after ' : ''}${fmt(res.sqe.median_ms)} ms ` +
    `${fmt(mib(res.sqe.maxrss_kb))} MiB | duckdb ${res.duck.error ? res.duck.error.slice(0, 80) + ' ' : ''}${fmt(res.duck.median_ms)} ms ` +
    `${fmt(mib(res.duck.maxrss_kb))} MiB | answers ${res.answers}`);
}

// ---------------------------------------------------------------------------------------------------
// Report.
const ms = (x) => (x == null ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1));
const mb = (kb) => (kb == null ? '-' : `${Math.round(kb / 1024)} MiB`);
const esc = (s) => String(s).replace(/\|/g, '\\|');
// A failed case shows its error and when it failed (a killed one only why).
const cell = (side) => !side.error ? ms(side.median_ms) : side.killed_for ? esc(side.killed_for)
  : `${esc(side.error.length > 90 ? side.error.slice(0, 87) + '...' : side.error)}${side.median_ms == null ? '' : ` after ${ms(side.median_ms)} ms`}`;
const L = [];
L.push(`sqe \`${sqe}\` vs DuckDB ${(() => { try { return JSON.parse(fs.readFileSync(path.join(out, 'duck-floor.json'), 'utf8')).env.version; } catch { return '?'; } })()}` +
  ` on ${data} (${format}), threads=${threads} for both, ${runs} timed runs after 1 warm-up per query (export: ${exportRuns} runs; checks: 1 run).`);
L.push(`Process floors (peak RSS of a trivial query): sqe-cli ${mb(sqeFloor.maxrss_kb)}, node + DuckDB ${mb(floor.maxrss_kb)}.`);
L.push('');
L.push('| case | sqe median ms | DuckDB median ms | sqe / DuckDB | sqe peak RSS | DuckDB peak RSS | answers | other CPUs busy (sqe / DuckDB) |');
L.push('|---|---:|---:|---:|---:|---:|---|---:|');
let sumS = 0, sumD = 0, nSum = 0;
for (const x of results) {
  const ok = !x.sqe.error && !x.duck.error;
  const ratio = ok && x.duck.median_ms ? (x.sqe.median_ms / x.duck.median_ms).toFixed(2) : '-';
  if (ok && x.kind === 'query' && /^Q\d+$|^J3$/.test(x.id)) { sumS += x.sqe.median_ms; sumD += x.duck.median_ms; nSum++; }
  L.push(`| ${x.id} | ${cell(x.sqe)} | ${cell(x.duck)} | ${ratio} | ${mb(x.sqe.maxrss_kb)} | ${mb(x.duck.maxrss_kb)} | ${esc(x.answers)} | ` +
    `${x.sqe.other_cpus.toFixed(1)} / ${x.duck.other_cpus.toFixed(1)} |`);
}
if (nSum) L.push(`| **sum Q1..J3** | ${ms(sumS)} | ${ms(sumD)} | ${(sumS / sumD).toFixed(2)} | | | | |`);
L.push('');
L.push('Times: sqe is the engine time of each statement (`--timing`: sqe_session_execute, the small result included, printing not); ' +
  'DuckDB is the wall time of `runAndReadAll` in its process (the result materialized in JS). EXPORT: sqe is the wall time of ' +
  'one whole sqe-cli process per run, printing CSV to /dev/null; DuckDB is the `COPY ... TO \'/dev/null\'` statement. ' +
  'Peak RSS: `/usr/bin/time -f %M` of the process that ran only that case (warm-up and timed runs). ' +
  '"other CPUs busy": CPU time other processes used during the measurement, divided by its wall time (the machine has ' +
  `${(await import('node:os')).cpus().length} CPUs).`);
const rg = results.filter((x) => x.sqe.row_groups);
if (rg.length) {
  L.push('');
  L.push('Parquet row groups sqe read (EXPLAIN ANALYZE; skipped by min/max statistics of the WHERE clause, or by the top-N dynamic filter):');
  L.push('');
  L.push('| case | row groups | skipped by statistics | skipped by dynamic filter | fraction read |');
  L.push('|---|---:|---:|---:|---:|');
  for (const x of rg) {
    const g = x.sqe.row_groups;
    L.push(`| ${x.id} | ${g.total} | ${g.pruned} | ${g.dyn} | ${((g.total - g.pruned - g.dyn) / g.total).toFixed(4)} |`);
  }
}
L.push('');
L.push('Cases:');
for (const x of results) L.push(`- ${x.id}: ${x.title}${x.title === x.sql ? '' : ` — \`${x.sql}\``}${x.memLimit ? ` (sqe \`--memory-limit ${x.memLimit}\`, DuckDB \`memory_limit='${x.memLimit.replace(/MB$/i, 'MiB')}'\`)` : ''}`);
L.push('');

// Memory checks of issue 5 (benchmark assertions, not tests).
const checks = [];
const verdict = (x, boundKb, what) => {
  const s = x.sqe, rss = s.maxrss_kb;
  const abort = s.signal && !s.killed_for;
  let v, why;
  if (abort) { v = 'FAIL'; why = `aborted (signal ${s.signal})`; }
  else if (rss != null && rss >= boundKb) { v = 'FAIL'; why = `peak RSS ${mb(rss)} >= ${mb(boundKb)}`; }
  else if (s.killed_for) { v = 'INCONCLUSIVE'; why = `${s.killed_for}, peak RSS ${mb(rss)} so far`; }
  else { v = 'PASS'; why = `peak RSS ${mb(rss)} < ${mb(boundKb)}`; }
  const status = s.killed_for ? `${s.killed_for}` : s.signal ? `signal ${s.signal}` : s.error ? `exit 1, ${s.error}` : 'exit 0, completed';
  checks.push(`${v.padEnd(12)} ${x.id}: ${what}; ${why}; sqe: ${status}`);
};
for (const x of results) {
  if (x.kind === 'export') verdict(x, 300 * 1024, 'SELECT * printed as CSV, peak RSS < 300 MiB');
  if (x.kind === 'check') {
    const lim = parseInt(x.memLimit, 10) * 1024;
    verdict(x, lim + 64 * 1024, `peak RSS < --memory-limit ${x.memLimit} + 64 MiB, no abort`);
  }
  if (x.id === 'G10M-256MB') {
    verdict(x, (256 + 64) * 1024, 'peak RSS < --memory-limit 256MB + 64 MiB, no abort');
    const s = x.sqe;
    checks.push(`${(s.error ? 'FAIL' : 'PASS').padEnd(12)} ${x.id}: completes under --memory-limit 256MB (needs spilling); ${s.error ? s.error : 'completed'}`);
  }
}
if (checks.length) { L.push('Memory checks (issue 5; measured with /usr/bin/time -f %M):'); L.push('```'); L.push(...checks); L.push('```'); }
const report = L.join('\n') + '\n';
fs.writeFileSync(path.join(out, 'report.md'), report);
fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify({ threads, runs, exportRuns, data, floors: { sqe_kb: sqeFloor.maxrss_kb, duck_kb: floor.maxrss_kb }, results }, null, 2));
process.stdout.write(report);
const mismatch = results.some((x) => /DIFF|MISSING|check failed/.test(x.answers));
const died = results.some((x) => x.sqe.signal && !x.sqe.killed_for);
process.exit(mismatch || died ? 1 : 0);

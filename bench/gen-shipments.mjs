#!/usr/bin/env node
// Deterministic generator for the benchmark's third join table, shipments: one row per tenth order
// (order_id = 1, 11, 21, ... <= rows), so 1,000,000 rows for the 10M-row orders table.
//
// Usage: node gen-shipments.mjs <out.csv> [rows=10000000] [--partitions 100]
//
// Written as one headerless ','-separated CSV file (Hive TEXTFILE style, never quoted), in order_id order:
//   order_id      BIGINT  1 + 10*i
//   carrier       STRING  [UPS, FEDEX, DHL, USPS, ONTRAC, LASERSHIP, AMAZON, POSTNL][r(order_id, 21) mod 8]
//   shipped_date  DATE    dt of the order (2026-01-01 + p days, p as in gen.mjs) + 1 + r(order_id, 22) mod 7 days
//   cost          DOUBLE  2 + (r(order_id, 23) mod 5000) / 100            (2.00 .. 51.99)
// with the hash r() of ../shared/bench/gen.mjs, so any engine can re-derive every value:
//   h32(x)   = 32-bit integer mix: x ^= x>>16; x = (x*0x45d9f3b) mod 2^32; (twice); x ^= x>>16
//   r(id, k) = h32((id*1000003 + k*7919) mod 2^32)
// Pure JS (no DuckDB), about 1 s for 1M rows; the file is written to <out.csv>.tmp and renamed,
// so an interrupted run never leaves a half file behind.
import fs from 'node:fs';

const args = process.argv.slice(2);
const pi = args.indexOf('--partitions');
const P = pi >= 0 ? Number(args.splice(pi, 2)[1]) : 100;
const [out, rowsArg] = args;
if (!out) { console.error('usage: node gen-shipments.mjs <out.csv> [rows=10000000] [--partitions 100]'); process.exit(2); }
const N = rowsArg === undefined ? 10_000_000 : Number(String(rowsArg).replace(/_/g, ''));
if (!Number.isSafeInteger(N) || N <= 0 || !Number.isInteger(P) || P <= 0) throw new Error('rows and partitions must be positive integers');

const mix32 = (x) => Math.imul((x ^ (x >>> 16)) >>> 0, 0x45d9f3b) >>> 0;
const h32 = (x) => { const y = mix32(mix32(x)); return (y ^ (y >>> 16)) >>> 0; };
const r = (id, k) => h32((id * 1000003 + k * 7919) % 4294967296); // < 2^53: exact in a double

const CARRIERS = ['UPS', 'FEDEX', 'DHL', 'USPS', 'ONTRAC', 'LASERSHIP', 'AMAZON', 'POSTNL'];
const day0 = Date.UTC(2026, 0, 1);
const dates = [];
for (let d = 0; d < P + 8; d++) dates.push(new Date(day0 + d * 86400000).toISOString().slice(0, 10));
// (id-1)*P div N without overflowing 2^53 for large N*P: BigInt only when needed.
const part = N * P < 2 ** 53 ? (id) => Math.floor(((id - 1) * P) / N) : (id) => Number((BigInt(id - 1) * BigInt(P)) / BigInt(N));

const tmp = `${out}.tmp`;
const fd = fs.openSync(tmp, 'w');
let buf = [], n = 0;
for (let id = 1; id <= N; id += 10) {
  const cost = 200 + (r(id, 23) % 5000); // cents
  buf.push(`${id},${CARRIERS[r(id, 21) % 8]},${dates[part(id) + 1 + (r(id, 22) % 7)]},${Math.floor(cost / 100)}.${String(cost % 100).padStart(2, '0')}\n`);
  if (buf.length === 65536) { fs.writeSync(fd, buf.join('')); buf = []; }
  n++;
}
fs.writeSync(fd, buf.join(''));
fs.closeSync(fd);
fs.renameSync(tmp, out);
console.error(`[gen-shipments] ${n} rows -> ${out}`);

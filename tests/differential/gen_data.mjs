#!/usr/bin/env node
// Deterministic warehouse for the differential tier (fixed seed, no clock, no
// randomness from the environment): headerless comma-separated text files in
// Hive k=v/ partition folders, as Hive's LazySimpleSerDe reads them.
//
//   node gen_data.mjs DIR        writes DIR/data/<table>/... and prints a summary
//
// Encoding rules (LazySimpleSerDe, and sqe's text reader):
//   NULL of any column  -> \N       (serialization.null.format)
//   NULL of a non-string column may also be an empty field (it does not parse -> NULL)
//   ''  of a string column -> empty field (stays the empty string)
//   partition value NULL -> folder k=__HIVE_DEFAULT_PARTITION__
// Strings never hold ',', '\', quotes or line breaks (no quoting in this format).
// Doubles are multiples of 1/8 or 1/16 (exact in binary), so sums do not depend on
// the order of addition and both engines must agree exactly.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLES } from './schema.mjs';

export const SEED = 20240301;

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  constructor(seed) { this.r = mulberry32(seed); }
  next() { return this.r(); }
  int(lo, hi) { return lo + Math.floor(this.r() * (hi - lo + 1)); } // inclusive
  pick(xs) { return xs[Math.floor(this.r() * xs.length)]; }
  chance(p) { return this.r() < p; }
  // weighted pick: [[value, weight], ...]
  wpick(pairs) {
    const total = pairs.reduce((s, p) => s + p[1], 0);
    let x = this.r() * total;
    for (const [v, w] of pairs) { if ((x -= w) < 0) return v; }
    return pairs[pairs.length - 1][0];
  }
}

const NULL = Symbol('NULL');
const pad = (n, w = 2) => String(n).padStart(w, '0');
const DAY = 86400000;
const dateStr = (ms) => new Date(ms).toISOString().slice(0, 10);
const baseMs = (s) => Date.parse(s + 'T00:00:00Z');

function fmtDecimal(rng, cents) {
  const neg = cents < 0;
  const a = Math.abs(cents);
  const ip = Math.floor(a / 100), fp = a % 100;
  let s = `${ip}.${pad(fp)}`;
  if (rng.chance(0.1)) s = s.replace(/\.?0+$/, '') || '0'; // '12.5', '12' parse the same
  return (neg ? '-' : '') + s;
}

function fmtTimestamp(rng, ms) {
  const d = new Date(ms);
  let s = `${d.toISOString().slice(0, 10)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const frac = rng.wpick([['', 6], ['.5', 1], ['.123', 1], ['.001', 1], ['.25', 1]]);
  return s + frac;
}

// A cell's text. kindOfCol: 'str' or other.
function cell(rng, v, isString) {
  if (v === NULL) return (!isString && rng.chance(0.3)) ? '' : '\\N';
  return String(v);
}

const STATUSES = [['shipped', 30], ['pending', 20], ['cancelled', 8], ['returned', 6], ['Shipped', 3], ['', 3], [NULL, 3]];
const NOTES = [
  ['gift wrap', 4], ['  padded  ', 2], ['leave at door', 4], ['50% off', 2], ['under_score', 2], ['MiXeD Case', 2],
  ['café au lait', 2], ['Ünïcödé straße', 1], ['a', 2], ['', 4], [NULL, 8], ['rush', 5], ['Rush', 2], ['rush order', 3],
  ['call first', 3], ['x-y-z', 2], ['one two three', 2],
];
const FIRST = ['Ann', 'Bob', 'Chloé', 'Dmitri', 'Eve', 'Farid', 'Gus', 'Hana', 'Ivo', 'José'];
const LAST = ['Smith', 'Ng', 'Müller', 'Okafor', 'Rossi', 'Tanaka', 'smith'];
const CITIES = [['Berlin', 4], ['Paris', 4], ['São Paulo', 2], ['New York', 3], ['Zürich', 2], ['Tokyo', 3], ['lima', 1], ['', 1], [NULL, 2]];
const COUNTRY_OF = { Berlin: 'DE', Paris: 'FR', 'São Paulo': 'BR', 'New York': 'US', 'Zürich': 'CH', Tokyo: 'JP', lima: 'PE', '': 'US' };
const CATEGORIES = [['tools', 5], ['toys', 4], ['food', 4], ['books', 3], ['Books', 1], ['', 1], [NULL, 2]];
const PART_DATES = ['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04'];

export function generateRows(seed = SEED) {
  const rng = new Rng(seed);
  const nul = (p, f) => (rng.chance(p) ? NULL : f());

  // products: ids 1..64 with gaps; unique, never NULL
  const products = [];
  for (let id = 1; id <= 64; id++) {
    if (id % 9 === 0) continue; // gaps: orders reference ids that do not exist
    products.push({
      product_id: id,
      name: id === 12 ? NULL : rng.chance(0.05) ? '' : `${rng.pick(['Widget', 'Gadget', 'Gizmo', 'Doohickey'])} ${id % 7}`,
      category: rng.wpick(CATEGORIES),
      price: (id === 4 || id === 31) ? NULL : nul(0.05, () => fmtDecimal(rng, rng.int(-500, 99999))),
      weight: nul(0.05, () => rng.int(-16, 800) / 16),
      launched: nul(0.05, () => dateStr(baseMs('2019-01-01') + rng.int(0, 1900) * DAY)),
      discontinued: nul(0.08, () => rng.chance(0.3)),
      stock: nul(0.05, () => rng.wpick([[rng.int(0, 500), 6], [rng.int(-50, -1), 1], [rng.int(2 ** 31, 2 ** 33), 1]])),
    });
  }

  // customers: customer_key unique; customer_id 1..300 with gaps, duplicates and NULLs
  const customers = [];
  let key = 1000;
  for (let id = 1; id <= 300; id++) {
    if (id % 11 === 0) continue; // gaps
    const copies = id % 37 === 0 ? 2 : 1; // duplicate business keys -> join fan-out
    for (let k = 0; k < copies; k++) customers.push(makeCustomer(id));
  }
  for (let k = 0; k < 4; k++) customers.push(makeCustomer(NULL));
  function makeCustomer(id) {
    const city = rng.wpick(CITIES);
    return {
      customer_key: key++,
      customer_id: id,
      name: rng.wpick([[`${rng.pick(FIRST)} ${rng.pick(LAST)}`, 20], ['', 1], [NULL, 1]]),
      city,
      country: city === NULL ? rng.pick([NULL, 'US']) : COUNTRY_OF[city],
      signup_date: nul(0.05, () => dateStr(baseMs('2020-01-01') + rng.int(0, 1520) * DAY)),
      credit_limit: nul(0.06, () => fmtDecimal(rng, rng.wpick([[rng.int(0, 5000000), 10], [rng.int(-100000, -1), 1], [0, 1]]))),
      score: nul(0.06, () => rng.int(-200, 600) / 4),
      is_active: nul(0.06, () => rng.chance(0.7)),
      last_login: nul(0.08, () => fmtTimestamp(rng, baseMs('2023-06-01') + rng.int(0, 300 * 86400) * 1000)),
      tier: rng.wpick([[1, 5], [2, 4], [3, 2], [NULL, 1]]),
    };
  }

  // orders: order_id unique and never NULL
  const orders = [];
  const N = 3000;
  const ids = Array.from({ length: N }, (_, i) => 100000 + i * 3 + (i % 3));
  for (let i = ids.length - 1; i > 0; i--) { const j = rng.int(0, i); [ids[i], ids[j]] = [ids[j], ids[i]]; }
  for (let i = 0; i < N; i++) {
    const dt = rng.chance(0.05) ? NULL : rng.pick(PART_DATES);
    const od = rng.chance(0.04) ? NULL : baseMs(dt === NULL ? '2024-02-20' : dt) - rng.wpick([[0, 6], [1, 2], [rng.int(2, 60), 1]]) * DAY;
    orders.push({
      order_id: ids[i],
      customer_id: nul(0.04, () => rng.int(1, 330)),
      product_id: nul(0.03, () => rng.int(1, 70)),
      qty: nul(0.03, () => rng.wpick([[rng.int(1, 12), 10], [rng.int(13, 60), 2], [0, 1], [rng.int(-5, -1), 1]])),
      unit_price: nul(0.03, () => fmtDecimal(rng, rng.wpick([[rng.int(50, 99999), 20], [rng.int(-5000, -1), 1], [0, 1]]))),
      discount: nul(0.05, () => rng.wpick([[0, 6], [rng.int(1, 4) / 8, 4], [-1 / 8, 1], [rng.int(5, 80) / 8, 1]])),
      status: rng.wpick(STATUSES),
      note: rng.wpick(NOTES),
      order_date: od === NULL ? NULL : dateStr(od),
      created_at: (od === NULL || rng.chance(0.03)) ? NULL : fmtTimestamp(rng, od + rng.int(0, 86399) * 1000),
      is_gift: nul(0.05, () => rng.chance(0.2)),
      priority: nul(0.1, () => rng.int(1, 5)),
      dt,
    });
  }
  // events: generated last, so the tables above do not depend on it
  const events = [];
  const KINDS = [['click', 5], ['view', 5], ['purchase', 2], ['refund_requested', 1], ['signup_completed', 1], ['', 1], [NULL, 1]];
  for (let i = 0; i < 480; i++) {
    const e = {
      event_id: 5000 + i * 7,
      customer_id: nul(0.05, () => rng.int(1, 320)),
      kind: rng.wpick(KINDS),
      amount: nul(0.08, () => { const m = rng.int(-200000, 2000000); const a = Math.abs(m); return (m < 0 ? '-' : '') + Math.floor(a / 1000) + '.' + String(a % 1000).padStart(3, '0'); }),
      ratio: nul(0.08, () => rng.int(-8, 40) / 4),
      ts: nul(0.06, () => fmtTimestamp(rng, baseMs('2023-01-01') + rng.int(0, 700 * 86400) * 1000)),
      flag: nul(0.1, () => rng.chance(0.5)),
      code: nul(0.1, () => rng.int(-20, 20)),
      note: rng.wpick([['ok', 4], ['retry later', 2], ['', 1], [NULL, 2], ['ÄÖÜ', 1], ['a_b%c', 1]]),
      yr: rng.wpick([[2023, 4], [2024, 5], [NULL, 1]]),
      region: rng.wpick([['eu', 4], ['us', 4], ['apac', 2], [NULL, 1]]),
      __drop: rng.chance(0.06) ? rng.int(1, 3) : 0,
      __extra: rng.chance(0.03) ? rng.int(1, 2) : 0,
    };
    events.push(e);
  }
  return { orders, customers, products, events };
}

// Spread each partition's rows over 1-3 files.
export function writeWarehouse(dir, seed = SEED) {
  const rows = generateRows(seed);
  const rng = new Rng(seed ^ 0x5bd1e995);
  const out = {};
  for (const t of TABLES) {
    const tdir = path.join(dir, 'data', t.name);
    fs.rmSync(tdir, { recursive: true, force: true });
    const groups = new Map();
    for (const r of rows[t.name]) {
      const rel = t.partitions.map(([k]) => `${k}=${r[k] === NULL ? '__HIVE_DEFAULT_PARTITION__' : r[k]}`).join('/');
      if (!groups.has(rel)) groups.set(rel, []);
      groups.get(rel).push(r);
    }
    for (const [rel, rs] of [...groups.entries()].sort()) {
      const pdir = path.join(tdir, rel);
      fs.mkdirSync(pdir, { recursive: true });
      const nfiles = Math.min(rs.length, t.partitions.length ? rng.int(1, 3) : 2);
      const files = Array.from({ length: nfiles }, () => []);
      rs.forEach((r, i) => files[i % nfiles].push(r));
      files.forEach((fr, fi) => {
        const line = (r) => {
          let fields = t.columns.map(([c, ty]) => cell(rng, r[c], ty === 'string' || ty.startsWith('varchar')));
          if (r.__drop) fields = fields.slice(0, fields.length - r.__drop); // Hive: missing fields are NULL
          if (!r.__drop) for (let k = 0; k < (r.__extra || 0); k++) fields.push(`extra${k}`); // Hive: extra fields are ignored
          return fields.join(',');
        };
        const text = fr.map(line).join('\n') + '\n';
        fs.writeFileSync(path.join(pdir, `part-${fi}.csv`), text);
      });
    }
    out[t.name] = { rows: rows[t.name].length, partitions: groups.size, location: tdir };
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) { console.error('usage: node gen_data.mjs DIR'); process.exit(2); }
  console.log(JSON.stringify(writeWarehouse(path.resolve(dir)), null, 2));
}

#!/usr/bin/env node
// Grammar-based query generator for the differential tier. Deterministic: the
// same seed writes the same file, so a failure is reproducible by name.
//
//   node gen_queries.mjs [--seed N] [--out queries/generated.sql]
//
// Every query is built as a typed tree and rendered twice: in Trino's dialect
// (what sqe runs) and, where DuckDB spells or means something differently, in
// DuckDB's (written as a `---- duckdb` section). The rules that keep answers
// comparable (README.md, "What the generator avoids"):
//   - LIMIT and order-dependent window functions always have a total order
//     (orders.order_id, customers.customer_key, products.product_id are unique);
//     a LIMIT query orders by every output column, so ties are identical rows;
//   - integer / and % only by non-zero literals; double division by nullif(x, 0);
//     products of columns stay far from overflow;
//   - no avg of a decimal (Trino keeps the decimal type, DuckDB returns a double),
//     no cast of a double to varchar or integer (formatting and rounding differ),
//     no comparison across type families.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLES, allColumns, kindOf } from './schema.mjs';
import { formatQuery } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_SEED = 7;

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let R;
const rnd = () => R();
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const chance = (p) => rnd() < p;
const shuffle = (xs) => { const a = [...xs]; for (let i = a.length - 1; i > 0; i--) { const j = int(0, i); [a[i], a[j]] = [a[j], a[i]]; } return a; };
const sample = (xs, n) => shuffle(xs).slice(0, n);

// An expression: t = Trino text, d = DuckDB text, k = kind, agg = holds an aggregate
const E = (t, d, k, extra = {}) => ({ t, d: d ?? t, k, ...extra });
const same = (t, k, extra) => E(t, t, k, extra);
// Build a node from parts: f receives the parts' texts. f is called once, on
// placeholders, so a random choice inside it is the same in both renderings.
const HOLE = (i) => `\u0000${i}\u0000`;
const fill = (tpl, texts) => tpl.replace(/\u0000(\d+)\u0000/g, (_, i) => texts[Number(i)]);
const fn = (k, f, parts, extra = {}) => {
  const tpl = f(...parts.map((_, i) => HOLE(i)));
  return E(fill(tpl, parts.map((p) => p.t)), fill(tpl, parts.map((p) => p.d)), k, { agg: parts.some((p) => p.agg), ...extra });
};

const TBL = Object.fromEntries(TABLES.map((t) => [t.name, t]));
const UNIQUE = { orders: 'order_id', customers: 'customer_key', products: 'product_id', events: 'event_id' };

// A scope is a list of relations {alias, table}; columns are alias.col
function columnsOf(scope) {
  const cols = [];
  for (const r of scope) {
    for (const [c, ty] of allColumns(TBL[r.table])) cols.push({ ref: r.alias ? `${r.alias}.${c}` : c, k: kindOf(ty), col: c, rel: r });
  }
  return cols;
}

// ------------------------------------------------------------------ literals
const lit = {
  int: () => same(String(pick([0, 1, 2, 3, 5, 7, 10, 12, 25, 40, -1, -3])), 'int'),
  dec: () => same(pick(['0.50', '12.25', '100.00', '-3.75', '250.5', '999.99', '1.05']), 'dec'),
  dbl: () => same(pick(['0.5e0', '2e0', '-1.25e0', '0.125e0', '10e0', '1e0']), 'dbl'),
  str: () => same(pick(["'shipped'", "'pending'", "'rush'", "''", "'a'", "'Paris'", "'toys'", "'x y'"]), 'str'),
  date: () => same(`DATE '${pick(['2024-02-29', '2024-01-01', '2023-12-31', '2024-03-01', '2022-06-15'])}'`, 'date'),
  ts: () => same(`TIMESTAMP '${pick(['2024-03-01 12:00:00', '2024-02-29 00:00:00', '2024-03-04 18:30:00.5', '2023-10-01 08:15:00'])}'`, 'ts'),
  bool: () => same(pick(['true', 'false']), 'bool'),
};

// ------------------------------------------------------------------ expressions
class Gen {
  // opts.using: a USING column, visible once and unqualified
  constructor(scope, opts = {}) {
    this.scope = scope;
    this.cols = columnsOf(scope);
    if (opts.using) {
      const k = this.cols.find((c) => c.col === opts.using).k;
      this.cols = this.cols.filter((c) => c.col !== opts.using);
      this.cols.push({ ref: opts.using, k, col: opts.using });
    }
    this.opts = opts;
  }
  col(k, orLiteral = true) {
    const cs = this.cols.filter((c) => c.k === k);
    if (!cs.length) return orLiteral ? lit[k]() : null;
    const c = pick(cs);
    return same(c.ref, k, { col: c });
  }
  leaf(k) {
    if (chance(0.9)) { const c = this.col(k, false); if (c) return c; }
    return lit[k]();
  }
  expr(k, depth = 2) {
    if (depth <= 0 || chance(0.35)) return this.leaf(k);
    const d = depth - 1;
    const g = this[`e_${k}`];
    return g.call(this, d);
  }
  e_int(d) {
    const X = () => this.expr('int', d);
    const nz = () => same(String(pick([2, 3, 4, 5, 7, -3])), 'int');
    switch (int(0, 17)) {
      case 0: return fn('int', (a, b) => `${a} + ${b}`, [X(), X()]);
      case 1: return fn('int', (a, b) => `${a} - ${b}`, [X(), X()]);
      case 2: return fn('int', (a, b) => `${a} * ${b}`, [this.leaf('int'), same(String(int(-3, 4)), 'int')]);
      case 3: return fn('int', (a, b) => `${a} / ${b}`, [X(), nz()]);
      case 4: return fn('int', (a, b) => `${a} % ${b}`, [X(), nz()]);
      case 5: return fn('int', (a) => `abs(${a})`, [X()]);
      case 6: return fn('int', (a) => `length(${a})`, [this.expr('str', d)]);
      case 7: { const f = pick(['year', 'month', 'day', 'quarter', 'day_of_week', 'day_of_year', 'week']); return fn('int', (a) => `${f}(${a})`, [this.expr(pick(['date', 'ts']), d)]); }
      case 8: { const f = pick(['hour', 'minute', 'second', 'millisecond']); return fn('int', (a) => `${f}(${a})`, [this.expr('ts', d)]); }
      case 9: return fn('int', (a, b) => `strpos(${a}, ${b})`, [this.expr('str', d), same(pick(["'a'", "'e'", "'sh'", "' '"]), 'str')]);
      case 10: return fn('int', (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`, [this.pred(d), X(), X()]);
      case 11: return fn('int', (a, b) => `coalesce(${a}, ${b})`, [X(), X()]);
      case 12: return fn('int', (a, b) => `nullif(${a}, ${b})`, [X(), lit.int()]);
      case 13: { const f = pick(['greatest', 'least']); return fn('int', (a, b) => `${f}(${a}, ${b})`, [X(), X()]); }
      case 14: {
        const u = pick(['day', 'week', 'month', 'year']);
        return fn('int', (a, b) => `date_diff('${u}', ${a}, ${b})`, [this.expr('date', d), this.expr('date', d)]);
      }
      case 15: return fn('int', (a) => `CAST(floor(${a}) AS bigint)`, [this.expr('dbl', d)]);
      case 16: return fn('int', (a) => `CAST(${a} AS bigint)`, [this.expr('dec', d)]);
      default: return fn('int', (a) => `sign(${a})`, [X()]);
    }
  }
  e_dec(d) {
    const X = () => this.expr('dec', d);
    switch (int(0, 9)) {
      case 0: return fn('dec', (a, b) => `${a} + ${b}`, [X(), X()]);
      case 1: return fn('dec', (a, b) => `${a} - ${b}`, [X(), this.leaf(pick(['dec', 'int']))]);
      case 2: return fn('dec', (a, b) => `${a} * ${b}`, [this.leaf('dec'), same(String(int(-2, 5)), 'int')]);
      case 3: return fn('dec', (a) => `abs(${a})`, [X()]);
      case 4: return fn('dec', (a, n) => `round(${a}, ${n})`, [X(), same(String(int(0, 2)), 'int')]);
      case 5: { const f = pick(['ceil', 'floor', 'round', 'truncate']); return fn('dec', (a) => `${f}(${a})`, [X()]); }
      case 6: return fn('dec', (a, b) => `coalesce(${a}, ${b})`, [X(), lit.dec()]);
      case 7: return fn('dec', (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`, [this.pred(d), X(), X()]);
      case 8: return fn('dec', (a) => `CAST(${a} AS decimal(20,2))`, [this.expr('int', d)]); // wide enough for any bigint here
      default: return fn('dec', (a, b) => `${a} * ${b}`, [this.leaf('dec'), this.leaf('int')]);
    }
  }
  e_dbl(d) {
    const X = () => this.expr('dbl', d);
    switch (int(0, 11)) {
      case 0: return fn('dbl', (a, b) => `${a} + ${b}`, [X(), X()]);
      case 1: return fn('dbl', (a, b) => `${a} - ${b}`, [X(), X()]);
      case 2: return fn('dbl', (a, b) => `${a} * ${b}`, [this.leaf('dbl'), this.leaf('dbl')]);
      case 3: return fn('dbl', (a, b) => `${a} / nullif(${b}, 0)`, [X(), this.leaf('dbl')]);
      case 4: return fn('dbl', (a) => `sqrt(abs(${a}))`, [X()]);
      case 5: return fn('dbl', (a) => `power(${a}, 2)`, [this.leaf('dbl')]);
      case 6: return fn('dbl', (a) => `ln(abs(${a}) + 1)`, [X()]);
      case 7: return fn('dbl', (a, n) => `round(${a}, ${n})`, [X(), same(String(int(0, 2)), 'int')]);
      case 8: { const f = pick(['floor', 'ceil', 'abs']); return fn('dbl', (a) => `${f}(${a})`, [X()]); }
      case 9: return fn('dbl', (a) => `CAST(${a} AS double)`, [this.expr(pick(['int', 'dec']), d)]);
      case 10: return fn('dbl', (a, b) => `coalesce(${a}, ${b})`, [X(), lit.dbl()]);
      default: return fn('dbl', (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`, [this.pred(d), X(), X()]);
    }
  }
  e_str(d) {
    const X = () => this.expr('str', d);
    switch (int(0, 15)) {
      case 0: return fn('str', (a) => `lower(${a})`, [X()]);
      case 1: return fn('str', (a) => `upper(${a})`, [X()]);
      case 2: return fn('str', (a, s, n) => `substr(${a}, ${s}, ${n})`, [X(), same(String(pick([1, 2, 3, 5, -3])), 'int'), same(String(int(0, 5)), 'int')]);
      case 3: return fn('str', (a) => `${pick(['trim', 'ltrim', 'rtrim'])}(${a})`, [X()]);
      case 4: return fn('str', (a, b) => `${a} || ${b}`, [X(), X()]);
      case 5: return fn('str', (a) => `replace(${a}, '${pick(['a', ' ', 'sh', 'e'])}', '${pick(['_', '', 'X'])}')`, [X()]);
      case 6: return fn('str', (a) => `reverse(${a})`, [X()]);
      case 7: return fn('str', (a) => `${pick(['lpad', 'rpad'])}(${a}, ${int(1, 12)}, '${pick(['*', '-', 'ab'])}')`, [X()]);
      case 8: return fn('str', (a) => `split_part(${a}, ' ', ${int(1, 3)})`, [X()]);
      case 9: return fn('str', (a, b) => `coalesce(${a}, ${b})`, [X(), lit.str()]);
      case 10: return fn('str', (a) => `nullif(${a}, '')`, [X()]);
      case 11: return fn('str', (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`, [this.pred(d), X(), X()]);
      case 12: return fn('str', (a) => `CAST(${a} AS varchar)`, [chance(0.25) ? this.leaf('dec') : this.expr(pick(['int', 'date', 'bool']), d)]);
      case 13: return fn('str', (a, b) => `concat(${a}, '-', ${b})`, [X(), X()]);
      case 14: return fn('str', (a) => `substr(${a}, ${pick([1, 2, 4, -2])})`, [X()]);
      default: return this.leaf('str');
    }
  }
  e_date(d) {
    const X = () => this.expr('date', d);
    switch (int(0, 7)) {
      case 0: { const x = X(); const n = int(-40, 40); return E(`date_add('day', ${n}, ${x.t})`, `(${x.d} + ${n})`, 'date', { agg: x.agg }); }
      case 1: {
        const x = X(); const n = int(-14, 14); const u = pick(['month', 'year']);
        return E(`date_add('${u}', ${n}, ${x.t})`, `CAST(${x.d} + to_${u}s(${n}) AS DATE)`, 'date', { agg: x.agg });
      }
      case 2: {
        const x = X(); const u = pick(['month', 'year', 'quarter', 'week']);
        return E(`date_trunc('${u}', ${x.t})`, `CAST(date_trunc('${u}', ${x.d}) AS DATE)`, 'date', { agg: x.agg });
      }
      case 3: return fn('date', (a) => `last_day_of_month(${a})`, [X()]);
      case 4: return fn('date', (a) => `CAST(${a} AS date)`, [this.expr('ts', d)]);
      case 5: return fn('date', (a, b) => `coalesce(${a}, ${b})`, [X(), lit.date()]);
      case 6: return fn('date', (c, a, b) => `CASE WHEN ${c} THEN ${a} ELSE ${b} END`, [this.pred(d), X(), X()]);
      default: return this.leaf('date');
    }
  }
  e_ts(d) {
    const X = () => this.expr('ts', d);
    switch (int(0, 5)) {
      case 0: return fn('ts', (a) => `date_trunc('${pick(['hour', 'day', 'minute', 'month'])}', ${a})`, [X()]);
      case 1: {
        const x = X(); const u = pick(['hour', 'minute', 'second', 'day']); const n = int(-30, 30);
        return E(`date_add('${u}', ${n}, ${x.t})`, `(${x.d} + to_${u}s(${n}))`, 'ts', { agg: x.agg });
      }
      case 2: return fn('ts', (a) => `CAST(${a} AS timestamp)`, [this.expr('date', d)]);
      case 3: return fn('ts', (a, b) => `coalesce(${a}, ${b})`, [X(), lit.ts()]);
      default: return this.leaf('ts');
    }
  }
  e_bool(d) { return this.pred(d); }
  // A predicate: comparisons within one type family, NULL tests, LIKE, IN, BETWEEN, logic
  pred(depth = 1) {
    const k = pick(['int', 'int', 'dec', 'dbl', 'str', 'str', 'date', 'ts', 'bool']);
    const d = Math.max(0, depth - 1);
    switch (int(0, 12)) {
      case 0: case 1: case 2: {
        if (k === 'bool') return this.leaf('bool');
        const op = pick(['=', '<>', '<', '<=', '>', '>=']);
        return fn('bool', (a, b) => `${a} ${op} ${b}`, [this.expr(k, d), chance(0.6) ? lit[k]() : this.expr(k, d)]);
      }
      case 3: return fn('bool', (a) => `(${a}) IS ${pick(['', 'NOT '])}NULL`, [this.expr(k, d)]);
      case 4: {
        const pat = pick(["'%a%'", "'s%'", "'%e'", "'_u%'", "'%'", "'%\\_%' ESCAPE '\\'", "'R%'", "'% %'"]);
        return fn('bool', (a) => `${a} ${pick(['LIKE', 'NOT LIKE'])} ${pat}`, [this.expr('str', d)]);
      }
      case 5: {
        const kk = pick(['int', 'str', 'date']);
        const items = Array.from({ length: int(2, 4) }, () => lit[kk]().t);
        if (chance(0.2)) items.push('NULL');
        return fn('bool', (a) => `${a} ${pick(['IN', 'NOT IN'])} (${items.join(', ')})`, [this.expr(kk, d)]);
      }
      case 6: {
        const kk = pick(['int', 'dec', 'dbl', 'date']);
        const val = (x) => (kk === 'date' ? x.t : Number(x.t.replace(/e0$/, '')));
        let [lo, hi] = [lit[kk](), lit[kk]()];
        if (val(lo) > val(hi)) [lo, hi] = [hi, lo];
        return fn('bool', (a) => `${a} ${pick(['BETWEEN', 'NOT BETWEEN'])} ${lo.t} AND ${hi.t}`, [this.expr(kk, d)]);
      }
      case 7: return fn('bool', (a, b) => `(${a} AND ${b})`, [this.pred(d), this.pred(d)]);
      case 8: return fn('bool', (a, b) => `(${a} OR ${b})`, [this.pred(d), this.pred(d)]);
      case 9: return fn('bool', (a) => `NOT (${a})`, [this.pred(d)]);
      case 10: return fn('bool', (a, b) => `${a} IS ${pick(['', 'NOT '])}DISTINCT FROM ${b}`, [this.expr(k === 'bool' ? 'int' : k, d), lit[k === 'bool' ? 'int' : k]()]);
      case 11: return fn('bool', (a) => `starts_with(${a}, '${pick(['s', 'r', 'P', ''])}')`, [this.expr('str', d)]);
      default: return this.leaf('bool');
    }
  }
  // An aggregate over this scope
  agg(kinds = ['int', 'dec', 'dbl', 'str', 'date', 'bool', 'ts']) {
    const k = pick(kinds);
    const x = this.expr(k, 1);
    const A = (kk, t, dd) => E(t, dd ?? t, kk, { agg: true });
    switch (k) {
      case 'int': case 'dbl': {
        const f = pick(['sum', 'avg', 'min', 'max', 'count', 'stddev', 'var_pop', 'sum_distinct', 'count_distinct']);
        if (f === 'sum_distinct') return A(k, `sum(DISTINCT ${x.t})`, `sum(DISTINCT ${x.d})`);
        if (f === 'count_distinct') return A('int', `count(DISTINCT ${x.t})`, `count(DISTINCT ${x.d})`);
        return A(['avg', 'stddev', 'var_pop'].includes(f) ? 'dbl' : f === 'count' ? 'int' : k, `${f}(${x.t})`, `${f}(${x.d})`);
      }
      case 'dec': { const f = pick(['sum', 'min', 'max', 'count']); return A(f === 'count' ? 'int' : 'dec', `${f}(${x.t})`, `${f}(${x.d})`); }
      case 'str': case 'date': case 'ts': { const f = pick(['min', 'max', 'count', 'count_distinct']); return f === 'count_distinct' ? A('int', `count(DISTINCT ${x.t})`, `count(DISTINCT ${x.d})`) : A(f === 'count' ? 'int' : k, `${f}(${x.t})`, `${f}(${x.d})`); }
      default: {
        const p = this.pred(1);
        const f = pick(['count_if', 'bool_and', 'bool_or', 'every']);
        if (f === 'count_if') return A('int', `count_if(${p.t})`, `count(CASE WHEN ${p.d} THEN 1 END)`);
        return A('bool', `${f}(${p.t})`, `${f}(${p.d})`);
      }
    }
  }
}

// Predicates on partition keys (pruning and pushdown), alone or mixed with
// column predicates so that a wrong push-down shows.
function partPred(table, g) {
  const d = () => `'${pick(['2024-02-27', '2024-02-29', '2024-03-01', '2024-03-04', '2024-03-09', '__HIVE_DEFAULT_PARTITION__'])}'`;
  const ps = {
    orders: [
      () => `dt = ${d()}`, () => `dt <> ${d()}`, () => `dt IN (${d()}, ${d()})`, () => `dt NOT IN (${d()}, ${d()})`,
      () => `dt IS NULL`, () => `dt IS NOT NULL`, () => `dt BETWEEN '2024-02-28' AND ${d()}`, () => `dt > ${d()}`,
      () => `dt LIKE '2024-03%'`, () => `substr(dt, 9, 2) = '29'`, () => `CAST(dt AS date) < DATE '2024-03-02'`,
      () => `NOT (dt = ${d()})`, () => `coalesce(dt, 'none') = 'none'`, () => `dt = CAST(order_date AS varchar)`,
    ],
    customers: [
      () => `tier = ${int(1, 3)}`, () => `tier <> ${int(1, 3)}`, () => `tier IN (1, ${int(2, 4)})`, () => `tier IS NULL`,
      () => `tier IS NOT NULL`, () => `tier > 1`, () => `tier + 0 = 2`, () => `coalesce(tier, 0) = 0`, () => `tier NOT IN (2, 5)`,
      () => `tier BETWEEN 2 AND 3`, () => `CAST(tier AS varchar) = '3'`,
    ],
    events: [
      () => `yr = ${pick([2023, 2024])}`, () => `yr IS NULL`, () => `region = '${pick(['eu', 'us', 'apac'])}'`, () => `region IS NULL`,
      () => `yr = 2024 AND region IN ('eu', 'us')`, () => `(yr = 2023 OR region = 'apac')`, () => `yr IS NOT NULL AND region IS NULL`,
      () => `region <> 'us'`, () => `yr >= 2024`, () => `coalesce(region, 'none') = 'none'`, () => `yr * 100 + 1 = 202401`,
      () => `NOT (yr = 2023 AND region = 'eu')`, () => `region LIKE '%u%'`,
    ],
  }[table];
  if (!ps) return null;
  const base = same(pick(ps)(), 'bool');
  if (chance(0.3)) { const o = g.pred(1); return fn('bool', (a, b) => `(${a} OR ${b})`, [base, o]); }
  return base;
}
function wherePred(table, g, depth = 2) {
  const p = g.pred(depth);
  const pp = chance(0.45) ? partPred(table, g) : null;
  if (!pp) return p;
  return chance(0.3) ? pp : fn('bool', (a, b) => `${a} AND ${b}`, [pp, p]);
}

// ------------------------------------------------------------------ query shapes
const KINDS = ['int', 'int', 'dec', 'dbl', 'str', 'str', 'date', 'ts', 'bool'];
const rel = (table, alias) => ({ table, alias });
const fromOf = (r) => (r.alias ? `${r.table} ${r.alias}` : r.table);
const sel = (items) => ({ t: items.map((e, i) => `${e.t} AS c${i + 1}`).join(', '), d: items.map((e, i) => `${e.d} AS c${i + 1}`).join(', ') });
function orderAll(n) {
  return Array.from({ length: n }, (_, i) => `${i + 1}${chance(0.4) ? ' DESC' : ''}${chance(0.3) ? pick([' NULLS FIRST', ' NULLS LAST']) : ''}`).join(', ');
}
const Q = (category, t, d, extra = {}) => ({ category, sql: t, duckdb: d !== t ? d : undefined, ...extra });

function qFilter(table) {
  const g = new Gen([rel(table)]);
  const items = Array.from({ length: int(2, 5) }, () => g.expr(pick(KINDS), chance(0.3) ? 3 : 2));
  const w = wherePred(table, g);
  const s = sel(items);
  if (chance(0.3)) {
    const ob = orderAll(items.length), lim = `${chance(0.25) ? `OFFSET ${int(1, 10)} ` : ''}LIMIT ${int(1, 30)}`;
    return Q('g_order_limit', `SELECT ${s.t} FROM ${table} WHERE ${w.t} ORDER BY ${ob} ${lim}`, `SELECT ${s.d} FROM ${table} WHERE ${w.d} ORDER BY ${ob} ${lim}`);
  }
  return Q('g_filter', `SELECT ${s.t} FROM ${table} WHERE ${w.t}`, `SELECT ${s.d} FROM ${table} WHERE ${w.d}`);
}

function qAgg(table) {
  const g = new Gen([rel(table)]);
  const nk = int(0, 2);
  const keys = Array.from({ length: nk }, () => (chance(0.6) ? g.col(pick(['int', 'str', 'bool', 'date'])) : g.expr(pick(['int', 'str', 'date']), 1)));
  const aggs = Array.from({ length: int(1, 3) }, () => g.agg());
  const items = [...keys, ...aggs];
  const s = sel(items);
  const w = chance(0.6) ? wherePred(table, g, 1) : null;
  const where = (x) => (w ? ` WHERE ${x}` : '');
  const gb = nk ? ` GROUP BY ${keys.map((_, i) => i + 1).join(', ')}` : '';
  let having = { t: '', d: '' };
  if (nk && chance(0.4)) {
    const a = g.agg(['int', 'dbl', 'dec']);
    const op = pick(['>', '<', '>=']);
    const v = a.k === 'dec' ? lit.dec() : a.k === 'dbl' ? lit.dbl() : lit.int();
    having = { t: ` HAVING ${a.t} ${op} ${v.t}`, d: ` HAVING ${a.d} ${op} ${v.d}` };
  }
  const cat = nk ? 'g_group_by' : 'g_aggregate';
  return Q(cat, `SELECT ${s.t} FROM ${table}${where(w?.t)}${gb}${having.t}`, `SELECT ${s.d} FROM ${table}${where(w?.d)}${gb}${having.d}`);
}

function qDistinct(table) {
  const g = new Gen([rel(table)]);
  const items = Array.from({ length: int(1, 3) }, () => g.expr(pick(['int', 'str', 'bool', 'date', 'dec']), 1));
  const s = sel(items);
  const w = wherePred(table, g, 1);
  return Q('g_distinct', `SELECT DISTINCT ${s.t} FROM ${table} WHERE ${w.t}`, `SELECT DISTINCT ${s.d} FROM ${table} WHERE ${w.d}`);
}

function qSubqueryFrom(table) {
  const g = new Gen([rel(table)]);
  const inner = Array.from({ length: int(2, 4) }, () => g.expr(pick(KINDS), 2));
  const iw = wherePred(table, g, 1);
  const is = sel(inner);
  // outer over the inner's output columns c1..cn
  const outerCols = inner.map((e, i) => ({ name: `s.c${i + 1}`, k: e.k }));
  const pickCol = (ks) => { const cs = outerCols.filter((c) => ks.includes(c.k)); return cs.length ? pick(cs) : null; };
  const shape = int(0, 2);
  const inT = `(SELECT ${is.t} FROM ${table} WHERE ${iw.t}) s`, inD = `(SELECT ${is.d} FROM ${table} WHERE ${iw.d}) s`;
  if (shape === 0) {
    const key = pickCol(['int', 'str', 'bool', 'date']) || outerCols[0];
    const num = pickCol(['int', 'dbl', 'dec']);
    const a = num ? `sum(${num.name}), max(${num.name})` : `count(${outerCols[0].name})`;
    return Q('g_subquery_from', `SELECT ${key.name}, count(*), ${a} FROM ${inT} GROUP BY ${key.name}`, `SELECT ${key.name}, count(*), ${a} FROM ${inD} GROUP BY ${key.name}`);
  }
  if (shape === 1) {
    const c = pick(outerCols);
    const cond = `${c.name} IS NOT NULL`;
    return Q('g_subquery_from', `SELECT * FROM ${inT} WHERE ${cond}`, `SELECT * FROM ${inD} WHERE ${cond}`);
  }
  const ob = orderAll(inner.length), lim = int(1, 20);
  return Q('g_subquery_from', `SELECT * FROM ${inT} ORDER BY ${ob} LIMIT ${lim}`, `SELECT * FROM ${inD} ORDER BY ${ob} LIMIT ${lim}`);
}

const JOINS = [
  { l: rel('orders', 'o'), r: rel('customers', 'c'), on: 'o.customer_id = c.customer_id', using: 'customer_id' },
  { l: rel('orders', 'o'), r: rel('products', 'p'), on: 'o.product_id = p.product_id', using: 'product_id' },
  { l: rel('customers', 'c'), r: rel('orders', 'o'), on: 'c.customer_id = o.customer_id', using: 'customer_id' },
  { l: rel('products', 'p'), r: rel('orders', 'o'), on: 'p.product_id = o.product_id', using: 'product_id' },
  { l: rel('events', 'e'), r: rel('customers', 'c'), on: 'e.customer_id = c.customer_id', using: 'customer_id' },
  { l: rel('orders', 'o'), r: rel('events', 'e'), on: 'o.customer_id = e.customer_id AND o.dt = CAST(e.yr AS varchar)', using: null },
];

function qJoin() {
  const j = pick(JOINS);
  let type = pick(['JOIN', 'JOIN', 'INNER JOIN', 'LEFT JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN', 'USING', 'COMMA']);
  if (type === 'USING' && !j.using) type = 'LEFT JOIN';
  const g = new Gen([j.l, j.r], type === 'USING' ? { using: j.using } : {});
  let extraOn = { t: '', d: '' };
  if (chance(0.3) && !['USING', 'COMMA'].includes(type)) {
    const p = g.pred(1);
    extraOn = { t: ` AND ${p.t}`, d: ` AND ${p.d}` };
  }
  let fromT, fromD;
  if (type === 'USING') { fromT = fromD = `${fromOf(j.l)} ${pick(['JOIN', 'LEFT JOIN'])} ${fromOf(j.r)} USING (${j.using})`; }
  else if (type === 'COMMA') { fromT = fromD = `${fromOf(j.l)}, ${fromOf(j.r)}`; }
  else { fromT = `${fromOf(j.l)} ${type} ${fromOf(j.r)} ON ${j.on}${extraOn.t}`; fromD = `${fromOf(j.l)} ${type} ${fromOf(j.r)} ON ${j.on}${extraOn.d}`; }
  const w = g.pred(1);
  const conds = [];
  if (type === 'COMMA') conds.push({ t: j.on, d: j.on });
  if (chance(0.7)) conds.push(w);
  const where = conds.length ? { t: ` WHERE ${conds.map((c) => c.t).join(' AND ')}`, d: ` WHERE ${conds.map((c) => c.d).join(' AND ')}` } : { t: '', d: '' };
  const category = type === 'USING' ? 'g_join_using' : type === 'COMMA' ? 'g_join_comma' : /LEFT|RIGHT|FULL/.test(type) ? 'g_join_outer' : 'g_join_inner';
  if (chance(0.45)) {
    // aggregate over the join
    const key = g.col(pick(['str', 'int', 'bool']));
    const aggs = Array.from({ length: int(1, 3) }, () => g.agg());
    const s = sel([key, ...aggs]);
    return Q(category, `SELECT ${s.t} FROM ${fromT}${where.t} GROUP BY 1`, `SELECT ${s.d} FROM ${fromD}${where.d} GROUP BY 1`);
  }
  const keys = [`${j.l.alias}.${UNIQUE[j.l.table]}`, `${j.r.alias}.${UNIQUE[j.r.table]}`].map((k) => same(k, 'int'));
  const items = [...keys, ...Array.from({ length: int(1, 3) }, () => g.expr(pick(KINDS), 1))];
  const s = sel(items);
  if (chance(0.25)) {
    const ob = orderAll(items.length), lim = ` LIMIT ${int(5, 40)}`;
    return Q(category, `SELECT ${s.t} FROM ${fromT}${where.t} ORDER BY ${ob}${lim}`, `SELECT ${s.d} FROM ${fromD}${where.d} ORDER BY ${ob}${lim}`);
  }
  return Q(category, `SELECT ${s.t} FROM ${fromT}${where.t}`, `SELECT ${s.d} FROM ${fromD}${where.d}`);
}

function qJoinMulti() {
  const o = rel('orders', 'o'), c = rel('customers', 'c'), p = rel('products', 'p');
  const t1 = pick(['JOIN', 'LEFT JOIN']), t2 = pick(['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']);
  const g = new Gen([o, c, p]);
  const from = `orders o ${t1} customers c ON o.customer_id = c.customer_id ${t2} products p ON o.product_id = p.product_id`;
  const w = chance(0.6) ? g.pred(1) : null;
  const where = w ? { t: ` WHERE ${w.t}`, d: ` WHERE ${w.d}` } : { t: '', d: '' };
  if (chance(0.6)) {
    const keys = [pick([same('c.country', 'str'), same('p.category', 'str'), same('c.tier', 'int'), same('o.status', 'str'), same('o.dt', 'str')])];
    const aggs = Array.from({ length: int(1, 3) }, () => g.agg());
    const s = sel([...keys, ...aggs]);
    return Q('g_join_multi', `SELECT ${s.t} FROM ${from}${where.t} GROUP BY 1`, `SELECT ${s.d} FROM ${from}${where.d} GROUP BY 1`);
  }
  const items = [same('o.order_id', 'int'), same('c.customer_key', 'int'), same('p.product_id', 'int'), g.expr(pick(KINDS), 1)];
  const s = sel(items);
  return Q('g_join_multi', `SELECT ${s.t} FROM ${from}${where.t}`, `SELECT ${s.d} FROM ${from}${where.d}`);
}

function qSelfJoin() {
  const table = pick(['orders', 'customers', 'products']);
  const u = UNIQUE[table];
  const keyCol = { orders: pick(['customer_id', 'product_id']), customers: pick(['customer_id', 'city', 'signup_date']), products: pick(['category', 'launched']) }[table];
  const g = new Gen([rel(table, 'a'), rel(table, 'b')]);
  const type = pick(['JOIN', 'LEFT JOIN']);
  const on = `a.${keyCol} = b.${keyCol} AND a.${u} < b.${u}`;
  const w = table === 'orders' ? ` WHERE a.dt = '${pick(['2024-02-28', '2024-03-01', '2024-03-03'])}'` : '';
  if (chance(0.5)) {
    const agg = g.agg(['int', 'dbl', 'dec']);
    return Q('g_join_self', `SELECT a.${u}, count(b.${u}), ${agg.t} FROM ${table} a ${type} ${table} b ON ${on}${w} GROUP BY a.${u}`,
      `SELECT a.${u}, count(b.${u}), ${agg.d} FROM ${table} a ${type} ${table} b ON ${on}${w} GROUP BY a.${u}`);
  }
  const x = g.expr(pick(KINDS), 1);
  return Q('g_join_self', `SELECT a.${u}, b.${u}, ${x.t} FROM ${table} a ${type} ${table} b ON ${on}${w}`, `SELECT a.${u}, b.${u}, ${x.d} FROM ${table} a ${type} ${table} b ON ${on}${w}`);
}

const SEMI = [
  { outer: rel('customers', 'c'), inner: rel('orders', 'o'), corr: 'o.customer_id = c.customer_id', inCol: ['c.customer_id', 'o.customer_id'] },
  { outer: rel('products', 'p'), inner: rel('orders', 'o'), corr: 'o.product_id = p.product_id', inCol: ['p.product_id', 'o.product_id'] },
  { outer: rel('orders', 'o'), inner: rel('customers', 'c'), corr: 'c.customer_id = o.customer_id', inCol: ['o.customer_id', 'c.customer_id'] },
  { outer: rel('orders', 'o'), inner: rel('products', 'p'), corr: 'p.product_id = o.product_id', inCol: ['o.product_id', 'p.product_id'] },
  { outer: rel('customers', 'c'), inner: rel('events', 'e'), corr: 'e.customer_id = c.customer_id', inCol: ['c.customer_id', 'e.customer_id'] },
];

function qSemi() {
  const s = pick(SEMI);
  const gi = new Gen([s.inner]);
  const go = new Gen([s.outer]);
  const ip = gi.pred(1);
  const u = `${s.outer.alias}.${UNIQUE[s.outer.table]}`;
  const x = go.expr(pick(KINDS), 1);
  const ow = s.outer.table === 'orders' ? ` AND o.dt = '${pick(['2024-02-27', '2024-03-02', '2024-03-04'])}'` : '';
  switch (int(0, 4)) {
    case 0: case 1: {
      const not = chance(0.4) ? 'NOT ' : '';
      return Q('g_exists', `SELECT ${u}, ${x.t} FROM ${fromOf(s.outer)} WHERE ${not}EXISTS (SELECT 1 FROM ${fromOf(s.inner)} WHERE ${s.corr} AND ${ip.t})${ow}`,
        `SELECT ${u}, ${x.d} FROM ${fromOf(s.outer)} WHERE ${not}EXISTS (SELECT 1 FROM ${fromOf(s.inner)} WHERE ${s.corr} AND ${ip.d})${ow}`);
    }
    case 2: case 3: {
      const not = chance(0.5) ? 'NOT ' : '';
      const nn = chance(0.5) ? ` AND ${s.inCol[1]} IS NOT NULL` : '';
      return Q('g_in_subquery', `SELECT ${u}, ${x.t} FROM ${fromOf(s.outer)} WHERE ${s.inCol[0]} ${not}IN (SELECT ${s.inCol[1]} FROM ${fromOf(s.inner)} WHERE ${ip.t}${nn})${ow}`,
        `SELECT ${u}, ${x.d} FROM ${fromOf(s.outer)} WHERE ${s.inCol[0]} ${not}IN (SELECT ${s.inCol[1]} FROM ${fromOf(s.inner)} WHERE ${ip.d}${nn})${ow}`);
    }
    default: {
      // IN / EXISTS as a value in the select list
      return Q('g_in_subquery', `SELECT ${u}, ${s.inCol[0]} IN (SELECT ${s.inCol[1]} FROM ${fromOf(s.inner)} WHERE ${ip.t}) FROM ${fromOf(s.outer)} WHERE true${ow}`,
        `SELECT ${u}, ${s.inCol[0]} IN (SELECT ${s.inCol[1]} FROM ${fromOf(s.inner)} WHERE ${ip.d}) FROM ${fromOf(s.outer)} WHERE true${ow}`);
    }
  }
}

function qScalar() {
  const s = pick(SEMI);
  const gi = new Gen([s.inner]);
  const a = gi.agg(['int', 'dbl', 'dec', 'str', 'date']);
  const u = `${s.outer.alias}.${UNIQUE[s.outer.table]}`;
  const ow = s.outer.table === 'orders' ? ` WHERE o.dt = '${pick(['2024-02-29', '2024-03-01'])}'` : '';
  if (chance(0.5)) {
    // correlated scalar aggregate in the select list
    return Q('g_subquery_correlated', `SELECT ${u}, (SELECT ${a.t} FROM ${fromOf(s.inner)} WHERE ${s.corr}) FROM ${fromOf(s.outer)}${ow}`,
      `SELECT ${u}, (SELECT ${a.d} FROM ${fromOf(s.inner)} WHERE ${s.corr}) FROM ${fromOf(s.outer)}${ow}`);
  }
  // uncorrelated scalar in WHERE, compared with a column of the same family
  const table = pick(['orders', 'customers', 'products']);
  const go = new Gen([rel(table)]);
  const gs = new Gen([rel(pick(['orders', 'customers', 'products']))]);
  const k = pick(['int', 'dbl', 'dec', 'date']);
  const lhs = go.expr(k, 1);
  let sub = gs.agg([k]);
  while (sub.k !== k && !(k === 'dbl' && sub.k === 'int')) sub = gs.agg([k]);
  const op = pick(['>', '<', '=', '>=']);
  return Q('g_subquery_scalar', `SELECT ${UNIQUE[table]}, ${lhs.t} FROM ${table} WHERE ${lhs.t} ${op} (SELECT ${sub.t} FROM ${gs.scope[0].table})`,
    `SELECT ${UNIQUE[table]}, ${lhs.d} FROM ${table} WHERE ${lhs.d} ${op} (SELECT ${sub.d} FROM ${gs.scope[0].table})`);
}

function qCte() {
  const table = pick(['orders', 'customers', 'products', 'events']);
  const g = new Gen([rel(table)]);
  const key = g.col(pick(['int', 'str', 'date']));
  const a1 = g.agg(['int', 'dbl', 'dec']), a2 = g.agg();
  const w = g.pred(1);
  const cteT = `WITH s AS (SELECT ${key.t} AS k, ${a1.t} AS v, ${a2.t} AS w FROM ${table} WHERE ${w.t} GROUP BY 1)`;
  const cteD = `WITH s AS (SELECT ${key.d} AS k, ${a1.d} AS v, ${a2.d} AS w FROM ${table} WHERE ${w.d} GROUP BY 1)`;
  switch (int(0, 3)) {
    case 0: return Q('g_cte', `${cteT} SELECT k, v, w FROM s WHERE v IS NOT NULL`, `${cteD} SELECT k, v, w FROM s WHERE v IS NOT NULL`);
    case 1: { const q = ` SELECT a.k, a.v, b.v FROM s a ${pick(['JOIN', 'LEFT JOIN', 'FULL JOIN'])} s b ON a.k = b.k AND a.v ${pick(['<', '<=', '<>'])} b.v`; return Q('g_cte', cteT + q, cteD + q); }
    case 2: { const q = ' SELECT count(*), max(v), (SELECT min(v) FROM s) FROM s WHERE v > (SELECT avg(CAST(v AS double)) FROM s)'; return Q('g_cte', cteT + q, cteD + q); }
    default: { const q = ' SELECT k FROM s WHERE v IS NULL UNION ALL SELECT k FROM s WHERE w IS NULL'; return Q('g_cte', cteT + q, cteD + q); }
  }
}

function branch(k) {
  const table = pick(['orders', 'customers', 'products', 'events']);
  const g = new Gen([rel(table)]);
  const e = g.expr(k, 1);
  const w = g.pred(1);
  return { t: `SELECT ${e.t} FROM ${table} WHERE ${w.t}`, d: `SELECT ${e.d} FROM ${table} WHERE ${w.d}` };
}

function qSetop() {
  const k = pick(['int', 'str', 'date', 'dec', 'bool']);
  const op = pick(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT', 'UNION', 'UNION ALL']);
  const a = branch(k), b = branch(k);
  let t = `${a.t} ${op} ${b.t}`, d = `${a.d} ${op} ${b.d}`;
  if (chance(0.3)) { const c = branch(k); const op2 = pick(['UNION', 'INTERSECT', 'EXCEPT', 'UNION ALL']); t += ` ${op2} ${c.t}`; d += ` ${op2} ${c.d}`; }
  if (chance(0.4)) {
    const ob = ` ORDER BY 1${pick(['', ' DESC'])}${pick(['', ' NULLS FIRST', ' NULLS LAST'])} LIMIT ${int(1, 15)}`;
    t += ob; d += ob;
  }
  return Q('g_setop', t, d);
}

function qGroupingSets() {
  const table = pick(['orders', 'customers', 'products', 'events']);
  const g = new Gen([rel(table)]);
  const cands = allColumns(TBL[table]).filter(([, ty]) => ['str', 'bool', 'int'].includes(kindOf(ty))).map(([c]) => c)
    .filter((c) => c !== UNIQUE[table] && !/_id$|stock|qty/.test(c));
  const keys = sample(cands, int(2, 3));
  const aggs = Array.from({ length: int(1, 2) }, () => g.agg(['int', 'dbl', 'dec', 'str']));
  const kind = pick(['ROLLUP', 'CUBE', 'SETS']);
  let gb;
  if (kind === 'SETS') {
    const sets = [`(${keys.join(', ')})`, `(${keys[0]})`, ...(chance(0.5) ? [`(${keys[keys.length - 1]})`] : []), ...(chance(0.6) ? ['()'] : [])];
    gb = `GROUPING SETS (${sets.join(', ')})`;
  } else gb = `${kind} (${keys.join(', ')})`;
  const gr = chance(0.7) ? `, grouping(${keys.join(', ')}) AS g` : '';
  const w = chance(0.5) ? g.pred(1) : null;
  return Q('g_grouping_sets', `SELECT ${keys.join(', ')}${gr}, ${aggs.map((a) => a.t).join(', ')} FROM ${table}${w ? ' WHERE ' + w.t : ''} GROUP BY ${gb}`,
    `SELECT ${keys.join(', ')}${gr}, ${aggs.map((a) => a.d).join(', ')} FROM ${table}${w ? ' WHERE ' + w.d : ''} GROUP BY ${gb}`);
}

function qAggFilter() {
  const table = pick(['orders', 'customers', 'products', 'events']);
  const g = new Gen([rel(table)]);
  const items = Array.from({ length: int(1, 3) }, () => {
    const a = g.agg(['int', 'dbl', 'dec', 'str', 'date']);
    const p = g.pred(1);
    return E(`${a.t} FILTER (WHERE ${p.t})`, `${a.d} FILTER (WHERE ${p.d})`, a.k, { agg: true });
  });
  const key = chance(0.6) ? g.col(pick(['str', 'bool', 'int'])) : null;
  const s = sel(key ? [key, ...items] : items);
  return Q('g_agg_filter', `SELECT ${s.t} FROM ${table}${key ? ' GROUP BY 1' : ''}`, `SELECT ${s.d} FROM ${table}${key ? ' GROUP BY 1' : ''}`);
}

function qWindow() {
  const table = pick(['orders', 'orders', 'customers', 'products', 'events']);
  const g = new Gen([rel(table)]);
  const u = UNIQUE[table];
  const partCands = { orders: ['dt', 'status', 'customer_id', 'is_gift', 'priority'], customers: ['tier', 'city', 'country', 'is_active'], products: ['category', 'discontinued'], events: ['yr', 'region', 'kind', 'flag'] }[table];
  const part = chance(0.8) ? `PARTITION BY ${sample(partCands, int(1, 2)).join(', ')} ` : '';
  const ordKey = g.expr(pick(['int', 'dec', 'dbl', 'date', 'str']), 1);
  const dir = pick(['', ' DESC']) + pick(['', ' NULLS FIRST', ' NULLS LAST']);
  const totalT = `ORDER BY ${ordKey.t}${dir}, ${u}`, totalD = `ORDER BY ${ordKey.d}${dir}, ${u}`;
  const peerT = `ORDER BY ${ordKey.t}${dir}`, peerD = `ORDER BY ${ordKey.d}${dir}`;
  const fns = [];
  const n = int(1, 3);
  for (let i = 0; i < n; i++) {
    const x = g.expr(pick(['int', 'dbl', 'dec', 'str', 'date']), 1);
    switch (int(0, 11)) {
      case 0: fns.push([`row_number() OVER (${part}${totalT})`, `row_number() OVER (${part}${totalD})`]); break;
      case 1: { const f = pick(['rank', 'dense_rank', 'percent_rank', 'cume_dist']); fns.push([`${f}() OVER (${part}${peerT})`, `${f}() OVER (${part}${peerD})`]); break; }
      case 2: { const b = int(2, 5); fns.push([`ntile(${b}) OVER (${part}${totalT})`, `ntile(${b}) OVER (${part}${totalD})`]); break; }
      case 3: { const f = pick(['lag', 'lead']); const off = int(1, 3); fns.push([`${f}(${x.t}, ${off}) OVER (${part}${totalT})`, `${f}(${x.d}, ${off}) OVER (${part}${totalD})`]); break; }
      case 4: { const f = pick(['first_value', 'last_value']); const fr = pick(['', ' ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING', ' ROWS BETWEEN 2 PRECEDING AND CURRENT ROW']); fns.push([`${f}(${x.t}) OVER (${part}${totalT}${fr})`, `${f}(${x.d}) OVER (${part}${totalD}${fr})`]); break; }
      case 5: { const nn = int(1, 3); fns.push([`nth_value(${x.t}, ${nn}) OVER (${part}${totalT} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`, `nth_value(${x.d}, ${nn}) OVER (${part}${totalD} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)`]); break; }
      case 6: case 7: {
        const a = g.agg(['int', 'dbl', 'dec']);
        if (/DISTINCT|count_if|CASE WHEN/.test(a.t + a.d)) { fns.push([`count(*) OVER (${part.trim()})`, `count(*) OVER (${part.trim()})`]); break; }
        const fr = pick(['', ` ${'ROWS'} BETWEEN ${int(1, 3)} PRECEDING AND ${pick(['CURRENT ROW', '1 FOLLOWING', 'UNBOUNDED FOLLOWING'])}`, ' ROWS UNBOUNDED PRECEDING']);
        fns.push([`${a.t} OVER (${part}${totalT}${fr})`, `${a.d} OVER (${part}${totalD}${fr})`]);
        break;
      }
      case 8: {
        const a = g.agg(['int', 'dbl', 'dec']);
        if (/DISTINCT|CASE WHEN/.test(a.t + a.d)) { fns.push([`count(*) OVER (${part.trim()})`, `count(*) OVER (${part.trim()})`]); break; }
        fns.push([`${a.t} OVER (${part.trim()})`, `${a.d} OVER (${part.trim()})`]);
        break;
      }
      case 9: {
        const a = g.agg(['int', 'dbl', 'dec']);
        if (/DISTINCT|CASE WHEN/.test(a.t + a.d)) { fns.push([`rank() OVER (${part}${peerT})`, `rank() OVER (${part}${peerD})`]); break; }
        fns.push([`${a.t} OVER (${part}${peerT} RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`, `${a.d} OVER (${part}${peerD} RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`]);
        break;
      }
      case 10: fns.push([`count(*) OVER (${part}${peerT})`, `count(*) OVER (${part}${peerD})`]); break;
      default: {
        const f = pick(['min', 'max']);
        fns.push([`${f}(${x.t}) OVER (${part}${totalT} ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)`, `${f}(${x.d}) OVER (${part}${totalD} ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)`]);
      }
    }
  }
  const w = table === 'orders' ? ` WHERE dt ${pick(['=', '<>', '>='])} '${pick(['2024-02-28', '2024-03-01', '2024-03-03'])}'` : '';
  const cat = fns.some(([t]) => /row_number|rank|ntile|cume_dist/.test(t)) ? 'g_window_rank' : fns.some(([t]) => /lag|lead|_value/.test(t)) ? 'g_window_value' : 'g_window_agg';
  return Q(cat, `SELECT ${u}, ${fns.map((f, i) => `${f[0]} AS w${i + 1}`).join(', ')} FROM ${table}${w}`, `SELECT ${u}, ${fns.map((f, i) => `${f[1]} AS w${i + 1}`).join(', ')} FROM ${table}${w}`);
}

function qValues() {
  const kinds = pick([['int', 'str'], ['str', 'dec'], ['date', 'int'], ['str', 'int']]);
  const rows = Array.from({ length: int(2, 5) }, () => kinds.map((k) => (chance(0.15) ? 'NULL' : lit[k]().t)));
  // a NULL-only column has no type in Trino: keep one typed value in each column of the first row
  rows[0] = kinds.map((k) => lit[k]().t);
  const vals = rows.map((r) => `(${r.join(', ')})`).join(', ');
  const table = pick(['orders', 'customers', 'products']);
  const target = allColumns(TBL[table]).filter(([, ty]) => kindOf(ty) === kinds[0]).map(([c]) => c);
  const col = pick(target);
  const type = pick(['JOIN', 'LEFT JOIN', 'RIGHT JOIN']);
  const u = UNIQUE[table];
  return Q('g_values', `SELECT v.a, v.b, count(t.${u}) FROM (VALUES ${vals}) AS v(a, b) ${type} ${table} t ON t.${col} = v.a GROUP BY v.a, v.b`,
    `SELECT v.a, v.b, count(t.${u}) FROM (VALUES ${vals}) AS v(a, b) ${type} ${table} t ON t.${col} = v.a GROUP BY v.a, v.b`);
}

// ------------------------------------------------------------------ the mix
const PLAN = [
  // constructs sqe runs today
  [qFilter, 90, true], [qAgg, 90, true], [qDistinct, 20, true], [qSubqueryFrom, 30, true],
  // constructs being built
  [qJoin, 90], [qJoinMulti, 25], [qSelfJoin, 15], [qSemi, 45], [qScalar, 30], [qCte, 25], [qSetop, 40],
  [qGroupingSets, 30], [qAggFilter, 25], [qWindow, 75], [qValues, 15],
];

export function generate(seed = DEFAULT_SEED) {
  R = mulberry32(seed);
  const out = [];
  const counters = {};
  for (const [f, n, single] of PLAN) {
    for (let i = 0; i < n; i++) {
      const q = single ? f(pick(['orders', 'orders', 'customers', 'products', 'events'])) : f();
      counters[q.category] = (counters[q.category] || 0) + 1;
      q.name = `${q.category}_${String(counters[q.category]).padStart(3, '0')}`;
      out.push(q);
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const a = process.argv.slice(2);
  const arg = (n, d) => { const i = a.indexOf(n); return i >= 0 ? a[i + 1] : d; };
  const seed = Number(arg('--seed', DEFAULT_SEED));
  const out = path.resolve(arg('--out', path.join(HERE, 'queries', 'generated.sql')));
  const qs = generate(seed);
  const head = `# Generated by gen_queries.mjs --seed ${seed}: do not edit (regenerate instead; see README.md).\n` +
    `# ${qs.length} queries. A '---- duckdb' section is the same query in DuckDB's dialect.\n\n`;
  fs.writeFileSync(out, head + qs.map(formatQuery).join('\n'));
  console.log(`wrote ${qs.length} queries to ${path.relative(process.cwd(), out)}`);
}

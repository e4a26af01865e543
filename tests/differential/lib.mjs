// Shared pieces of the differential tier: the query-file format, the skip
// list, sqe's JSON output, DuckDB values, and how two results are compared.
// The formats are documented in README.md beside this file.
import fs from 'node:fs';

// ---------------------------------------------------------------- query files
//
//   query NAME CATEGORY [ordered|rowsort]
//   SQL (one or more lines, no blank line)
//   ---- duckdb [why]      optional: the same question in DuckDB's dialect
//   SQL
//   ---- expect [why]      optional: Trino's answer, compared instead of DuckDB's
//   v1<TAB>v2              NULL, (empty) for '', true/false, numbers, text
//   ---- error TEXT        optional: Trino fails; sqe's message must contain TEXT
//
// Records are separated by blank lines; lines starting with '#' between
// records are comments.
export function parseQueryFile(file) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const out = [];
  let cur = null, section = null;
  const finish = () => {
    if (!cur) return;
    cur.sql = cur.sql.join('\n').trim();
    if (cur.duckdb) cur.duckdb = cur.duckdb.join('\n').trim();
    if (!cur.sql) throw new Error(`${file}:${cur.line}: query ${cur.name} has no SQL`);
    if (!cur.mode) cur.mode = hasOuterOrderBy(cur.sql) ? 'ordered' : 'rowsort';
    out.push(cur);
    cur = null;
  };
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (!cur) {
      if (line.trim() === '' || line.startsWith('#')) return;
      const m = line.match(/^query\s+(\S+)\s+(\S+)(?:\s+(ordered|rowsort))?\s*$/);
      if (!m) throw new Error(`${file}:${i + 1}: expected 'query NAME CATEGORY [ordered|rowsort]', got: ${line}`);
      cur = { name: m[1], category: m[2], mode: m[3] || null, sql: [], file, line: i + 1 };
      section = 'sql';
      return;
    }
    if (line.trim() === '') { finish(); return; }
    let m;
    if ((m = line.match(/^----\s+duckdb\b\s*(.*)$/))) { section = 'duckdb'; cur.duckdb = []; cur.duckdbWhy = m[1]; return; }
    if ((m = line.match(/^----\s+expect\b\s*(.*)$/))) { section = 'expect'; cur.expect = []; cur.expectWhy = m[1]; return; }
    if ((m = line.match(/^----\s+error\s+(.+)$/))) { section = 'none'; cur.error = m[1].trim(); return; }
    if (line.startsWith('----')) throw new Error(`${file}:${i + 1}: unknown section: ${line}`);
    if (section === 'sql') cur.sql.push(line);
    else if (section === 'duckdb') cur.duckdb.push(line);
    else if (section === 'expect') cur.expect.push(line.split('\t').map(parseExpectedCell));
    else throw new Error(`${file}:${i + 1}: unexpected line after ---- error`);
  });
  finish();
  return out;
}

export function formatQuery(q) {
  let s = `query ${q.name} ${q.category}${q.mode ? ' ' + q.mode : ''}\n${q.sql}\n`;
  if (q.duckdb) s += `---- duckdb${q.duckdbWhy ? ' ' + q.duckdbWhy : ''}\n${q.duckdb}\n`;
  return s;
}

// Top-level ORDER BY of the outermost query (outside parentheses, strings, comments).
export function hasOuterOrderBy(sql) {
  let depth = 0, s = '';
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'") { const j = sql.indexOf("'", i + 1); i = j < 0 ? sql.length : j; s += ' '; continue; }
    if (ch === '"') { const j = sql.indexOf('"', i + 1); i = j < 0 ? sql.length : j; s += ' '; continue; }
    if (ch === '-' && sql[i + 1] === '-') { const j = sql.indexOf('\n', i); i = j < 0 ? sql.length : j; continue; }
    if (ch === '(') { depth++; continue; }
    if (ch === ')') { depth--; continue; }
    s += depth === 0 ? ch : ' ';
  }
  return /\border\s+by\b/i.test(s);
}

function parseExpectedCell(t) {
  if (t === 'NULL') return null;
  if (t === '(empty)') return { t: 's', v: '' };
  if (t === 'true' || t === 'false') return { t: 'b', v: t === 'true' };
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) || /^-?(NaN|Infinity)$/.test(t)) return { t: 'n', v: t };
  return { t: 's', v: t };
}

// ---------------------------------------------------------------- skip list
//
//   NAME-or-glob  reason...     ('#' starts a comment line)
export function parseSkipFile(file) {
  const entries = [];
  if (!fs.existsSync(file)) return entries;
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    const l = line.trim();
    if (!l || l.startsWith('#')) return;
    const m = l.match(/^(\S+)\s+(.+)$/);
    if (!m) throw new Error(`${file}:${i + 1}: a skip entry needs a reason: ${l}`);
    const re = new RegExp('^' + m[1].split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
    entries.push({ pattern: m[1], re, reason: m[2], line: i + 1, used: 0 });
  });
  return entries;
}

// ---------------------------------------------------------------- sqe JSON output
//
// sqe-cli --format json prints one array of objects per result. Objects may
// repeat a key (SELECT a.x, b.x), and numbers must keep their text (decimals,
// bigints), so this is a small parser of its own: each row is a list of cells
// {t:'n'|'s'|'b', v} or null.
export function parseSqeJson(text) {
  let i = 0;
  const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  const expect = (c) => { ws(); if (text[i] !== c) throw new Error(`sqe json: expected '${c}' at ${i}: ${text.slice(i, i + 40)}`); i++; };
  const str = () => {
    expect('"');
    let s = '';
    for (;;) {
      const c = text[i++];
      if (c === undefined) throw new Error('sqe json: unterminated string');
      if (c === '"') return s;
      if (c === '\\') {
        const e = text[i++];
        if (e === 'u') { s += String.fromCharCode(parseInt(text.slice(i, i + 4), 16)); i += 4; }
        else s += { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"' }[e];
      } else s += c;
    }
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '"') return { t: 's', v: str() };
    if (text.startsWith('null', i)) { i += 4; return null; }
    if (text.startsWith('true', i)) { i += 4; return { t: 'b', v: true }; }
    if (text.startsWith('false', i)) { i += 5; return { t: 'b', v: false }; }
    const m = text.slice(i).match(/^-?\d+(\.\d+)?([eE][-+]?\d+)?/);
    if (!m) throw new Error(`sqe json: unexpected value at ${i}: ${text.slice(i, i + 40)}`);
    i += m[0].length;
    return { t: 'n', v: m[0] };
  };
  const results = [];
  ws();
  while (i < text.length) {
    expect('[');
    const rows = [];
    let columns = null;
    ws();
    if (text[i] === ']') i++;
    else {
      for (;;) {
        expect('{');
        const row = [], cols = [];
        ws();
        if (text[i] === '}') i++;
        else {
          for (;;) {
            cols.push(str());
            expect(':');
            row.push(value());
            ws();
            if (text[i] === ',') { i++; continue; }
            expect('}');
            break;
          }
        }
        if (!columns) columns = cols;
        rows.push(row);
        ws();
        if (text[i] === ',') { i++; continue; }
        expect(']');
        break;
      }
    }
    results.push({ columns, rows });
    ws();
  }
  return results;
}

// ---------------------------------------------------------------- DuckDB values
export function duckCell(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return { t: 'b', v };
  if (typeof v === 'number') return { t: 'n', v: Number.isNaN(v) ? 'NaN' : String(v) };
  if (typeof v === 'bigint') return { t: 'n', v: v.toString() };
  if (typeof v === 'string') return { t: 's', v };
  const cls = v.constructor?.name || '';
  if (/Decimal|HugeInt|UHugeInt/.test(cls)) return { t: 'n', v: v.toString() };
  if (/Date|Timestamp|Time/.test(cls)) return { t: 's', v: v.toString() };
  return { t: 's', v: String(v) };
}

// ---------------------------------------------------------------- comparison
const TS_RE = /^(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)(\.\d+)?$/;
// Timestamps: '2024-01-01 10:00:00.500' (sqe, Trino's timestamp(3)) equals
// '2024-01-01 10:00:00.5' (DuckDB): drop trailing zeros of the fraction.
export function normStr(s) {
  const m = s.match(TS_RE);
  if (!m) return s;
  const frac = (m[2] || '').replace(/0+$/, '').replace(/^\.$/, '');
  return m[1].replace('T', ' ') + frac;
}

const SPECIAL = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '+Infinity': Infinity, inf: Infinity, '-inf': -Infinity };
function numVal(s) { return s in SPECIAL ? SPECIAL[s] : Number(s); }
const INT_RE = /^[-+]?\d+$/;
export const REL_TOL = 1e-9;
const ABS_TOL = 1e-12;

export function numEq(a, b) {
  if (a === b) return true;
  if (INT_RE.test(a) && INT_RE.test(b)) {
    if (BigInt(a) === BigInt(b)) return true;
    // beyond 2^53 an integral-looking number may be a double printed without a
    // fraction (JavaScript prints 2.7e18 as digits): compare with the tolerance
    const big = 2n ** 53n, abs = (x) => (x < 0n ? -x : x);
    if (abs(BigInt(a)) < big && abs(BigInt(b)) < big) return false;
  }
  const x = numVal(a), y = numVal(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (x === y) return true; // also -0 = 0, and equal infinities
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  const d = Math.abs(x - y);
  return d <= ABS_TOL || d <= REL_TOL * Math.max(Math.abs(x), Math.abs(y));
}

// exact: strings compared as written (a written Trino expectation), else
// timestamp renderings are normalized first (DuckDB prints no fixed precision).
export function cellEq(a, b, exact = false) {
  if (a === null || b === null) return a === b;
  if (a.t === 'n' && b.t === 'n') return numEq(a.v, b.v);
  if (a.t === 'b' && b.t === 'b') return a.v === b.v;
  if (a.t === 's' && b.t === 's') return exact ? a.v === b.v : normStr(a.v) === normStr(b.v);
  // kinds differ: NaN/Infinity may come as text; otherwise compare renderings
  if (a.t === 'n' && b.t === 's' && b.v in SPECIAL) return numEq(a.v, b.v);
  if (b.t === 'n' && a.t === 's' && a.v in SPECIAL) return numEq(a.v, b.v);
  if ((a.t === 'n' && b.t === 's') || (a.t === 's' && b.t === 'n')) {
    const sv = a.t === 's' ? a.v : b.v, nv = a.t === 'n' ? a.v : b.v;
    return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(sv.trim()) ? numEq(sv.trim(), nv) : false;
  }
  return String(a.v) === String(b.v);
}

export function showCell(c) {
  if (c === null) return 'NULL';
  if (c.t === 's') return c.v === '' ? '(empty)' : JSON.stringify(c.v);
  return String(c.v);
}
export const showRow = (r) => r.map(showCell).join(' | ');

// Sort key: numbers rounded to 12 significant digits so float noise does not reorder.
function sortKey(row) {
  return row.map((c) => {
    if (c === null) return '\u0000';
    if (c.t === 'n') { const x = numVal(c.v); return 'n' + (Number.isFinite(x) ? (x === 0 ? 0 : x).toPrecision(12) : c.v); }
    if (c.t === 's') return 's' + normStr(c.v);
    return 'b' + c.v;
  }).join('\u0001');
}
let exactStrings = false;
const rowEq = (a, b) => a.length === b.length && a.every((c, i) => cellEq(c, b[i], exactStrings));

// Returns null when equal, else a short description of the first difference.
export function compareRows(got, want, ordered, exact = false) {
  exactStrings = exact;
  try { return compareRowsImpl(got, want, ordered); } finally { exactStrings = false; }
}

function compareRowsImpl(got, want, ordered) {
  const width = (rs) => (rs.length ? rs[0].length : null);
  if (got.length && want.length && width(got) !== width(want))
    return `column count: sqe ${width(got)}, expected ${width(want)}`;
  if (ordered) {
    for (let i = 0; i < Math.max(got.length, want.length); i++) {
      if (i >= got.length) return `row count: sqe ${got.length}, expected ${want.length}; first missing row #${i + 1}: ${showRow(want[i])}`;
      if (i >= want.length) return `row count: sqe ${got.length}, expected ${want.length}; first extra row #${i + 1}: ${showRow(got[i])}`;
      if (!rowEq(got[i], want[i])) {
        const same = compareRowsImpl(got, want, false) === null;
        return `row #${i + 1}: sqe ${showRow(got[i])}; expected ${showRow(want[i])}${same ? ' (same rows, different order)' : ''}`;
      }
    }
    return null;
  }
  if (got.length !== want.length) {
    const diff = multisetDiff(got, want);
    return `row count: sqe ${got.length}, expected ${want.length}` + diffText(diff);
  }
  const g = got.map((r) => [sortKey(r), r]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((x) => x[1]);
  const w = want.map((r) => [sortKey(r), r]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((x) => x[1]);
  if (g.every((r, i) => rowEq(r, w[i]))) return null;
  const diff = multisetDiff(got, want); // tolerant matching, for float keys that sort apart
  if (!diff.onlyGot.length && !diff.onlyWant.length) return null;
  return 'rows differ' + diffText(diff);
}

function multisetDiff(got, want) {
  if (got.length * want.length > 25e6) return { onlyGot: got.slice(0, 3), onlyWant: want.slice(0, 3), approx: true };
  const used = new Uint8Array(want.length);
  const buckets = new Map();
  want.forEach((r, i) => {
    const k = r.length + ':' + r.map((c) => (c === null ? 'N' : c.t)).join('');
    if (!buckets.has(k)) buckets.set(k, []);
    buckets.get(k).push(i);
  });
  const onlyGot = [];
  for (const r of got) {
    let found = -1;
    const k = r.length + ':' + r.map((c) => (c === null ? 'N' : c.t)).join('');
    const cand = buckets.get(k) || [];
    for (const i of cand) if (!used[i] && rowEq(r, want[i])) { found = i; break; }
    if (found < 0) for (let i = 0; i < want.length; i++) if (!used[i] && rowEq(r, want[i])) { found = i; break; }
    if (found < 0) onlyGot.push(r); else used[found] = 1;
  }
  const onlyWant = want.filter((_, i) => !used[i]);
  return { onlyGot, onlyWant };
}

function diffText(d) {
  let s = '';
  if (d.onlyGot.length) s += `; only in sqe (${d.onlyGot.length}): ${d.onlyGot.slice(0, 3).map(showRow).join(' ; ')}`;
  if (d.onlyWant.length) s += `; only expected (${d.onlyWant.length}): ${d.onlyWant.slice(0, 3).map(showRow).join(' ; ')}`;
  return s;
}

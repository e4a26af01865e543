// The warehouse both engines read: table names, columns (Hive types), partition
// keys. gen_data.mjs writes the files, run.mjs registers them in sqe (Athena
// DDL) and in DuckDB (read_csv views with explicit types), and
// gen_queries.mjs draws column names and types from here.

export const DB = 'db';

// kind: the generator's type class (int, dec, dbl, str, date, ts, bool)
export const TABLES = [
  {
    name: 'orders',
    alias: 'o',
    partitions: [['dt', 'string']],
    columns: [
      ['order_id', 'bigint'], // unique, never NULL: the total order for windows and LIMIT
      ['customer_id', 'int'], // joins customers.customer_id: partial overlap, NULLs
      ['product_id', 'int'], // joins products.product_id: partial overlap, NULLs
      ['qty', 'int'], // negatives (returns), zero, NULL
      ['unit_price', 'decimal(10,2)'],
      ['discount', 'double'], // multiples of 1/8: float sums are exact in any order
      ['status', 'string'], // '' and NULL and a case variant
      ['note', 'string'], // blanks, %, _, accents
      ['order_date', 'date'],
      ['created_at', 'timestamp'],
      ['is_gift', 'boolean'],
      ['priority', 'smallint'],
    ],
  },
  {
    name: 'customers',
    alias: 'c',
    partitions: [['tier', 'int']],
    columns: [
      ['customer_key', 'bigint'], // unique surrogate key, never NULL
      ['customer_id', 'int'], // business key: duplicates and NULLs
      ['name', 'string'],
      ['city', 'string'],
      ['country', 'string'],
      ['signup_date', 'date'],
      ['credit_limit', 'decimal(12,2)'],
      ['score', 'double'], // multiples of 1/4
      ['is_active', 'boolean'],
      ['last_login', 'timestamp'],
    ],
  },
  {
    name: 'products',
    alias: 'p',
    partitions: [],
    columns: [
      ['product_id', 'int'], // unique, never NULL
      ['name', 'string'],
      ['category', 'string'],
      ['price', 'decimal(8,2)'],
      ['weight', 'double'], // multiples of 1/16
      ['launched', 'date'],
      ['discontinued', 'boolean'],
      ['stock', 'bigint'], // beyond 2^31, negatives
    ],
  },
  {
    // two partition levels, NULL partitions at both; ragged rows (missing
    // trailing fields read as NULL, extra fields ignored, as Hive does)
    name: 'events',
    alias: 'e',
    partitions: [['yr', 'int'], ['region', 'string']],
    columns: [
      ['event_id', 'bigint'], // unique, never NULL
      ['customer_id', 'int'],
      ['kind', 'varchar(10)'], // longer values are cut to 10 characters on read
      ['amount', 'decimal(12,3)'],
      ['ratio', 'double'], // multiples of 1/4
      ['ts', 'timestamp'],
      ['flag', 'boolean'],
      ['code', 'tinyint'], // small: sums of a few stay inside tinyint
      ['note', 'string'],
    ],
  },
];

export function kindOf(hiveType) {
  if (/^(tinyint|smallint|int|integer|bigint)$/.test(hiveType)) return 'int';
  if (hiveType.startsWith('decimal')) return 'dec';
  if (hiveType === 'double') return 'dbl';
  if (hiveType === 'string' || hiveType.startsWith('varchar')) return 'str';
  if (hiveType === 'date') return 'date';
  if (hiveType === 'timestamp') return 'ts';
  if (hiveType === 'boolean') return 'bool';
  throw new Error(`unknown type ${hiveType}`);
}

export function duckType(hiveType) {
  const m = {
    tinyint: 'TINYINT', smallint: 'SMALLINT', int: 'INTEGER', integer: 'INTEGER', bigint: 'BIGINT',
    double: 'DOUBLE', string: 'VARCHAR', date: 'DATE', timestamp: 'TIMESTAMP', boolean: 'BOOLEAN',
  };
  if (m[hiveType]) return m[hiveType];
  if (hiveType.startsWith('decimal')) return hiveType.toUpperCase();
  if (hiveType.startsWith('varchar')) return 'VARCHAR';
  throw new Error(`unknown type ${hiveType}`);
}

// All columns of a table, partition keys last (as both engines show them).
export function allColumns(t) {
  return [...t.columns, ...t.partitions];
}

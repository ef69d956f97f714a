import type { Database, SqlValue } from "sql.js";

/** Every row of a parameterised query, as arrays of values; the statement is always freed. */
export function allRows(db: Database, sql: string, params: readonly SqlValue[] = []): SqlValue[][] {
  const statement = db.prepare(sql);
  try {
    statement.bind([...params]);
    const rows: SqlValue[][] = [];
    while (statement.step()) rows.push(statement.get());
    return rows;
  } finally {
    statement.free();
  }
}

/** A nullable text column. */
export const textOrNull = (value: SqlValue | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

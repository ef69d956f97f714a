/**
 * BM25 computed from FTS4's matchinfo(t, 'pcnalx'), because sql.js has FTS4 only and FTS4 has no bm25().
 *
 * Layout of 'pcnalx' (32-bit unsigned integers):
 *   p                      number of phrases in the query
 *   c                      number of columns
 *   n                      number of rows in the table
 *   a[c]                   average number of tokens per column, over all rows (rounded to an integer by SQLite)
 *   l[c]                   number of tokens per column in this row
 *   x[p][c][3]             per phrase and column: hits in this row, hits in all rows, rows with at least one hit
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** messages_fts columns: content, tool_name. A hit on a tool's name says less than a hit in what was said. */
export const MESSAGE_COLUMN_WEIGHTS: readonly number[] = [1.0, 0.5];

export interface MatchInfo {
  readonly phrases: number;
  readonly columns: number;
  readonly totalDocs: number;
  readonly avgLength: readonly number[];
  readonly rowLength: readonly number[];
  /** hitsThisRow(phrase, column) etc. read from the x block. */
  readonly x: ArrayLike<number>;
}

/**
 * The integers of a matchinfo value. sql.js returns the blob as a Uint8Array of little-endian uint32s; it may not be
 * 4-byte aligned within its buffer, so it is read through a DataView rather than viewed as a Uint32Array.
 */
export function matchinfoValues(blob: Uint8Array | ArrayLike<number>): ArrayLike<number> {
  if (!(blob instanceof Uint8Array)) return blob;
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const values = new Uint32Array(blob.byteLength >>> 2);
  for (let i = 0; i < values.length; i++) values[i] = view.getUint32(i * 4, true);
  return values;
}

/** Splits 'pcnalx' integers into their parts; throws on a value that is too short to be one. */
export function parseMatchinfo(blob: Uint8Array | ArrayLike<number>): MatchInfo {
  const v = matchinfoValues(blob);
  const phrases = v[0] ?? 0;
  const columns = v[1] ?? 0;
  const expected = 3 + 2 * columns + 3 * phrases * columns;
  if (v.length < 3 || v.length < expected)
    throw new Error(`matchinfo 'pcnalx' needs ${expected} integers, got ${v.length}`);
  const avgLength: number[] = [];
  const rowLength: number[] = [];
  for (let c = 0; c < columns; c++) {
    avgLength.push(v[3 + c]!);
    rowLength.push(v[3 + columns + c]!);
  }
  const xStart = 3 + 2 * columns;
  const x = Array.from({ length: 3 * phrases * columns }, (_, i) => v[xStart + i]!);
  return { phrases, columns, totalDocs: v[2]!, avgLength, rowLength, x };
}

/**
 * Inverse document frequency in the "+1" form (Lucene's): never negative, so a term present in more than half
 * the rows still adds a little instead of pushing a match below a non-match.
 */
export function idf(totalDocs: number, docsWithHits: number): number {
  return Math.log(1 + (totalDocs - docsWithHits + 0.5) / (docsWithHits + 0.5));
}

/**
 * BM25 score of one row: the sum over phrases and columns of
 *   weight[c] · idf(n, docs with hits) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)).
 * Higher is better. Statistics are per column, as FTS4 reports them. A column whose average length rounds to 0
 * (tool_name is empty in most rows) is normalised against 1 token, not divided by zero. Reads the integers in
 * place (no parse into objects): it runs once per candidate row.
 */
export function bm25(
  matchinfo: Uint8Array | ArrayLike<number>,
  weights: readonly number[] = MESSAGE_COLUMN_WEIGHTS,
  k1 = BM25_K1,
  b = BM25_B,
): number {
  const v = matchinfoValues(matchinfo);
  const phrases = v[0] ?? 0;
  const columns = v[1] ?? 0;
  if (v.length < 3 + 2 * columns + 3 * phrases * columns) throw new Error("matchinfo value is not in 'pcnalx' form");
  const totalDocs = v[2]!;
  const xStart = 3 + 2 * columns;
  let score = 0;
  for (let c = 0; c < columns; c++) {
    const weight = weights[c] ?? 1;
    if (weight === 0) continue;
    const lengthNorm = 1 - b + (b * v[3 + columns + c]!) / Math.max(1, v[3 + c]!);
    for (let p = 0; p < phrases; p++) {
      const at = xStart + 3 * (p * columns + c);
      const tf = v[at]!;
      if (tf === 0) continue;
      score += weight * idf(totalDocs, v[at + 2]!) * ((tf * (k1 + 1)) / (tf + k1 * lengthNorm));
    }
  }
  return score;
}

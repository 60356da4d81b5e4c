// Text output helpers for the CLI: aligned tables and short human numbers.

/** 11689512 → "11.69 M"; 1818000000 → "1.82 G". */
export function humanCount(n: number): string {
  const units: Array<[number, string]> = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'K']];
  for (const [scale, unit] of units) if (Math.abs(n) >= scale) return `${(n / scale).toFixed(2)} ${unit}`;
  return String(n);
}

/** Columns padded to their widest cell; `right` lists columns aligned to the right (numbers). */
export function table(header: readonly string[], rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, c) => (right.includes(c) ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** "1,3,224,224" → [1,3,224,224]. */
export function parseShapeOption(text: string): number[] {
  const dims = text.split(/[,x]/).map((d) => Number(d.trim()));
  if (dims.length === 0 || dims.some((d) => !Number.isInteger(d) || d < 1)) {
    throw new Error(`--input-shape ${text}: expected positive integers separated by commas, e.g. 1,3,224,224`);
  }
  return dims;
}

/** Two columns, keys padded: a summary block. */
export function keyValues(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

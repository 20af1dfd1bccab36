/** A CSV cell's value: text, a number or a flag; null and undefined are empty. */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * RFC 4180 CSV with a header line and CRLF line ends. A text cell a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) is prefixed with an apostrophe (OWASP's advice on
 * CSV injection): a JSON export keeps the exact text. The user's export and a workspace's audit log
 * are written with it.
 */
export function csv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const cell = (value: CsvCell): string => {
    if (value === null || value === undefined) return '';
    let text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header, ...rows].map((row) => `${row.map(cell).join(',')}\r\n`).join('');
}

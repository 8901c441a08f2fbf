// Reads the exports' CSV back in the API and end-to-end tests, as a spreadsheet would.

/**
 * RFC 4180: fields split on commas and CRLF, quoted fields may hold both, "" is a quote. `separator`
 * reads it as a spreadsheet whose list separator is another character does (';' in Excel for German,
 * French, Spanish, Italian…).
 */
export function parseCsv(text: string, separator = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || row.length) throw new Error('the CSV does not end with CRLF');
  return rows;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * The cells that a spreadsheet would run as a formula when it opens this CSV with a comma or a
 * semicolon as its list separator (each as `separator row:column text`): none, for a safe export.
 */
export function formulaCells(text: string): string[] {
  const found: string[] = [];
  for (const separator of [',', ';']) {
    parseCsv(text.replace(/^\uFEFF/, ''), separator).forEach((row, r) => {
      row.forEach((cell, c) => {
        // A bare negative number is a number, not a formula.
        if (FORMULA_START.test(cell) && !/^-\d+(\.\d+)?$/.test(cell))
          found.push(`${separator} ${r + 1}:${c + 1} ${cell}`);
      });
    });
  }
  return found;
}

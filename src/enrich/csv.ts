/**
 * CSV as RFC 4180 describes it, for the enrichment lists: records separated by CRLF (LF alone is
 * accepted too), fields by commas, a field in double quotes may hold commas, line breaks and quotes
 * (doubled, `""`). UTF-8, an optional byte-order mark, a header row first.
 *
 * Parsing is strict where a lenient reading would guess: a quote inside an unquoted field, text after
 * a closing quote, an unterminated quote or a record with the wrong number of fields is an error that
 * names the line. Blank lines are skipped. Writing quotes a field only when it needs it (a comma, a
 * quote, a line break, or leading/trailing spaces) and ends every record with CRLF.
 */
import { ReceiptKitError } from '../errors.js';

export interface CsvRecord {
  /** The fields of the record. */
  fields: string[];
  /** 1-based line of the file the record starts on. */
  line: number;
}

function csvError(what: string, message: string): ReceiptKitError {
  return new ReceiptKitError('INVALID_OPTION', `${what}: ${message}`, { field: what });
}

/** Decodes UTF-8 bytes (refusing invalid sequences) and drops a byte-order mark. */
export function decodeCsv(data: string | Uint8Array, what: string): string {
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      throw csvError(what, 'the CSV is not valid UTF-8 text');
    }
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Splits CSV text into records (the header is the first one). */
export function parseCsv(text: string, what: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const n = text.length;
  let quoted = false; // the current field started with a quote
  let fieldStarted = false;
  const endRecord = () => {
    fields.push(field);
    // a blank line is one empty unquoted field: skip it
    if (!(fields.length === 1 && fields[0] === '' && !quoted)) records.push({ fields, line: recordLine });
    fields = [];
    field = '';
    quoted = false;
    fieldStarted = false;
  };
  while (i < n) {
    const c = text[i]!;
    if (!fieldStarted && c === '"') {
      // a quoted field: up to the closing quote
      quoted = true;
      fieldStarted = true;
      const startLine = line;
      i++;
      for (;;) {
        if (i >= n) throw csvError(what, `line ${startLine}: a quoted field is not closed`);
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw csvError(what, `line ${line}: text after the closing quote of a field (write a quote inside a quoted field as "")`);
      }
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      quoted = false;
      fieldStarted = false;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    if (c === '"') throw csvError(what, `line ${line}: a quote inside an unquoted field (quote the whole field and double the quote: "a ""b"" c")`);
    field += c;
    fieldStarted = true;
    i++;
  }
  if (fieldStarted || fields.length) endRecord();
  return records;
}

/** One field as CSV: quoted when it holds a comma, a quote, a line break or edge spaces. */
export function csvField(value: string | number | undefined | null): string {
  if (value === undefined || value === null) return '';
  const s = String(value);
  if (/[",\r\n]/.test(s) || /^\s|\s$/.test(s)) return `"${s.replace(/"/g, '""')}"`;
  return s;
}

/** Header and rows as CSV text, CRLF after every record. */
export function formatCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | undefined | null>>): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',') + '\r\n').join('');
}

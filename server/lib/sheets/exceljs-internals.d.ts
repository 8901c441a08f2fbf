// Two modules inside exceljs 4.4.0 (pinned) that xlsx.ts reads the shared strings with: the sax event
// stream every exceljs reader uses, and the <si> parser of its whole-workbook reader.
declare module 'exceljs/lib/utils/parse-sax.js' {
  import type { Readable } from 'node:stream';

  export type SaxEvent =
    | { eventType: 'opentag'; value: { name: string; attributes: Record<string, string> } }
    | { eventType: 'text'; value: string }
    | { eventType: 'closetag'; value: { name: string } };

  export default function parseSax(stream: Readable): AsyncIterable<SaxEvent[]>;
}

declare module 'exceljs/lib/xlsx/xform/strings/shared-string-xform.js' {
  /** Parses one <si>: its model is a string, or `{ richText: [{ text, font }] }`, or `{}` when empty. */
  export default class SharedStringXform {
    model: unknown;
    parseOpen(node: { name: string; attributes: Record<string, string> }): boolean;
    parseText(text: string): void;
    /** false once the <si> is closed. */
    parseClose(name: string): boolean;
  }
}

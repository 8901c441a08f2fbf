// Exporting a tag tree — the draft or a published version — through the one export job: CSV or XLSX
// with one row per node and its full path, or JSON nested as the tree is. Rows are read depth-first (by
// path), a batch at a time, so the nested JSON is written as it streams and memory holds one batch.
import { z } from 'zod';
import { type TagNodeWithPath, tagExportFormats, tagStatusLabels } from '../../../contracts/tags';
import type { ExportDefinition } from '../exports/export-job';
import { FileSink } from '../exports/file-sink';
import type { Cell, Column, TableWriter } from '../exports/table';
import { pathText } from './tree-paths';
import { countNodes, nodesInTreeOrder } from './tree-reads';
import type { ResolvedSource } from './tree-source';

export const TAGS_EXPORT_KIND = 'export.tags';
export const TAGS_EXPORT_NAME = 'Tags export';

export const tagsExportPayloadSchema = z.object({
  /** The draft, or a version (checked to exist when the task was started). */
  source: z.union([z.literal('draft'), z.number().int().min(1)]),
  format: z.enum(tagExportFormats),
});
export type TagsExportPayload = z.infer<typeof tagsExportPayloadSchema>;

const sourceOf = (payload: TagsExportPayload): ResolvedSource =>
  payload.source === 'draft'
    ? { kind: 'draft' }
    : // `latest` only picks the partial indexes; the rows are the same either way.
      { kind: 'version', number: payload.source, latest: false };

const COLUMNS: Column[] = [
  { header: 'Path', width: 60 },
  { header: 'Name', width: 30 },
  { header: 'Code', width: 30 },
  { header: 'Level', width: 8 },
  { header: 'Products', width: 10 },
  { header: 'Products with subtree', width: 12 },
  { header: 'Status', width: 14 },
];

type ExportRow = TagNodeWithPath & { treePath: string };

/**
 * Nested JSON from the rows in depth-first order: each row opens its node, which stays open for the
 * rows below it (a deeper level) and closes when a row at its level or above comes.
 */
function nestedJsonWriter(file: string, payload: TagsExportPayload): TableWriter {
  const sink = new FileSink(file);
  let open = 0;
  // Whether the next node follows a sibling in the same list (and so needs a comma before it).
  let afterSibling = false;
  const head = `{"source":${JSON.stringify(payload.source)},"exportedAt":${JSON.stringify(new Date().toISOString())},"tags":[`;
  let started = false;
  const start = async () => {
    if (!started) await sink.write(head);
    started = true;
  };
  return {
    async writeRows(rows: Cell[][]) {
      await start();
      let out = '';
      for (const cells of rows) {
        const level = Number(cells[3]);
        while (open >= level) {
          out += ']}';
          open--;
          afterSibling = true;
        }
        if (afterSibling) out += ',';
        out += `{"name":${JSON.stringify(cells[1])},"code":${JSON.stringify(cells[2])},"level":${level},"products":${Number(cells[4])},"productsWithSubtree":${Number(cells[5])},"status":${JSON.stringify(cells[6])},"children":[`;
        open = level;
        afterSibling = false;
      }
      if (out) await sink.write(out);
    },
    async commit() {
      await start();
      await sink.write(`${']}'.repeat(open)}]}\n`);
      await sink.commit();
    },
    discard: () => sink.discard(),
  };
}

export const tagsExport: ExportDefinition<TagsExportPayload, ExportRow> = {
  kind: TAGS_EXPORT_KIND,
  name: TAGS_EXPORT_NAME,
  fileStem: 'tags',
  sheetName: 'Tags',
  noun: ['tag', 'tags'],
  payloadSchema: tagsExportPayloadSchema,
  async columns() {
    return { columns: COLUMNS };
  },
  count: (db, payload) => countNodes(db, sourceOf(payload)),
  async readBatch(db, payload, after, limit) {
    const rows = await nodesInTreeOrder(db, sourceOf(payload), after?.key ?? null, limit);
    return rows.map((row) => ({ ...row, cursorKey: row.treePath }));
  },
  cellsOf(row, payload) {
    return [
      pathText(row.pathNames),
      row.name,
      row.code,
      row.level,
      row.productCount,
      row.productTotal,
      payload.source === 'draft' ? tagStatusLabels[row.status] : 'Published',
    ];
  },
  jsonWriter: (file, _columns, payload) => nestedJsonWriter(file, payload),
};

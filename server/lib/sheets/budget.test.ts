// The streaming budgets (budget.ts) and the read caps (parse-slots.ts), on their own.
import { describe, expect, it } from 'vitest';
import { InflatedBudget, XLSX_BUDGETS, XmlShapeGuard } from './budget';
import { PARSE_SLOTS, runningReads, takeUploadSlot, waitForSlot } from './parse-slots';

const bytes = (text: string) => Buffer.from(text);
const MB = 1024 * 1024;

describe('XmlShapeGuard', () => {
  it('lets a worksheet through, whatever the chunking, quotes holding > included', () => {
    const xml =
      '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr" x="a>b"><is><t>hi</t></is></c></row>' +
      `<row r="2"><c r="A2"><v>${'7'.repeat(XLSX_BUDGETS.maxTextBytes)}</v></c></row></sheetData></worksheet>`;
    for (const size of [1, 7, 4096]) {
      const guard = new XmlShapeGuard('sheet.xml');
      for (let at = 0; at < xml.length; at += size) guard.check(bytes(xml.slice(at, at + size)));
    }
  });

  it('refuses a text run past the limit before it ends', () => {
    const guard = new XmlShapeGuard('xl/sharedStrings.xml');
    guard.check(bytes('<sst><si><t>'));
    const chunk = bytes('a'.repeat(64 * 1024));
    expect(() => {
      for (let i = 0; i < 100; i++) guard.check(chunk);
    }).toThrow(/xl\/sharedStrings.xml holds a text of more than 32,767 characters/);
  });

  it('refuses a long tag and deep nesting', () => {
    expect(() => new XmlShapeGuard('p').check(bytes(`<c r="${'A'.repeat(70 * 1024)}"/>`))).toThrow(
      /a tag longer than 64 KB/,
    );
    expect(() => new XmlShapeGuard('p').check(bytes('<a>'.repeat(65)))).toThrow(/more than 64 deep/);
    // Closed and self-closed elements do not add up.
    new XmlShapeGuard('p').check(bytes('<a><b/></a>'.repeat(1000)));
  });
});

describe('InflatedBudget', () => {
  it('refuses more than 100 times the compressed bytes once past the free start', () => {
    let compressed = 0;
    const budget = new InflatedBudget(() => compressed);
    budget.spend(XLSX_BUDGETS.ratioFreeBytes); // free
    compressed = 100 * 1024;
    budget.spend(5 * MB); // 92× so far: still under
    expect(() => budget.spend(10 * MB)).toThrow(/more than 100 times its size/);
  });

  it('refuses more than the total, however well it compresses', () => {
    const budget = new InflatedBudget(() => Number.MAX_SAFE_INTEGER);
    budget.spend(XLSX_BUDGETS.totalInflatedBytes);
    expect(() => budget.spend(1)).toThrow(/inflates to more than 1,024 MB/);
  });
});

describe('parse slots', () => {
  it('caps reads per user (429) and per process (503); a job waits for a slot', async () => {
    const releases = [takeUploadSlot('u1'), takeUploadSlot('u1')];
    expect(() => takeUploadSlot('u1')).toThrow(expect.objectContaining({ code: 'BUSY_USER' }));
    while (runningReads() < PARSE_SLOTS.total) releases.push(takeUploadSlot(`other-${runningReads()}`));
    expect(() => takeUploadSlot('u2')).toThrow(expect.objectContaining({ code: 'BUSY_SERVER' }));

    let started = false;
    const job = waitForSlot().then((release) => {
      started = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(false);
    releases.pop()?.();
    const release = await job;
    expect(started).toBe(true);
    release();
    for (const done of releases) done();
    expect(runningReads()).toBe(0);
  });
});

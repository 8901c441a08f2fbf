import { describe, expect, it } from 'vitest';
import { validationMessages } from '../../../../contracts/domain/validators';
import { IMPORT_MAX_BYTES } from '../../../../contracts/imports';
import { checkSheetFile, sheetFormatOf, uploadPercent } from '../../../lib/sheet-file';
import { checkRequestForm, emptyRequestForm, feedRequestBody } from './request-form';

const SELLER = '33333333-3333-4333-8333-333333333333';
const sheet = (name: string, size = 10) => ({ name, size }) as File;

describe('a sheet picked for upload', () => {
  it('is a CSV or an XLSX by its name', () => {
    expect(sheetFormatOf('Spring.CSV')).toBe('csv');
    expect(sheetFormatOf('catalogue.xlsx')).toBe('xlsx');
    expect(sheetFormatOf('catalogue.xls')).toBeNull();
    expect(sheetFormatOf('csv')).toBeNull();
  });

  it('is refused at once when it is not a sheet, empty or too large', () => {
    expect(checkSheetFile(sheet('a.pdf'))).toBe('a.pdf is not a CSV or XLSX sheet.');
    expect(checkSheetFile(sheet('a.csv', 0))).toBe('a.csv is empty.');
    expect(checkSheetFile(sheet('a.csv', IMPORT_MAX_BYTES + 1))).toBe('a.csv is larger than 50.0 MB.');
    expect(checkSheetFile(sheet('a.csv', IMPORT_MAX_BYTES))).toBeNull();
  });

  it('reports the share sent', () => {
    expect(uploadPercent(0, 0)).toBe(0);
    expect(uploadPercent(512, 1024)).toBe(50);
    expect(uploadPercent(2000, 1024)).toBe(100);
  });
});

describe('the import request form', () => {
  it('needs a file, or a feed URL the app’s URL rule accepts', () => {
    expect(checkRequestForm(emptyRequestForm, false)).toEqual({ file: 'Choose the file to send.' });
    const feed = { ...emptyRequestForm, kind: 'feed' as const };
    expect(checkRequestForm(feed, false)).toEqual({ feedUrl: 'Give the feed URL.' });
    expect(checkRequestForm({ ...feed, feedUrl: 'javascript:alert(1)' }, false)).toEqual({
      feedUrl: validationMessages.url,
    });
    expect(checkRequestForm({ ...feed, feedUrl: 'ftp://example.com/feed.csv' }, false).feedUrl).toBe(
      validationMessages.url,
    );
    expect(checkRequestForm({ ...feed, feedUrl: ' https://example.com/feed.csv ' }, false)).toEqual({});
  });

  it('needs the seller when staff ask on a seller’s behalf', () => {
    const form = { ...emptyRequestForm, file: sheet('a.csv') };
    expect(checkRequestForm(form, true)).toEqual({ sellerId: 'Choose the seller.' });
    expect(checkRequestForm({ ...form, sellerId: SELLER }, true)).toEqual({});
  });

  it('sends a feed trimmed, with the seller only when one is chosen for', () => {
    const form = {
      ...emptyRequestForm,
      kind: 'feed' as const,
      feedUrl: ' https://x.example/f ',
      note: ' hi ',
    };
    expect(feedRequestBody(form, false)).toEqual({ feedUrl: 'https://x.example/f', note: 'hi' });
    expect(feedRequestBody({ ...form, sellerId: SELLER }, true)).toEqual({
      feedUrl: 'https://x.example/f',
      note: 'hi',
      sellerId: SELLER,
    });
  });
});

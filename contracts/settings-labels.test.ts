// Every stored field has a label: the page's History panels and the server's history export name a
// field by it, and a field added without one would show its code name there.
import { describe, expect, it } from 'vitest';
import { sectionFields, storedSections } from './settings';
import { fieldLabel } from './settings-labels';

describe('settings labels', () => {
  it.each(storedSections)('names every field of %s', (section) => {
    const unnamed = Object.keys(sectionFields[section]).filter(
      (field) => fieldLabel(section, field) === field,
    );
    expect(unnamed).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { AttributeDetail } from '../../../contracts/attribute-admin';
import { draftOf, lockedFields, validate, withDataType } from './attribute-form';

const detail = (overrides: Partial<AttributeDetail> = {}): AttributeDetail => ({
  id: 5,
  code: 'weight',
  label: 'Weight',
  dataType: 'FLOAT',
  attributeType: 'SINGLE',
  isRequired: false,
  unit: 'kg',
  groupName: 'Shipping',
  optionCount: 0,
  categoryCount: 0,
  updatedAt: '2026-01-01T00:00:00.000Z',
  options: [],
  categories: [],
  productCount: 0,
  savedViewCount: 0,
  ...overrides,
});

describe('the attribute form', () => {
  it('keeps only what a new data type allows', () => {
    const multiText = { ...draftOf(null), dataType: 'STRING' as const, attributeType: 'MULTI' as const };
    expect(withDataType(multiText, 'BOOLEAN')).toMatchObject({
      dataType: 'BOOLEAN',
      attributeType: 'SINGLE',
    });
    expect(withDataType(multiText, 'ENUMERATED')).toMatchObject({ attributeType: 'MULTI' });
    expect(withDataType(draftOf(detail()), 'STRING')).toMatchObject({ unit: '' });
    expect(withDataType(draftOf(detail()), 'NUMBER')).toMatchObject({ unit: 'kg' });
  });

  it('sends the code and data type of an edit only when they changed', () => {
    const attribute = detail();
    const same = validate(draftOf(attribute), attribute);
    expect(same.errors).toBeUndefined();
    expect(same.errors ? null : same.input).toEqual({
      id: 5,
      body: {
        label: 'Weight',
        attributeType: 'SINGLE',
        isRequired: false,
        unit: 'kg',
        groupName: 'Shipping',
      },
    });
    const changed = validate({ ...withDataType(draftOf(attribute), 'NUMBER'), code: 'weight_g' }, attribute);
    expect(changed.errors ? null : changed.input.body).toMatchObject({
      code: 'weight_g',
      dataType: 'NUMBER',
    });
  });

  it('names the field of each problem, option rows by index', () => {
    const draft = {
      ...draftOf(null),
      code: 'Bad Code',
      dataType: 'ENUMERATED' as const,
      options: [
        { key: 'a', value: 'One', productCount: 0 },
        { key: 'b', value: 'ONE', productCount: 0 },
        { key: 'c', value: ' ', productCount: 0 },
      ],
    };
    const result = validate(draft, null);
    expect(result.errors).toMatchObject({
      code: expect.any(String),
      label: 'Give the attribute a label.',
      'options.1': '“ONE” is already an option.',
      'options.2': 'An option needs a label.',
    });
  });

  it('says why the code or data type is fixed', () => {
    expect(lockedFields(null)).toEqual({});
    expect(lockedFields(detail())).toEqual({});
    expect(lockedFields(detail({ productCount: 1 }))).toEqual({
      code: 'Fixed: 1 product holds a value.',
      dataType: 'Fixed: 1 product holds a value.',
    });
    expect(lockedFields(detail({ savedViewCount: 2 }))).toEqual({ code: 'Fixed: 2 saved views name it.' });
  });
});

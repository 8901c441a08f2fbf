import { describe, expect, it } from 'vitest';
import type { Attribute } from '../../../contracts/catalog';
import { dateTimeInputValue } from '../../../contracts/domain/format';
import { attributeInputsOf, emptyFormValue, formValueOf, toAttributeInput } from './attribute-form';

const def = (
  id: number,
  dataType: Attribute['dataType'],
  attributeType: Attribute['attributeType'] = 'SINGLE',
) => ({
  id,
  label: `A${id}`,
  dataType,
  attributeType,
});

describe('attribute values in the product form', () => {
  it('turns every data type into the API input (SPEC §3 shapes)', () => {
    expect(toAttributeInput(def(1, 'ENUMERATED'), [7])).toEqual({ keyId: 1, valueId: 7 });
    expect(toAttributeInput(def(2, 'ENUMERATED', 'MULTI'), [7, 8])).toEqual({
      keyId: 2,
      values: [{ valueId: 7 }, { valueId: 8 }],
    });
    expect(toAttributeInput(def(3, 'STRING'), 'cotton')).toEqual({ keyId: 3, value: 'cotton' });
    expect(toAttributeInput(def(4, 'STRING', 'MULTI'), ['a', 'b'])).toEqual({
      keyId: 4,
      values: [{ value: 'a' }, { value: 'b' }],
    });
    expect(toAttributeInput(def(5, 'WYSIWYG'), '<p>x</p>')).toEqual({ keyId: 5, value: '<p>x</p>' });
    expect(toAttributeInput(def(6, 'IMAGE'), [{ id: 'm1', url: '/u' }])).toEqual({ keyId: 6, valueId: 'm1' });
    expect(toAttributeInput(def(7, 'VIDEO', 'MULTI'), [{ id: 'v1', url: '/v' }])).toEqual({
      keyId: 7,
      values: [{ valueId: 'v1' }],
    });
    expect(toAttributeInput(def(8, 'DATETIME'), '2026-01-31T10:00')).toEqual({
      keyId: 8,
      value: new Date('2026-01-31T10:00').toISOString(),
    });
    expect(toAttributeInput(def(9, 'OBJECT'), '{"ram": "8 GB"}')).toEqual({
      keyId: 9,
      value: { ram: '8 GB' },
    });
    expect(toAttributeInput(def(10, 'BOOLEAN'), false)).toEqual({ keyId: 10, value: false });
    expect(toAttributeInput(def(11, 'NUMBER'), '3')).toEqual({ keyId: 11, value: 3 });
    expect(toAttributeInput(def(12, 'FLOAT'), '6,1')).toEqual({ keyId: 12, value: 6.1 });
  });

  it('refuses what the browser can already tell is wrong, with the field’s words', () => {
    expect(() => toAttributeInput(def(9, 'OBJECT'), '{nope')).toThrow('A9 is not valid JSON.');
    expect(() => toAttributeInput(def(9, 'OBJECT'), '[1]')).toThrow('A9 must be a JSON object');
    expect(() => toAttributeInput(def(11, 'NUMBER'), 'two')).toThrow('A11 must be a number.');
    const { inputs, errors } = attributeInputsOf(
      [def(11, 'NUMBER'), def(3, 'STRING')],
      { 11: 'x', 3: 'ok' },
      'create',
    );
    expect(errors).toEqual({ 'attributeValues.11': 'A11 must be a number.' });
    expect(inputs).toEqual([{ keyId: 3, value: 'ok' }]);
  });

  it('leaves empty attributes out of a create and clears them on an edit', () => {
    const defs = [def(3, 'STRING'), def(1, 'ENUMERATED'), def(10, 'BOOLEAN'), def(4, 'STRING', 'MULTI')];
    const empty = { 3: '', 1: [], 10: null, 4: [] };
    expect(attributeInputsOf(defs, empty, 'create').inputs).toEqual([]);
    // A multi-value attribute is cleared as an empty list: the server refuses `value` for it.
    expect(attributeInputsOf(defs, empty, 'edit').inputs).toEqual([
      { keyId: 3, value: null },
      { keyId: 1, value: null },
      { keyId: 10, value: null },
      { keyId: 4, values: [] },
    ]);
  });

  it('reads stored values back into the inputs', () => {
    expect(formValueOf(def(1, 'ENUMERATED'), { keyId: 1, value: 'Red', valueId: 7 })).toEqual([7]);
    expect(
      formValueOf(def(4, 'STRING', 'MULTI'), { keyId: 4, values: [{ value: 'a' }, { value: 'b' }] }),
    ).toEqual(['a', 'b']);
    expect(formValueOf(def(9, 'OBJECT'), { keyId: 9, value: { ram: '8 GB' } })).toBe('{\n  "ram": "8 GB"\n}');
    expect(formValueOf(def(6, 'IMAGE'), { keyId: 6, value: '/media/m1', valueId: 'm1' })).toEqual([
      { id: 'm1', url: '/media/m1' },
    ]);
    expect(formValueOf(def(8, 'DATETIME'), { keyId: 8, value: '2026-01-31T10:00:00.000Z' })).toBe(
      dateTimeInputValue('2026-01-31T10:00:00.000Z'),
    );
    expect(formValueOf(def(10, 'BOOLEAN'), undefined)).toBe(emptyFormValue(def(10, 'BOOLEAN')));
  });
});

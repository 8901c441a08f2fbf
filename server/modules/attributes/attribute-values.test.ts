import { describe, expect, it } from 'vitest';
import type { AttributeDataType, AttributeType, AttributeValueInput } from '../../../contracts/catalog';
import {
  type AttributeDef,
  attributeIndexOf,
  checkAttributeValues,
  completenessOf,
  type MediaRef,
  plainTextOf,
} from './attribute-values';

let nextId = 1;
function def(
  dataType: AttributeDataType,
  attributeType: AttributeType = 'SINGLE',
  extra: Partial<AttributeDef> = {},
): AttributeDef {
  const id = nextId++;
  return {
    id,
    code: `${dataType.toLowerCase()}_${id}`,
    label: `${dataType} ${id}`,
    dataType,
    attributeType,
    isRequired: false,
    unit: null,
    groupName: 'Test',
    options: new Map(),
    ...extra,
  };
}

const colour = def('ENUMERATED', 'SINGLE', {
  options: new Map([
    [11, 'Red'],
    [12, 'Crème'],
  ]),
  isRequired: true,
});
const materials = def('ENUMERATED', 'MULTI', {
  options: new Map([
    [21, 'Cotton'],
    [22, 'Silk'],
  ]),
});
const brand = def('STRING', 'SINGLE', { isRequired: true });
const keywords = def('STRING', 'MULTI');
const description = def('WYSIWYG');
const image = def('IMAGE', 'MULTI');
const video = def('VIDEO');
const released = def('DATETIME', 'SINGLE', { isRequired: true });
const specs = def('OBJECT');
const waterproof = def('BOOLEAN');
const pieces = def('NUMBER');
const screen = def('FLOAT', 'SINGLE', { unit: 'in' });
const defs = new Map(
  [
    colour,
    materials,
    brand,
    keywords,
    description,
    image,
    video,
    released,
    specs,
    waterproof,
    pieces,
    screen,
  ].map((d) => [d.id, d]),
);

const IMG = '00000000-0000-4000-8000-000000000001';
const VID = '00000000-0000-4000-8000-000000000002';
const media = new Map<string, MediaRef>([
  [IMG, { id: IMG, kind: 'image', url: '/media/img' }],
  [VID, { id: VID, kind: 'video', url: '/media/vid' }],
]);

const check = (...inputs: AttributeValueInput[]) => checkAttributeValues(inputs, defs, media);
const problemOf = (input: AttributeValueInput) => check(input).problems[0]?.message;

describe('attribute values are checked against their type', () => {
  it('stores every type in its SPEC §3 shape, in the attribute set order', () => {
    const { values, problems } = check(
      { keyId: screen.id, value: 6.1 },
      { keyId: colour.id, value: 'creme' },
      { keyId: materials.id, values: [{ valueId: 22 }, { value: 'cotton' }, { valueId: 22 }] },
      { keyId: brand.id, value: '  Acme  ' },
      { keyId: keywords.id, values: [{ value: 'tea' }, { value: 'TEA' }, { value: 'pot' }] },
      {
        keyId: description.id,
        value:
          '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:x">l</a><a href="https://a.test">ok</a></p>',
      },
      { keyId: image.id, values: [{ valueId: IMG }] },
      { keyId: video.id, valueId: VID },
      { keyId: released.id, value: '2026-01-31T10:00:00+05:30' },
      { keyId: specs.id, value: { ports: 2 } },
      { keyId: waterproof.id, value: false },
      { keyId: pieces.id, value: 12 },
    );
    expect(problems).toEqual([]);
    expect(values).toEqual([
      { keyId: colour.id, value: 'Crème', valueId: 12 },
      {
        keyId: materials.id,
        values: [
          { value: 'Silk', valueId: 22 },
          { value: 'Cotton', valueId: 21 },
        ],
      },
      { keyId: brand.id, value: 'Acme' },
      { keyId: keywords.id, values: [{ value: 'tea' }, { value: 'pot' }] },
      {
        keyId: description.id,
        value:
          '<p>Hi <a rel="noopener noreferrer nofollow">l</a><a href="https://a.test" rel="noopener noreferrer nofollow">ok</a></p>',
      },
      { keyId: image.id, values: [{ value: '/media/img', valueId: IMG }] },
      { keyId: video.id, value: '/media/vid', valueId: VID },
      { keyId: released.id, value: '2026-01-31T04:30:00.000Z' },
      { keyId: specs.id, value: { ports: 2 } },
      { keyId: waterproof.id, value: false },
      { keyId: pieces.id, value: 12 },
      { keyId: screen.id, value: 6.1 },
    ]);
  });

  it.each([
    [{ keyId: pieces.id, value: 1.5 }, `${pieces.label} must be a whole number.`],
    [{ keyId: pieces.id, value: '12' }, `${pieces.label} must be a whole number.`],
    [{ keyId: screen.id, value: 'big' }, `${screen.label} must be a number.`],
    [{ keyId: colour.id, valueId: 99 }, `${colour.label} has no option "99".`],
    [{ keyId: colour.id, value: 'Purple' }, `${colour.label} has no option "Purple".`],
    [
      { keyId: released.id, value: '31/01/2026' },
      `${released.label} must be a date and time in ISO 8601 (e.g. 2026-01-31T09:30:00Z).`,
    ],
    [{ keyId: waterproof.id, value: 'yes' }, `${waterproof.label} must be yes or no.`],
    [{ keyId: specs.id, value: [1, 2] }, `${specs.label} must be a JSON object.`],
    [{ keyId: specs.id, value: { blob: 'x'.repeat(9000) } }, `${specs.label} is larger than 8 KB of JSON.`],
    [
      { keyId: image.id, values: [{ valueId: VID }] },
      `${image.label} must be an image uploaded for this product.`,
    ],
    [
      { keyId: video.id, valueId: '00000000-0000-4000-8000-00000000dead' },
      `${video.label} must be a video uploaded for this product.`,
    ],
    [{ keyId: brand.id, value: 'x'.repeat(1001) }, `${brand.label} has at most 1,000 characters.`],
    [{ keyId: brand.id, value: 5 }, `${brand.label} must be text.`],
    [
      { keyId: materials.id, value: 'Silk' },
      `${materials.label} holds several values: send them as "values".`,
    ],
    [{ keyId: colour.id, values: [{ valueId: 11 }] }, `${colour.label} holds one value: send it as "value".`],
    [{ keyId: 9999, value: 1 }, "Attribute 9999 is not in this category's attribute set."],
  ] as const)('refuses case %#: %s', (input, message) => {
    expect(problemOf(input as AttributeValueInput)).toBe(message);
  });

  it('reports each attribute given twice, and clears empty values instead of storing them', () => {
    expect(check({ keyId: brand.id, value: 'a' }, { keyId: brand.id, value: 'b' }).problems).toEqual([
      { keyId: brand.id, message: `${brand.label} is given twice.` },
    ]);
    const { values } = check(
      { keyId: brand.id, value: '   ' },
      { keyId: description.id, value: '<p><script>x</script></p>' },
      { keyId: materials.id, values: [] },
      { keyId: specs.id, value: {} },
      { keyId: pieces.id, value: null },
    );
    expect(values).toEqual([]);
  });
});

describe('the search index and completeness', () => {
  it('indexes what the compiler compares', () => {
    const { values } = check(
      { keyId: colour.id, valueId: 11 },
      { keyId: keywords.id, values: [{ value: 'Crème' }, { value: 'Pot' }] },
      { keyId: description.id, value: '<p>Fine &amp; <b>BOLD</b></p>' },
      { keyId: image.id, values: [{ valueId: IMG }] },
      { keyId: released.id, value: '2026-01-31' },
      { keyId: specs.id, value: { a: 1 } },
      { keyId: waterproof.id, value: true },
      { keyId: screen.id, value: 6.1 },
    );
    expect(attributeIndexOf(values, defs)).toEqual({
      [colour.id]: [11],
      [keywords.id]: ['creme', 'pot'],
      [description.id]: ['fine & bold'],
      [image.id]: 1,
      [released.id]: Date.UTC(2026, 0, 31),
      [specs.id]: 1,
      [waterproof.id]: true,
      [screen.id]: 6.1,
    });
  });

  it('is the share of required attributes filled, with the ones missing', () => {
    expect(completenessOf([], defs)).toEqual({
      completeness: 0,
      missingAttributes: [colour.id, brand.id, released.id],
    });
    const { values } = check({ keyId: brand.id, value: 'Acme' });
    expect(completenessOf(values, defs)).toEqual({
      completeness: 33,
      missingAttributes: [colour.id, released.id],
    });
    expect(completenessOf([], new Map([[pieces.id, pieces]]))).toEqual({
      completeness: 100,
      missingAttributes: [],
    });
  });

  it('reads the text of rich text', () => {
    expect(plainTextOf('<p>a</p><p>b&nbsp;&lt;c&gt;</p>')).toBe('a b <c>');
  });
});

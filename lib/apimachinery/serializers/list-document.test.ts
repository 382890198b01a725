// Streamed list documents equal the whole document serialized at once: compact and pretty JSON, and YAML.
import { jsonToYaml, jsonToYamlChunks } from '../json/json-to-yaml';
import { jsonDocumentChunks, wholeDocument, type ListDocument } from './list-document';

const RICH_ITEMS: unknown[] = [
  { metadata: { name: 'a', annotations: {} }, spec: { list: [], nested: [[1, [2, []]], [{}], ['x']] } },
  {
    metadata: { name: 'ünïcödé-☃', labels: { 'emoji.example/😀': 'ok' } },
    data: {
      multiline: 'line one\nline two\n',
      folded: 'word '.repeat(40).trim(),
      quoted: ': starts with a colon',
      empty: '',
      escapes: 'tab\there "quotes" \\ \u0007',
      number: 1.5e-7,
      big: 1234567890123456,
      truth: true,
      nothing: null,
    },
  },
  { metadata: { name: 'c' }, 'a key\nwith a break': 'v', ['k'.repeat(130)]: 'long key' },
];

function doc(items: unknown[], empty: readonly [] | null = []): ListDocument {
  return {
    envelope: {
      kind: 'ThingList',
      apiVersion: 'example.orch.io/v1',
      metadata: { resourceVersion: '42', continue: 'tok€n', remainingItemCount: 7 },
      items: empty,
    },
    field: 'items',
    count: items.length,
    elements: items.values(),
  };
}

describe('list documents written element by element', () => {
  for (const [name, items] of [
    ['no items', []],
    ['one item', RICH_ITEMS.slice(0, 1)],
    ['many items', [...RICH_ITEMS, ...RICH_ITEMS, ...RICH_ITEMS]],
  ] as const) {
    for (const empty of [[], null] as const) {
      it(`${name} (empty as ${JSON.stringify(empty)}): JSON, pretty JSON and YAML equal the whole document's`, () => {
        const whole = wholeDocument(doc([...items], empty));
        expect([...jsonDocumentChunks(doc([...items], empty), false)].join('')).toBe(`${JSON.stringify(whole)}\n`);
        expect([...jsonDocumentChunks(doc([...items], empty), true)].join('')).toBe(JSON.stringify(whole, null, 2));
        expect([...jsonToYamlChunks(doc([...items], empty))].join('')).toBe(jsonToYaml(whole));
      });
    }
  }

  it('gives out one piece per element (the elements are built as the pieces are taken)', () => {
    let built = 0;
    const lazy: ListDocument = {
      ...doc([]),
      count: 3,
      elements: (function* () {
        for (const item of RICH_ITEMS) {
          built++;
          yield item;
        }
      })(),
    };
    const pieces = jsonDocumentChunks(lazy, true);
    pieces.next();
    pieces.next();
    expect(built).toBe(1);
    expect([...pieces]).toHaveLength(3);
    expect(built).toBe(3);
  });

  it('writes a list field in any position and a document whose elements field sorts first in YAML', () => {
    const table: ListDocument = {
      envelope: { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, columnDefinitions: null, rows: [] },
      field: 'rows',
      count: 2,
      elements: [{ cells: ['a', 1], object: { metadata: { name: 'a' } } }, { cells: [null, '😀'] }],
    };
    const whole = wholeDocument(table);
    expect([...jsonToYamlChunks(table)].join('')).toBe(jsonToYaml(whole));
    expect([...jsonDocumentChunks(table, true)].join('')).toBe(JSON.stringify(whole, null, 2));
    const middle: ListDocument = { ...table, envelope: { rows: [], kind: 'X', zz: { a: [] } } };
    const wholeMiddle = wholeDocument(middle);
    expect([...jsonToYamlChunks(middle)].join('')).toBe(jsonToYaml(wholeMiddle));
    expect([...jsonDocumentChunks(middle, false)].join('')).toBe(`${JSON.stringify(wholeMiddle)}\n`);
  });
});

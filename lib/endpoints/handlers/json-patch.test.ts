// RFC 6902 JSON patch with evanphx/json-patch v4.12.0 semantics (what kube-apiserver 1.26 accepts and refuses).
import { applyJsonPatch, JsonPatchError } from './json-patch';

function doc(): Record<string, unknown> {
  return { metadata: { name: 'web', labels: { a: '1' } }, spec: { replicas: 1, list: [1, 2, 3] } };
}

describe('applyJsonPatch', () => {
  it.each([
    [
      'add sets a member',
      [{ op: 'add', path: '/metadata/labels/b', value: '2' }],
      '/metadata/labels',
      { a: '1', b: '2' },
    ],
    ['add inserts at an index', [{ op: 'add', path: '/spec/list/1', value: 9 }], '/spec/list', [1, 9, 2, 3]],
    ['add - appends', [{ op: 'add', path: '/spec/list/-', value: 9 }], '/spec/list', [1, 2, 3, 9]],
    ['add at index len appends', [{ op: 'add', path: '/spec/list/3', value: 9 }], '/spec/list', [1, 2, 3, 9]],
    [
      'add at a negative index counts from len+1',
      [{ op: 'add', path: '/spec/list/-2', value: 9 }],
      '/spec/list',
      [1, 2, 9, 3],
    ],
    [
      'add without value adds null',
      [{ op: 'add', path: '/spec/paused' }],
      '/spec',
      { replicas: 1, list: [1, 2, 3], paused: null },
    ],
    ['remove deletes a member', [{ op: 'remove', path: '/metadata/labels/a' }], '/metadata/labels', {}],
    ['remove at a negative index', [{ op: 'remove', path: '/spec/list/-1' }], '/spec/list', [1, 2]],
    ['replace sets an existing member', [{ op: 'replace', path: '/spec/replicas', value: 3 }], '/spec/replicas', 3],
    [
      'replace adds a missing object member',
      [{ op: 'replace', path: '/spec/paused', value: true }],
      '/spec/paused',
      true,
    ],
    ['replace an index', [{ op: 'replace', path: '/spec/list/0', value: 7 }], '/spec/list', [7, 2, 3]],
    ['move', [{ op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/z' }], '/metadata/labels', { z: '1' }],
    ['copy', [{ op: 'copy', from: '/spec/list', path: '/spec/copied' }], '/spec/copied', [1, 2, 3]],
    [
      'copy from a missing member copies null',
      [{ op: 'copy', from: '/spec/nothing', path: '/spec/copied' }],
      '/spec/copied',
      null,
    ],
    [
      'test then replace',
      [
        { op: 'test', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/replicas', value: 2 },
      ],
      '/spec/replicas',
      2,
    ],
    [
      'test of a missing member against null passes',
      [{ op: 'test', path: '/spec/nothing', value: null }],
      '/spec/replicas',
      1,
    ],
    [
      'test compares objects deeply',
      [{ op: 'test', path: '/metadata', value: { labels: { a: '1' }, name: 'web' } }],
      '/metadata/name',
      'web',
    ],
    [
      '~1 and ~0 escape / and ~',
      [{ op: 'add', path: '/metadata/labels/x~1y~0z', value: 'v' }],
      '/metadata/labels/x~1y~0z',
      'v',
    ],
    ['the first path token is ignored', [{ op: 'add', path: 'spec/x', value: 1 }], '/x', 1],
    [
      'replace of the root with an object',
      [{ op: 'replace', path: '', value: { metadata: { name: 'n' } } }],
      '/metadata/name',
      'n',
    ],
  ])('%s', (_name, ops, readPath, expected) => {
    const result = applyJsonPatch(doc(), ops);
    const value = readPath
      .split('/')
      .slice(1)
      .reduce<unknown>((v, t) => (v as Record<string, unknown>)[t.replace(/~1/g, '/').replace(/~0/g, '~')], result);
    expect(value).toEqual(expected);
  });

  it.each([
    ['a failed test', [{ op: 'test', path: '/spec/replicas', value: 2 }]],
    ['test without value', [{ op: 'test', path: '/spec/replicas' }]],
    ['add under a missing parent', [{ op: 'add', path: '/spec/missing/x', value: 1 }]],
    ['add past the end of a list', [{ op: 'add', path: '/spec/list/5', value: 1 }]],
    ['add at a non-numeric index', [{ op: 'add', path: '/spec/list/x', value: 1 }]],
    ['remove of a missing member', [{ op: 'remove', path: '/spec/missing' }]],
    ['remove past the end of a list', [{ op: 'remove', path: '/spec/list/3' }]],
    ['replace past the end of a list', [{ op: 'replace', path: '/spec/list/3', value: 1 }]],
    ['move from a missing member', [{ op: 'move', from: '/spec/missing', path: '/spec/x' }]],
    ['an unknown op', [{ op: 'merge', path: '/spec', value: {} }]],
    ['an operation without op', [{ path: '/spec' }]],
    ['an operation without path', [{ op: 'add', value: 1 }]],
    ['a path through a scalar', [{ op: 'add', path: '/spec/replicas/x', value: 1 }]],
  ])('refuses %s', (_name, ops) => {
    expect(() => applyJsonPatch(doc(), ops)).toThrow(JsonPatchError);
  });

  it('caps the total size copies add at 3 MiB', () => {
    const big = { metadata: { name: 'web' }, data: 'x'.repeat(1024 * 1024) };
    const copy = (to: string): Record<string, string> => ({ op: 'copy', from: '/data', path: `/${to}` });
    expect(() => applyJsonPatch(big, [copy('a'), copy('b')])).not.toThrow();
    expect(() => applyJsonPatch(big, [copy('a'), copy('b'), copy('c')])).toThrow('Unable to complete the copy');
  });

  it('does not modify the document or the operations', () => {
    const original = doc();
    const ops = [
      { op: 'add', path: '/spec/obj', value: { k: 1 } },
      { op: 'add', path: '/spec/obj/j', value: 2 },
    ];
    applyJsonPatch(original, ops);
    expect(original).toEqual(doc());
    expect(ops[0]).toEqual({ op: 'add', path: '/spec/obj', value: { k: 1 } });
  });
});

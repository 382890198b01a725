// The unstructured converter's first error for a patched map (strategic merge patches), in Go's words.
import { schemaFor } from '../schema/kinds';
import type { SchemaNode } from '../schema/node';
import { fromUnstructuredError } from './from-unstructured';

const DEPLOYMENT = schemaFor('apps/v1', 'Deployment') as SchemaNode;
const withSpec = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'a' },
  spec,
});
const container = (fields: Record<string, unknown>) =>
  withSpec({ template: { spec: { containers: [{ name: 'c', ...fields }] } } });

describe('fromUnstructuredError', () => {
  it.each([
    [
      'a valid object',
      withSpec({ replicas: 2, paused: false, strategy: { rollingUpdate: { maxSurge: '25%' } } }),
      undefined,
    ],
    ['a whole float as an int32', withSpec({ replicas: 2.0 }), undefined],
    ['unknown fields (not its concern)', withSpec({ foo: 'x' }), undefined],
    ['a string as an int32', withSpec({ replicas: 'x' }), 'unrecognized type: int32'],
    ['a fraction as an int32', withSpec({ replicas: 1.5 }), 'cannot convert float64 to int32'],
    ['a bool as a string', container({ image: true }), 'unrecognized type: string'],
    ['an int as a named string', container({ imagePullPolicy: 1 }), 'cannot convert int64 to v1.PullPolicy'],
    ['a string as a bool', withSpec({ paused: 'yes' }), 'unrecognized type: bool'],
    ['a list as a struct', withSpec({ strategy: [] }), 'cannot restore struct from: slice'],
    ['an object as a list', container({ args: {} }), 'cannot restore slice from map'],
    ['a string as a map', { metadata: { labels: 'x' } }, 'cannot restore map from string'],
    [
      'a bool as an int-or-string',
      withSpec({ strategy: { rollingUpdate: { maxSurge: true } } }),
      'json: cannot unmarshal bool into Go value of type int32',
    ],
    [
      'a bad quantity',
      container({ resources: { limits: { cpu: 'lots' } } }),
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
    [
      'a number as a time',
      { metadata: { creationTimestamp: 5 } },
      'json: cannot unmarshal number into Go value of type string',
    ],
  ])('%s', (_what, value, error) => {
    expect(fromUnstructuredError(value, DEPLOYMENT)).toBe(error);
  });

  it('stops at the first error in field order', () => {
    expect(fromUnstructuredError(withSpec({ paused: 'x', replicas: 'y' }), DEPLOYMENT)).toBe(
      'unrecognized type: int32',
    );
  });
});

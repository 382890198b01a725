// Scale ↔ parent managedFields (Kubernetes' scalehandler tests): replicas owners move between spec.replicas of both.
import { field } from './path-element';
import { parentEntriesAfterScale, scaleEntries } from './scale-handler';

const MAPPINGS = { 'apps/v1': [field('spec'), field('replicas')] };
const REPLICAS = { 'f:spec': { 'f:replicas': {} } };
const SELECTOR = { 'f:spec': { 'f:selector': {} } };
const BOTH = { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } };
type Op = 'Apply' | 'Update';
const entry = (
  manager: string,
  operation: Op,
  apiVersion: string,
  fieldsV1: unknown,
  subresource?: string,
  time?: string,
): Record<string, unknown> => ({
  manager,
  operation,
  apiVersion,
  ...(time ? { time } : {}),
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
});

describe('scaleEntries (ToSubresource)', () => {
  it('keeps only replicas owners, as autoscaling/v1 owners of spec.replicas, with their times', () => {
    const parent = [
      entry('a', 'Apply', 'apps/v1', BOTH, undefined, '2024-01-01T00:00:00Z'),
      entry('b', 'Update', 'apps/v1', SELECTOR),
      entry('c', 'Update', 'apps/v9', BOTH),
    ];
    expect(scaleEntries(parent, MAPPINGS)).toEqual([
      entry('a', 'Apply', 'autoscaling/v1', REPLICAS, undefined, '2024-01-01T00:00:00Z'),
    ]);
  });
});

describe('parentEntriesAfterScale (ToParent)', () => {
  it.each([
    [
      'different managers: apply → update',
      [entry('test', 'Apply', 'apps/v1', BOTH)],
      [entry('scale', 'Update', 'autoscaling/v1', REPLICAS, 'scale')],
      [entry('test', 'Apply', 'apps/v1', SELECTOR), entry('scale', 'Update', 'apps/v1', REPLICAS, 'scale')],
    ],
    [
      'different managers: update → apply',
      [entry('test', 'Update', 'apps/v1', BOTH)],
      [entry('scale', 'Apply', 'autoscaling/v1', REPLICAS, 'scale')],
      [entry('scale', 'Apply', 'apps/v1', REPLICAS, 'scale'), entry('test', 'Update', 'apps/v1', SELECTOR)],
    ],
    [
      'same manager: apply → apply',
      [entry('test', 'Apply', 'apps/v1', BOTH)],
      [entry('test', 'Apply', 'autoscaling/v1', REPLICAS, 'scale')],
      [entry('test', 'Apply', 'apps/v1', SELECTOR), entry('test', 'Apply', 'apps/v1', REPLICAS, 'scale')],
    ],
    [
      'subresource no longer owns the path',
      [entry('test', 'Apply', 'apps/v1', SELECTOR)],
      [entry('scale', 'Update', 'autoscaling/v1', { 'f:status': { 'f:replicas': {} } }, 'scale')],
      [entry('test', 'Apply', 'apps/v1', SELECTOR)],
    ],
    [
      'subresource steals every field of the parent entry',
      [entry('test', 'Apply', 'apps/v1', REPLICAS)],
      [entry('scale', 'Update', 'autoscaling/v1', REPLICAS, 'scale')],
      [entry('scale', 'Update', 'apps/v1', REPLICAS, 'scale')],
    ],
    [
      'apply without stealing',
      [entry('test', 'Apply', 'apps/v1', BOTH)],
      [entry('test', 'Apply', 'autoscaling/v1', REPLICAS), entry('test', 'Apply', 'autoscaling/v1', REPLICAS, 'scale')],
      [entry('test', 'Apply', 'apps/v1', BOTH), entry('test', 'Apply', 'apps/v1', REPLICAS, 'scale')],
    ],
    [
      'drops entries of unknown versions',
      [entry('test', 'Apply', 'apps/v1', REPLICAS), entry('another', 'Apply', 'apps/v10', SELECTOR)],
      [entry('scale', 'Update', 'autoscaling/v1', REPLICAS)],
      [entry('scale', 'Update', 'apps/v1', REPLICAS)],
    ],
  ])('%s', (_name, parent, scale, expected) => {
    expect(parentEntriesAfterScale(parent, scale, 'apps/v1', MAPPINGS)).toEqual(expected);
  });

  it('a new Update owner from the Scale has no time (the parent has none under its identifier); an Apply owner keeps the parent one', () => {
    const parent = [entry('hpa', 'Apply', 'apps/v1', REPLICAS, 'scale', '2024-01-01T00:00:00Z')];
    const scale = [
      entry('hpa', 'Apply', 'autoscaling/v1', REPLICAS, 'scale', '2024-06-01T00:00:00Z'),
      entry('ctl', 'Update', 'autoscaling/v1', { 'f:spec': {} }, 'scale', '2024-06-01T00:00:00Z'),
    ];
    expect(parentEntriesAfterScale(parent, scale, 'apps/v1', MAPPINGS)).toEqual([
      entry('hpa', 'Apply', 'apps/v1', REPLICAS, 'scale', '2024-01-01T00:00:00Z'),
    ]);
    const updated = [entry('ctl', 'Update', 'autoscaling/v1', REPLICAS, 'scale', '2024-06-01T00:00:00Z')];
    expect(parentEntriesAfterScale(parent, updated, 'apps/v1', MAPPINGS)).toEqual([
      entry('ctl', 'Update', 'apps/v1', REPLICAS, 'scale'),
    ]);
  });
});

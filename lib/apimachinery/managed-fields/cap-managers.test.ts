// The 10-Update-manager cap: the oldest entries merge into `ancient-changes` per apiVersion, applier entries never count.
import type { ApiObject } from '../meta/types';
import { schemaFor } from '../schema/kinds';
import { updateManagedFields, type FieldManagerScope } from './field-manager';
import { RESET_STATUS } from './reset-fields';

const at = (i: number): string => `2024-05-01T10:00:${String(i).padStart(2, '0')}Z`;
const scopeAt = (i: number): FieldManagerScope => ({
  schema: schemaFor('v1', 'Namespace'),
  apiVersion: 'v1',
  kind: 'Namespace',
  subresource: '',
  ignored: RESET_STATUS,
  now: () => at(i),
});

/** manager `m<i>` adds label `l<i>` at second i. */
function labelledBy(obj: ApiObject, i: number): ApiObject {
  const next = structuredClone(obj);
  next.metadata.labels = { ...(next.metadata.labels ?? {}), [`l${i}`]: 'x' };
  return updateManagedFields(obj, next, `m${i}`, scopeAt(i));
}

const byManager = (obj: ApiObject): Record<string, Record<string, unknown>> =>
  Object.fromEntries(
    (obj.metadata.managedFields as Array<Record<string, unknown>>).map((e) => [e['manager'] as string, e]),
  );

describe('capManagers', () => {
  let obj: ApiObject;
  beforeAll(() => {
    obj = updateManagedFields(
      undefined,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { l0: 'x' } } },
      'm0',
      scopeAt(0),
    );
    obj.metadata.uid = 'u';
    for (let i = 1; i <= 9; i++) obj = labelledBy(obj, i);
  });

  it('keeps ten Update managers as they are', () => {
    expect(obj.metadata.managedFields).toHaveLength(10);
    expect(byManager(obj)['ancient-changes']).toBeUndefined();
  });

  it('the eleventh merges the two oldest into ancient-changes with the time of the newer of them', () => {
    obj = labelledBy(obj, 10);
    const entries = byManager(obj);
    expect(Object.keys(entries).sort()).toEqual([
      'ancient-changes',
      'm10',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
      'm8',
      'm9',
    ]);
    expect(entries['ancient-changes']).toEqual({
      manager: 'ancient-changes',
      operation: 'Update',
      apiVersion: 'v1',
      time: at(1),
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:l0': {}, 'f:l1': {} } } },
    });
  });

  it('later managers merge the oldest into the existing bucket', () => {
    obj = labelledBy(obj, 11);
    const entries = byManager(obj);
    expect(Object.keys(entries)).toHaveLength(10);
    expect(entries['m2']).toBeUndefined();
    expect(entries['ancient-changes']).toMatchObject({
      time: at(2),
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:l0': {}, 'f:l1': {}, 'f:l2': {} } } },
    });
  });
});

// The spec/status carry-over helpers shared by the Deployment, HPA, Namespace and flowcontrol strategies.
import type { ApiObject } from '../../apimachinery/meta/types';
import {
  carryFromStorage,
  carrySpecAndMetadata,
  carryStatusAndBumpGeneration,
  clearStatusAndStartGeneration,
} from './spec-status';

function anObject(extra: Partial<ApiObject> = {}): ApiObject {
  return { metadata: { name: 'x', generation: 2, labels: { a: 'b' } }, spec: { n: 1 }, status: { s: 1 }, ...extra };
}

describe('spec/status carry-over', () => {
  it('clears status and starts the generation at 1', () => {
    const obj = anObject();
    clearStatusAndStartGeneration(obj);
    expect(obj.status).toEqual({});
    expect(obj.metadata.generation).toBe(1);
  });

  it('copies the stored field, or drops it when storage has none', () => {
    const old = anObject();
    const obj = anObject({ status: { s: 9 } });
    carryFromStorage(obj, old, 'status');
    expect(obj.status).toEqual({ s: 1 });
    expect(obj.status).not.toBe(old.status);
    delete old.spec;
    carryFromStorage(obj, old, 'spec');
    expect('spec' in obj).toBe(false);
  });

  it.each<[string, boolean, number | undefined, number | undefined]>([
    ['unchanged', false, 2, 2],
    ['changed', true, 2, 3],
    ['changed, no stored generation', true, undefined, 1],
    ['unchanged, no stored generation', false, undefined, undefined],
  ])('carries status and sets the generation: %s', (_name, changed, stored, expected) => {
    const old = anObject({ metadata: { name: 'x', ...(stored === undefined ? {} : { generation: stored }) } });
    const obj = anObject({ status: { s: 9 } });
    carryStatusAndBumpGeneration(obj, old, changed);
    expect(obj.status).toEqual({ s: 1 });
    expect(obj.metadata.generation).toBe(expected);
    expect('generation' in obj.metadata).toBe(expected !== undefined);
  });

  it('takes spec and metadata but managedFields from storage', () => {
    const old = anObject({
      metadata: { name: 'x', generation: 2, labels: { a: 'b' }, managedFields: [{ manager: 'old' }] },
    });
    const obj = anObject({
      spec: { n: 9 },
      metadata: { name: 'x', labels: { c: 'd' }, managedFields: [{ manager: 'new' }] },
    });
    carrySpecAndMetadata(obj, old);
    expect(obj.spec).toEqual({ n: 1 });
    expect(obj.metadata).toEqual({ name: 'x', generation: 2, labels: { a: 'b' }, managedFields: [{ manager: 'new' }] });
    const bare = anObject();
    carrySpecAndMetadata(bare, old);
    expect('managedFields' in bare.metadata).toBe(false);
  });
});

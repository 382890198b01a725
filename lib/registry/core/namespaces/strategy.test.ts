// Namespace strategies: finalizer on create, carried spec/status, name label, /status and /finalize.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { LABEL_METADATA_NAME, NAMESPACE_FINALIZER } from '../../../apis/core/well-known-names';
import { namespaceFinalizeStrategy, namespaceStatusStrategy, namespaceStrategy } from './strategy';

function aNamespace(extra: Partial<ApiObject> = {}): ApiObject {
  return {
    metadata: { name: 'dev', labels: { [LABEL_METADATA_NAME]: 'dev' } },
    spec: { finalizers: [NAMESPACE_FINALIZER] },
    status: { phase: 'Active' },
    ...extra,
  };
}

describe('namespaceStrategy', () => {
  it('is cluster-scoped with DNS-label names', () => {
    expect(namespaceStrategy.namespaced).toBe(false);
    expect(namespaceStrategy.validateName('dev', false)).toEqual([]);
    expect(namespaceStrategy.validateName('dev.x', false)).toHaveLength(1);
  });

  it.each<[string, unknown, unknown]>([
    ['no spec', undefined, { finalizers: [NAMESPACE_FINALIZER] }],
    ['other finalizers', { finalizers: ['example.com/x'] }, { finalizers: ['example.com/x', NAMESPACE_FINALIZER] }],
    ['the finalizer already', { finalizers: [NAMESPACE_FINALIZER] }, { finalizers: [NAMESPACE_FINALIZER] }],
  ])('on create with %s: Active, finalizer ensured, name label set', (_name, spec, expected) => {
    const ns: ApiObject = {
      metadata: { name: 'dev', labels: { [LABEL_METADATA_NAME]: 'x' } },
      spec,
      status: { phase: 'Terminating' },
    };
    namespaceStrategy.prepareForCreate(ns);
    expect(ns.spec).toEqual(expected);
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.metadata.labels).toEqual({ [LABEL_METADATA_NAME]: 'dev' });
  });

  it('carries spec and status on update and re-asserts the label', () => {
    const next = aNamespace({ metadata: { name: 'dev' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    namespaceStrategy.prepareForUpdate(next, aNamespace());
    expect(next).toEqual(aNamespace());
  });

  it('sets the label for a generated name in canonicalize', () => {
    const ns: ApiObject = { metadata: { name: 'dev-x7k2p', generateName: 'dev-' } };
    namespaceStrategy.canonicalize(ns);
    expect(ns.metadata.labels).toEqual({ [LABEL_METADATA_NAME]: 'dev-x7k2p' });
  });
});

describe('namespaceStatusStrategy and namespaceFinalizeStrategy', () => {
  it('/status changes only status, /finalize only spec', () => {
    const update = (): ApiObject => aNamespace({ spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    const viaStatus = update();
    namespaceStatusStrategy.prepareForUpdate(viaStatus, aNamespace());
    expect([viaStatus.spec, viaStatus.status]).toEqual([
      { finalizers: [NAMESPACE_FINALIZER] },
      { phase: 'Terminating' },
    ]);
    const viaFinalize = update();
    namespaceFinalizeStrategy.prepareForUpdate(viaFinalize, aNamespace());
    expect([viaFinalize.spec, viaFinalize.status]).toEqual([{ finalizers: [] }, { phase: 'Active' }]);
  });
});

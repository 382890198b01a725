// Store behaviours no served kind uses yet (create-on-update, conditional-only updates), pinned with test strategies.
import { GenericStore } from '../../lib/registry/generic/store';
import { defaultStrategy, type Strategy } from '../../lib/registry/rest/strategy';
import type { ResourceDefinition } from '../../lib/registry/rest/resource';
import { EtcdStorage } from '../../lib/storage/etcd/store';
import { StatusError } from '../../lib/apimachinery/errors';
import { useTestEtcd } from '../helpers/etcd';

const shared = useTestEtcd();

function storeWith(strategy: Partial<Strategy>, prefix: string): GenericStore {
  const full: Strategy = { ...defaultStrategy, namespaced: false, ...strategy };
  const definition: ResourceDefinition = {
    group: 'example.orch.io',
    version: 'v1',
    resource: 'widgets',
    kind: 'Widget',
    listKind: 'WidgetList',
    shortNames: [],
    categories: [],
    strategy: full,
  };
  return new GenericStore({
    definition,
    strategy: full,
    storage: new EtcdStorage(shared.client()),
    keyPrefix: `/${prefix}/widgets/`,
  });
}

const widget = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.orch.io/v1',
  kind: 'Widget',
  metadata: { name },
  ...extra,
});

describe('generic store', () => {
  it('creates on PUT when the strategy allows create-on-update', async () => {
    const store = storeWith({ allowCreateOnUpdate: true }, 'cou');
    const result = await store.update('', 'w1', widget('w1'), { dryRun: false });
    expect(result.created).toBe(true);
    expect((await store.get('', 'w1')).metadata.uid).toBe(result.object.metadata.uid);
  });

  it('requires a resourceVersion on update when unconditional updates are not allowed', async () => {
    const store = storeWith({ allowUnconditionalUpdate: false }, 'cond');
    await store.create('', widget('w2'), { dryRun: false });
    const err = (await store.update('', 'w2', widget('w2'), { dryRun: false }).catch((e: unknown) => e)) as StatusError;
    expect(err).toBeInstanceOf(StatusError);
    expect(err.status).toMatchObject({
      code: 422,
      message:
        'Widget.example.orch.io "w2" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
  });

  it('does not write when an update changes nothing', async () => {
    const store = storeWith({}, 'noop');
    const created = (await store.create('', widget('w3', { spec: { a: 1 } }), { dryRun: false })).object;
    const again = await store.update('', 'w3', widget('w3', { spec: { a: 1 } }), { dryRun: false });
    expect(again.object.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });
});

// The APF bootstrap maintainer on real etcd: creation, idempotence, concurrent replicas, restoring and respecting edits.
import pino from 'pino';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { GenericStore } from '../../lib/registry/generic/store';
import { StatusError } from '../../lib/apimachinery/errors';
import { buildRegistry } from '../../lib/registry/install';
import { FLOWCONTROL_GROUP } from '../../lib/apis/flowcontrol/register';
import { EtcdStorage } from '../../lib/storage/etcd/store';
import {
  MANDATORY_FLOW_SCHEMA_SPECS,
  MANDATORY_PRIORITY_LEVEL_SPECS,
} from '../../lib/apis/flowcontrol/validation-mandatory';
import {
  AUTO_UPDATE_ANNOTATION,
  BOOTSTRAP_FLOW_SCHEMA_NAMES,
  BOOTSTRAP_PRIORITY_LEVEL_NAMES,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from '../../lib/registry/flowcontrol/bootstrap/configuration';
import { FlowcontrolBootstrap } from '../../lib/registry/flowcontrol/bootstrap/ensurer';
import { useTestEtcd } from '../helpers/etcd';
import { eventually } from '../helpers/test-server';
import { NO_ADMISSION, EVERYTHING } from '../helpers/registry-fixtures';

const log = pino({ level: process.env['ORCH_TEST_LOG'] ?? 'silent' });

const shared = useTestEtcd();

interface Replica {
  storage: EtcdStorage;
  fs: GenericStore;
  plc: GenericStore;
  bootstrap: FlowcontrolBootstrap;
}

let prefixCounter = 0;
const freshPrefix = (): string => `/bootstrap-${++prefixCounter}`;

/** A replica: its own etcd client and stores over the shared prefix, as a second apiserver process would have. */
function replica(prefix: string, timing?: { resyncMs: number }): Replica {
  const client = shared.newClient();
  const storage = new EtcdStorage(client);
  const registry = buildRegistry(storage, prefix, {}, NO_ADMISSION);
  const fs = registry.lookup(FLOWCONTROL_GROUP, 'v1beta3', 'flowschemas')?.store;
  const plc = registry.lookup(FLOWCONTROL_GROUP, 'v1beta3', 'prioritylevelconfigurations')?.store;
  if (!fs || !plc) throw new Error('flowcontrol resources are not served');
  return {
    storage,
    fs,
    plc,
    bootstrap: new FlowcontrolBootstrap({ flowSchemas: fs, priorityLevels: plc, log, ...(timing ? { timing } : {}) }),
  };
}

async function names(store: GenericStore): Promise<string[]> {
  return (await store.list('', EVERYTHING)).items.map((o) => o.metadata.name ?? '').sort();
}

async function versions(store: GenericStore): Promise<Record<string, string>> {
  const { items } = await store.list('', EVERYTHING);
  return Object.fromEntries(items.map((o) => [o.metadata.name ?? '', o.metadata.resourceVersion ?? '']));
}

const spec = (o: ApiObject): Record<string, unknown> => o['spec'] as Record<string, unknown>;
const annotation = (o: ApiObject): string | undefined => o.metadata.annotations?.[AUTO_UPDATE_ANNOTATION];

describe('APF bootstrap configuration', () => {
  it("writes priority levels before the FlowSchemas that reference them, in Kubernetes 1.26's order", async () => {
    const r = replica(freshPrefix());
    await r.bootstrap.ensure();
    const fsVersions = await versions(r.fs);
    const plVersions = await versions(r.plc);
    const revisions = (of: Record<string, string>, set: readonly { name: string }[]): number[] =>
      set.map((b) => Number(of[b.name]));
    const suggestedPls = revisions(plVersions, SUGGESTED_PRIORITY_LEVELS);
    const suggestedFss = revisions(fsVersions, SUGGESTED_FLOW_SCHEMAS);
    const mandatoryPls = revisions(plVersions, MANDATORY_PRIORITY_LEVELS);
    const mandatoryFss = revisions(fsVersions, MANDATORY_FLOW_SCHEMAS);
    // suggested PLC, suggested FS, mandatory PLC, mandatory FS
    expect(Math.max(...suggestedPls)).toBeLessThan(Math.min(...suggestedFss));
    expect(Math.max(...suggestedFss)).toBeLessThan(Math.min(...mandatoryPls));
    expect(Math.max(...mandatoryPls)).toBeLessThan(Math.min(...mandatoryFss));
  });

  it('creates every mandatory and suggested object with the auto-update annotation', async () => {
    const r = replica(freshPrefix());
    await r.bootstrap.ensure();
    expect(await names(r.fs)).toEqual([...BOOTSTRAP_FLOW_SCHEMA_NAMES].sort());
    expect(await names(r.plc)).toEqual([...BOOTSTRAP_PRIORITY_LEVEL_NAMES].sort());
    expect(BOOTSTRAP_FLOW_SCHEMA_NAMES.size).toBe(13);
    expect(BOOTSTRAP_PRIORITY_LEVEL_NAMES.size).toBe(8);
    for (const o of [...(await r.fs.list('', EVERYTHING)).items, ...(await r.plc.list('', EVERYTHING)).items]) {
      expect(annotation(o)).toBe('true');
      expect(o.metadata.generation).toBe(1);
    }
    expect(spec(await r.fs.get('', 'exempt'))).toEqual(MANDATORY_FLOW_SCHEMA_SPECS['exempt']);
    expect(spec(await r.plc.get('', 'catch-all'))).toEqual(MANDATORY_PRIORITY_LEVEL_SPECS['catch-all']);
    expect(spec(await r.plc.get('', 'workload-low'))).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 100,
        limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
        lendablePercent: 90,
      },
    });
    expect(spec(await r.fs.get('', 'probes'))).toEqual({
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 2,
      rules: [
        {
          subjects: [
            { kind: 'Group', group: { name: 'system:unauthenticated' } },
            { kind: 'Group', group: { name: 'system:authenticated' } },
          ],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
        },
      ],
    });
    expect(spec(await r.fs.get('', 'system-leader-election'))).toMatchObject({
      matchingPrecedence: 100,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          resourceRules: [
            {
              verbs: ['get', 'create', 'update'],
              apiGroups: ['coordination.orch.io'],
              resources: ['leases'],
              namespaces: ['*'],
            },
          ],
        },
      ],
    });
  });

  it('writes nothing on a second run', async () => {
    const r = replica(freshPrefix());
    await r.bootstrap.ensure();
    const before = { fs: await versions(r.fs), plc: await versions(r.plc) };
    await r.bootstrap.ensure();
    expect({ fs: await versions(r.fs), plc: await versions(r.plc) }).toEqual(before);
  });

  it('lets concurrent replicas create each object exactly once without errors', async () => {
    // Counts the AlreadyExists answers, to show the replicas really raced.
    const create = jest.spyOn(GenericStore.prototype, 'create');
    for (let round = 0; round < 3; round++) {
      const prefix = freshPrefix();
      const replicas = [replica(prefix), replica(prefix), replica(prefix)];
      await Promise.all(replicas.map((r) => r.bootstrap.ensure()));
      const [first] = replicas;
      if (!first) throw new Error('no replica');
      expect(await names(first.fs)).toEqual([...BOOTSTRAP_FLOW_SCHEMA_NAMES].sort());
      expect(await names(first.plc)).toEqual([...BOOTSTRAP_PRIORITY_LEVEL_NAMES].sort());
      for (const o of (await first.fs.list('', EVERYTHING)).items) expect(o.metadata.generation).toBe(1);
    }
    const raced = create.mock.results
      .filter((res) => res.type === 'return')
      .map((res) =>
        (res.value as Promise<unknown>).then(
          () => false,
          (err: unknown) => err instanceof StatusError && err.code === 409,
        ),
      );
    expect((await Promise.all(raced)).some(Boolean)).toBe(true);
    create.mockRestore();
  });

  it('restores a changed mandatory object (annotation and spec)', async () => {
    const prefix = freshPrefix();
    const r = replica(prefix);
    await r.bootstrap.ensure();
    await r.fs.patch(
      '',
      'catch-all',
      (o) => ({ ...o, metadata: { ...o.metadata, annotations: { [AUTO_UPDATE_ANNOTATION]: 'false' } } }),
      { dryRun: false },
    );
    // Validation freezes mandatory specs, so a changed spec can only come from below the API (an older server, etcdctl).
    await r.storage.guaranteedUpdate(r.plc.keyFor('', 'catch-all'), (o) => ({
      object: {
        ...o,
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 77, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
        },
      },
    }));
    await r.bootstrap.ensure();
    expect(annotation(await r.fs.get('', 'catch-all'))).toBe('true');
    expect(spec(await r.plc.get('', 'catch-all'))).toEqual(MANDATORY_PRIORITY_LEVEL_SPECS['catch-all']);
  });

  it('leaves a suggested object alone while its annotation says "false"', async () => {
    const r = replica(freshPrefix());
    await r.bootstrap.ensure();
    const edited = await r.plc.patch(
      '',
      'global-default',
      (o) => {
        const s = structuredClone(spec(o)) as { limited: { nominalConcurrencyShares: number } };
        s.limited.nominalConcurrencyShares = 99;
        return { ...o, metadata: { ...o.metadata, annotations: { [AUTO_UPDATE_ANNOTATION]: 'false' } }, spec: s };
      },
      { dryRun: false },
    );
    await r.bootstrap.ensure();
    const after = await r.plc.get('', 'global-default');
    expect(after.metadata.resourceVersion).toBe(edited.object.metadata.resourceVersion);
    expect(spec(after)).toMatchObject({ limited: { nominalConcurrencyShares: 99 } });
  });

  it('keeps operator edits of an unannotated suggested object and records the decision as "false"', async () => {
    const r = replica(freshPrefix());
    await r.bootstrap.ensure();
    await r.fs.patch(
      '',
      'service-accounts',
      (o) => ({ ...o, metadata: { ...o.metadata, annotations: {} }, spec: { ...spec(o), matchingPrecedence: 8000 } }),
      { dryRun: false },
    );
    await r.bootstrap.ensure();
    const after = await r.fs.get('', 'service-accounts');
    expect(annotation(after)).toBe('false');
    expect(spec(after)['matchingPrecedence']).toBe(8000);
  });

  it('takes over a never-edited object a user created without the annotation', async () => {
    const r = replica(freshPrefix());
    await r.plc.create(
      '',
      {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
        kind: 'PriorityLevelConfiguration',
        metadata: { name: 'system' },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
        },
      },
      { dryRun: false },
    );
    await r.bootstrap.ensure();
    const after = await r.plc.get('', 'system');
    expect(annotation(after)).toBe('true');
    expect(spec(after)).toMatchObject({ limited: { nominalConcurrencyShares: 30, lendablePercent: 33 } });
  });

  it('recreates a deleted suggested object', async () => {
    const r = replica(freshPrefix());
    await r.bootstrap.ensure();
    const old = await r.fs.get('', 'probes');
    await r.fs.delete('', 'probes', {}, { dryRun: false });
    await r.bootstrap.ensure();
    const again = await r.fs.get('', 'probes');
    expect(again.metadata.uid).not.toBe(old.metadata.uid);
    expect(spec(again)).toEqual(spec(old));
  });

  it('deletes obsolete annotated objects only while the annotation says true', async () => {
    const r = replica(freshPrefix());
    const make = (name: string, value: string): Promise<unknown> =>
      r.fs.create(
        '',
        {
          apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
          kind: 'FlowSchema',
          metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: value } },
          spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 },
        },
        { dryRun: false },
      );
    await make('retired-true', 'true');
    await make('retired-false', 'false');
    await make('retired-bad', 'maybe');
    await r.bootstrap.ensure();
    const present = await names(r.fs);
    expect(present).not.toContain('retired-true');
    expect(present).toEqual(expect.arrayContaining(['retired-false', 'retired-bad']));
  });

  it('re-ensures periodically after start() until stop()', async () => {
    const r = replica(freshPrefix(), { resyncMs: 200 });
    await r.bootstrap.start();
    try {
      await r.plc.delete('', 'workload-high', {}, { dryRun: false });
      await eventually(async () => (await names(r.plc)).includes('workload-high'), 5000, 'workload-high recreated');
    } finally {
      r.bootstrap.stop();
    }
  });
});

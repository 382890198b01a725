// FlowcontrolConfig on real etcd: initial list, changes applied through the watch, re-list after a broken watch.
import pino from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { parseRequestInfo } from '../../endpoints/request-info';
import type { GenericStore } from '../../registry/generic/store';
import { buildRegistry } from '../../registry/install';
import { FLOWCONTROL_GROUP } from '../../apis/flowcontrol/register';
import type { WatchSink } from '../../storage/storage';
import { EtcdStorage } from '../../storage/etcd/store';
import { parseFeatureGates } from '../options/feature-gates';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { requestDigest, type Classification } from './classifier';
import { FlowcontrolConfig } from './config-watcher';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from './testing/bootstrap-config';
import { NO_ADMISSION } from '../../../test/helpers/registry-fixtures';

const LIST_DEPLOYMENTS = requestDigest(
  parseRequestInfo('GET', '/apis/apps/v1/namespaces/default/deployments', new URLSearchParams()),
);
const log = pino({ level: 'silent' });

const shared = useTestEtcd();

let prefixCounter = 0;
function stores(): { flowSchemas: GenericStore; priorityLevels: GenericStore } {
  const registry = buildRegistry(
    new EtcdStorage(shared.client()),
    `/fc-${++prefixCounter}`,
    parseFeatureGates(''),
    NO_ADMISSION,
  );
  const flowSchemas = registry.lookup(FLOWCONTROL_GROUP, 'v1beta3', 'flowschemas')?.store;
  const priorityLevels = registry.lookup(FLOWCONTROL_GROUP, 'v1beta3', 'prioritylevelconfigurations')?.store;
  if (!flowSchemas || !priorityLevels) throw new Error('flowcontrol resources are not served');
  return { flowSchemas, priorityLevels };
}

/** A stored object as a shared.client() would send it (no uid, resourceVersion or generation). */
function fresh(obj: ApiObject): ApiObject {
  const { spec, apiVersion, kind } = structuredClone(obj);
  return { apiVersion, kind, metadata: { name: obj.metadata.name ?? '' }, spec };
}

async function seed(s: ReturnType<typeof stores>, schemas: string[], levels: string[]): Promise<void> {
  for (const pl of bootstrapPriorityLevels().filter((o) => levels.includes(o.metadata.name ?? '')))
    await s.priorityLevels.create('', fresh(pl), { dryRun: false });
  for (const fs of bootstrapFlowSchemas().filter((o) => schemas.includes(o.metadata.name ?? '')))
    await s.flowSchemas.create('', fresh(fs), { dryRun: false });
}

function teamSchema(name: string, level: string, matchingPrecedence = 100): ApiObject {
  return {
    apiVersion: `${FLOWCONTROL_GROUP}/v1beta3`,
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: 'system:anonymous' } }],
          resourceRules: [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['*'] }],
        },
      ],
    },
  };
}

/** Polls until `check` accepts the classification, failing after `deadlineMs`; returns how long it took. */
async function eventually(
  config: FlowcontrolConfig,
  check: (c: Classification) => boolean,
  deadlineMs = 1000,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    const c = config.classifier.classify(LIST_DEPLOYMENTS);
    if (check(c)) return Date.now() - started;
    if (Date.now() - started > deadlineMs)
      throw new Error(`classification still ${JSON.stringify(c)} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('FlowcontrolConfig', () => {
  let config: FlowcontrolConfig | undefined;
  afterEach(async () => {
    await config?.stop();
    config = undefined;
  });

  it('uses the catch-all stand-in until loaded, then the stored configuration', async () => {
    const s = stores();
    await seed(s, ['exempt', 'global-default', 'catch-all'], ['exempt', 'global-default', 'catch-all']);
    config = new FlowcontrolConfig({ ...s, log });
    expect(config.classifier.classify(LIST_DEPLOYMENTS)).toEqual({
      flowSchema: { name: 'catch-all', uid: '' },
      priorityLevel: { name: 'catch-all', uid: '' },
      distinguisher: '',
    });
    await config.start();
    expect(config.loaded).toBe(true);
    const stored = await s.flowSchemas.get('', 'global-default');
    const result = config.classifier.classify(LIST_DEPLOYMENTS);
    expect(result.flowSchema).toEqual({ name: 'global-default', uid: stored.metadata.uid });
    expect(result.priorityLevel.uid).toBe((await s.priorityLevels.get('', 'global-default')).metadata.uid);
  });

  it('applies created, dangling and deleted FlowSchemas within a second', async () => {
    const s = stores();
    await seed(s, ['global-default', 'catch-all'], ['global-default', 'catch-all']);
    config = new FlowcontrolConfig({ ...s, log });
    await config.start();
    expect(config.classifier.classify(LIST_DEPLOYMENTS).flowSchema.name).toBe('global-default');

    const created = (await s.flowSchemas.create('', teamSchema('team', 'global-default'), { dryRun: false })).object;
    await eventually(config, (c) => c.flowSchema.name === 'team' && c.flowSchema.uid === created.metadata.uid);

    // A schema naming a missing level is Dangling until the level appears.
    await s.flowSchemas.create('', teamSchema('early', 'team-level', 50), { dryRun: false });
    await s.flowSchemas.delete('', 'team', {}, { dryRun: false });
    await eventually(config, (c) => c.flowSchema.name === 'global-default');
    await s.priorityLevels.create(
      '',
      { ...fresh(bootstrapPriorityLevels()[7] as ApiObject), metadata: { name: 'team-level' } },
      { dryRun: false },
    );
    await eventually(config, (c) => c.flowSchema.name === 'early' && c.priorityLevel.name === 'team-level');

    await s.priorityLevels.delete('', 'team-level', {}, { dryRun: false });
    await eventually(config, (c) => c.flowSchema.name === 'global-default');
  });

  it('re-lists when a watch breaks, picking up changes it missed', async () => {
    const s = stores();
    await seed(s, ['global-default', 'catch-all'], ['global-default', 'catch-all']);
    const sinks: WatchSink[] = [];
    let deaf = false;
    // The flow schema store, with watches that can be made to miss events and then fail.
    const flowSchemas = {
      definition: s.flowSchemas.definition,
      list: s.flowSchemas.list.bind(s.flowSchemas),
      watch: (namespace: string, afterRevision: number, sink: WatchSink) => {
        sinks.push(sink);
        return s.flowSchemas.watch(namespace, afterRevision, {
          event: (e) => deaf || sink.event(e),
          error: (e) => sink.error(e),
        });
      },
    } as unknown as GenericStore; // only list, watch and definition are used
    config = new FlowcontrolConfig({ flowSchemas, priorityLevels: s.priorityLevels, log });
    await config.start();
    expect(sinks).toHaveLength(1);

    deaf = true;
    await s.flowSchemas.create('', teamSchema('missed', 'global-default'), { dryRun: false });
    await new Promise((resolve) => setTimeout(resolve, 50)); // nothing to wait for: the event is dropped
    expect(config.classifier.classify(LIST_DEPLOYMENTS).flowSchema.name).toBe('global-default');
    deaf = false;
    sinks[0]?.error(new Error('watch broken'));
    await eventually(config, (c) => c.flowSchema.name === 'missed', 3000);
    expect(sinks).toHaveLength(2);
  });

  it('keeps the fallback and retries while the store cannot be listed', async () => {
    const s = stores();
    await seed(s, ['global-default', 'catch-all'], ['global-default', 'catch-all']);
    let failures = 2;
    const flowSchemas = {
      definition: s.flowSchemas.definition,
      list: async (...args: Parameters<GenericStore['list']>) => {
        if (failures-- > 0) throw new Error('etcd unavailable');
        return s.flowSchemas.list(...args);
      },
      watch: s.flowSchemas.watch.bind(s.flowSchemas),
    } as unknown as GenericStore; // only list, watch and definition are used
    config = new FlowcontrolConfig({ flowSchemas, priorityLevels: s.priorityLevels, log });
    await config.start();
    expect(config.loaded).toBe(false);
    expect(config.classifier.classify(LIST_DEPLOYMENTS).flowSchema).toEqual({ name: 'catch-all', uid: '' });
    await eventually(config, (c) => c.flowSchema.name === 'global-default', 3000);
    expect(config.loaded).toBe(true);
  });
});

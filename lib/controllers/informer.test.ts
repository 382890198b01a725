// The informer on real etcd and a real GenericStore: list then watch, handlers once per change, resync, re-list
// after the watch's revision was compacted (410), and resuming after etcd restarts.
import pino from 'pino';
import type { ApiObject } from '../apimachinery/meta/types';
import type { GenericStore } from '../registry/generic/store';
import type { ListOutcome, ListParams } from '../registry/generic/list';
import { buildRegistry } from '../registry/install';
import { FLOWCONTROL_GROUP } from '../apis/flowcontrol/register';
import { aPriorityLevel } from '../../test/helpers/fixtures';
import { EtcdStorage } from '../storage/etcd/store';
import { parseFeatureGates } from '../server/options/feature-gates';
import { useTestEtcd } from '../../test/helpers/etcd';
import { NO_ADMISSION } from '../../test/helpers/registry-fixtures';
import { Informer, type ListerWatcher } from './informer';

const log = pino({ level: 'silent' });
const shared = useTestEtcd();
let prefixCounter = 0;

function priorityLevels(): GenericStore {
  const store = buildRegistry(
    new EtcdStorage(shared.client()),
    `/inf-${++prefixCounter}`,
    parseFeatureGates(''),
    NO_ADMISSION,
  ).lookup(FLOWCONTROL_GROUP, 'v1beta3', 'prioritylevelconfigurations')?.store;
  if (!store) throw new Error('priority levels are not served');
  return store;
}

function cm(name: string): ApiObject {
  return aPriorityLevel(name) as ApiObject;
}

async function eventually(check: () => boolean, deadlineMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > deadlineMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function recorder(informer: Informer): string[] {
  const calls: string[] = [];
  informer.addHandler({
    add: (o) => calls.push(`add ${o.metadata.name}`),
    update: (old, o) => calls.push(`${old === o ? 'resync' : 'update'} ${o.metadata.name}`),
    delete: (o) => calls.push(`delete ${o.metadata.name}`),
  });
  return calls;
}

describe('Informer', () => {
  let informer: Informer | undefined;
  afterEach(async () => {
    await informer?.stop();
    informer = undefined;
  });

  it('lists, then calls each handler once per watched change, keeping the store current', async () => {
    const store = priorityLevels();
    await store.create('', cm('one'), { dryRun: false });
    informer = new Informer(store, { log });
    const calls = recorder(informer);
    expect(informer.hasSynced()).toBe(false);
    await informer.start();
    expect(informer.hasSynced()).toBe(true);
    expect(calls).toEqual(['add one']);
    await store.create('', cm('two'), { dryRun: false });
    await store.patch('', 'one', (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { changed: 'yes' } } }), {
      dryRun: false,
    });
    await store.delete('', 'two', {}, { dryRun: false });
    await eventually(() => calls.length === 4);
    await new Promise((r) => setTimeout(r, 200));
    expect(calls).toEqual(['add one', 'add two', 'update one', 'delete two']);
    expect([...informer.objects.keys()]).toEqual(['one']);
    expect(informer.get('one')?.metadata.labels).toEqual({ changed: 'yes' });
    // A late handler is told about the stored objects.
    const late = recorder(informer);
    expect(late).toEqual(['add one']);
  });

  it('replays the store to the handlers at each resync', async () => {
    const store = priorityLevels();
    await store.create('', cm('one'), { dryRun: false });
    informer = new Informer(store, { log, resyncPeriodMs: 100 });
    const calls = recorder(informer);
    await informer.start();
    await eventually(() => calls.filter((c) => c === 'resync one').length >= 2);
  });

  it('re-lists after the watch revision was compacted (410), telling only what changed', async () => {
    const store = priorityLevels();
    await store.create('', cm('kept'), { dryRun: false });
    await store.create('', cm('gone'), { dryRun: false });
    // The first list's answer is held back while the objects change and etcd compacts past its revision.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let lists = 0;
    const source: ListerWatcher = {
      list: async (ns: string, params: ListParams): Promise<ListOutcome> => {
        const out = await store.list(ns, params);
        if (++lists === 1) await held;
        return out;
      },
      watch: (ns, rev, sink) => store.watch(ns, rev, sink),
    };
    informer = new Informer(source, { log });
    const calls = recorder(informer);
    const started = informer.start();
    await eventually(() => lists === 1);
    await store.delete('', 'gone', {}, { dryRun: false });
    await store.create('', cm('new'), { dryRun: false });
    const head = Number(
      (await store.list('', { hasSelector: false, limit: 0, continueToken: '', resourceVersionMatch: '' }))
        .resourceVersion,
    );
    await shared.client().kv.compact({ revision: head });
    release();
    await started;
    await eventually(() => lists >= 2 && informer?.objects.has('new') === true);
    expect([...informer.objects.keys()].sort()).toEqual(['kept', 'new']);
    expect(calls).toEqual(['add gone', 'add kept', 'add new', 'delete gone']);
  });

  it('resumes watching after etcd restarts', async () => {
    const etcd = shared.etcd();
    if (!etcd.restart) return; // a container etcd cannot be restarted in place
    const store = priorityLevels();
    informer = new Informer(store, { log });
    const calls = recorder(informer);
    await informer.start();
    await etcd.restart(1000);
    let created = false;
    await eventually(() => {
      if (!created)
        void store.create('', cm('after'), { dryRun: false }).then(
          () => (created = true),
          () => undefined,
        );
      return informer?.objects.has('after') === true;
    }, 30_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toEqual(['add after']);
  }, 60_000);
});

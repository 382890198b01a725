// The FlowSchema Dangling condition on real etcd: set on create, flipped by priority levels appearing and disappearing.
import { Etcd3 } from 'etcd3';
import pino from 'pino';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import type { GenericStore } from '../../lib/registry/generic/store';
import { buildRegistry } from '../../lib/registry/install';
import { FLOWCONTROL_GROUP } from '../../lib/apis/flowcontrol/register';
import { EtcdStorage } from '../../lib/storage/etcd/store';
import { DanglingConditionController } from '../../lib/registry/flowcontrol/dangling-controller';
import { startTestEtcd, type TestEtcd } from '../helpers/etcd';
import { eventually } from '../helpers/test-server';
import { NO_ADMISSION } from '../helpers/registry-fixtures';

const log = pino({ level: process.env['ORCH_TEST_LOG'] ?? 'silent' });
const API_VERSION = `${FLOWCONTROL_GROUP}/v1beta3`;
/** "Within about a second": generous for a loaded CI machine, far below any periodic resync. */
const REACTION_MS = 2500;

let etcd: TestEtcd;
let client: Etcd3;
let fs: GenericStore;
let plc: GenericStore;
let fsStatus: GenericStore;
let controller: DanglingConditionController;

beforeAll(async () => {
  etcd = await startTestEtcd();
  client = new Etcd3({ hosts: etcd.clientUrl });
  const registry = buildRegistry(new EtcdStorage(client), '/dangling', {}, NO_ADMISSION);
  const fsServed = registry.lookup(FLOWCONTROL_GROUP, 'v1beta3', 'flowschemas');
  const plServed = registry.lookup(FLOWCONTROL_GROUP, 'v1beta3', 'prioritylevelconfigurations');
  if (!fsServed?.statusStore || !plServed) throw new Error('flowcontrol resources are not served');
  fs = fsServed.store;
  plc = plServed.store;
  fsStatus = fsServed.statusStore;
  // Present before the controller starts: found by its initial list, not by the watch.
  await createFlowSchema('preexisting', 'nowhere');
  controller = new DanglingConditionController({
    flowSchemas: fs,
    flowSchemaStatus: fsStatus,
    priorityLevels: plc,
    log,
  });
  controller.start();
});
afterAll(async () => {
  controller.stop();
  client.close();
  await etcd.stop();
});

function createFlowSchema(name: string, priorityLevel: string): Promise<unknown> {
  return fs.create(
    '',
    {
      apiVersion: API_VERSION,
      kind: 'FlowSchema',
      metadata: { name },
      spec: { priorityLevelConfiguration: { name: priorityLevel }, matchingPrecedence: 500 },
    },
    { dryRun: false },
  );
}

function createPriorityLevel(name: string): Promise<unknown> {
  return plc.create(
    '',
    {
      apiVersion: API_VERSION,
      kind: 'PriorityLevelConfiguration',
      metadata: { name },
      spec: {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
      },
    },
    { dryRun: false },
  );
}

interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

function dangling(obj: ApiObject): Condition | undefined {
  const conditions = (obj['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  return conditions.find((c) => c.type === 'Dangling');
}

async function waitForDangling(name: string, status: 'True' | 'False'): Promise<Condition> {
  const started = Date.now();
  await eventually(
    async () => dangling(await fs.get('', name))?.status === status,
    REACTION_MS,
    `${name} Dangling=${status}`,
  );
  const condition = dangling(await fs.get('', name));
  if (!condition) throw new Error('condition vanished');
  log.debug({ ms: Date.now() - started }, 'reaction time');
  return condition;
}

const notFound = (pl: string): Condition => ({
  type: 'Dangling',
  status: 'True',
  reason: 'NotFound',
  message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" but there is no such object`,
});
const found = (pl: string): Condition => ({
  type: 'Dangling',
  status: 'False',
  reason: 'Found',
  message: `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" and it exists`,
});

describe('FlowSchema Dangling condition', () => {
  it('marks a FlowSchema that existed before start', async () => {
    expect(await waitForDangling('preexisting', 'True')).toMatchObject(notFound('nowhere'));
  });

  it('is True while the priority level is missing, False once it exists, True again after it is deleted', async () => {
    await createFlowSchema('orphan', 'late-level');
    const missing = await waitForDangling('orphan', 'True');
    expect(missing).toEqual({
      ...notFound('late-level'),
      lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    // Exactly the Go field order of FlowSchemaCondition.
    expect(Object.keys(missing)).toEqual(['type', 'status', 'lastTransitionTime', 'reason', 'message']);

    await createPriorityLevel('late-level');
    expect(await waitForDangling('orphan', 'False')).toMatchObject(found('late-level'));

    await plc.delete('', 'late-level', {}, { dryRun: false });
    expect(await waitForDangling('orphan', 'True')).toMatchObject(notFound('late-level'));
  });

  it('follows a change of the referenced priority level', async () => {
    await createPriorityLevel('level-a');
    await createFlowSchema('switcher', 'level-a');
    await waitForDangling('switcher', 'False');
    await fs.patch(
      '',
      'switcher',
      (o) => ({ ...o, spec: { ...(o['spec'] as object), priorityLevelConfiguration: { name: 'level-b' } } }),
      { dryRun: false },
    );
    expect(await waitForDangling('switcher', 'True')).toMatchObject(notFound('level-b'));
  });

  it('writes nothing when the condition is already right', async () => {
    await createPriorityLevel('steady-level');
    await createFlowSchema('steady', 'steady-level');
    const first = await waitForDangling('steady', 'False');
    // A main-resource write (label only) reaches the controller through the watch; the status must stay untouched.
    const labelled = await fs.patch(
      '',
      'steady',
      (o) => ({ ...o, metadata: { ...o.metadata, labels: { touched: 'yes' } } }),
      { dryRun: false },
    );
    // Unrelated priority level churn re-checks nothing that references another level, and changes nothing.
    await createPriorityLevel('unrelated-level');
    await new Promise((r) => setTimeout(r, 1500));
    const after = await fs.get('', 'steady');
    expect(after.metadata.resourceVersion).toBe(labelled.object.metadata.resourceVersion);
    expect(dangling(after)).toEqual(first);
  });

  it('keeps other condition types when it writes its own', async () => {
    await createFlowSchema('mixed', 'mixed-level');
    await waitForDangling('mixed', 'True');
    await fsStatus.patch(
      '',
      'mixed',
      (o) => {
        const conditions = [
          ...(o['status'] as { conditions: Condition[] }).conditions,
          { type: 'Other', status: 'True', reason: 'Because', message: 'kept' },
        ];
        return { ...o, status: { conditions } };
      },
      { dryRun: false },
    );
    await createPriorityLevel('mixed-level');
    await waitForDangling('mixed', 'False');
    const conditions = ((await fs.get('', 'mixed'))['status'] as { conditions: Condition[] }).conditions;
    expect(conditions.map((c) => c.type)).toEqual(['Dangling', 'Other']);
  });
});

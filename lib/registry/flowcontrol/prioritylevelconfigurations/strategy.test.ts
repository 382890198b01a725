// PriorityLevelConfiguration strategy (create/update/status writes) and printer columns.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { priorityLevelConfigurationStatusStrategy, priorityLevelConfigurationStrategy } from './strategy';
import { priorityLevelConfigurationTable } from './table';

const NOW = new Date('2024-06-01T12:00:00Z');

function aPriorityLevel(): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'pl', generation: 2, creationTimestamp: '2024-05-30T12:00:00Z' },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
      },
    },
    status: {},
  };
}

describe('priorityLevelConfigurationStrategy', () => {
  it('is cluster-scoped and has a table', () => {
    expect(priorityLevelConfigurationStrategy.namespaced).toBe(false);
    expect(priorityLevelConfigurationStrategy.table).toBe(priorityLevelConfigurationTable);
  });

  it('applies the v1beta3 defaults', () => {
    const obj: ApiObject = {
      metadata: { name: 'pl' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } },
    };
    priorityLevelConfigurationStrategy.applyDefaults(obj);
    expect(obj.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
      },
    });
  });

  it('clears status and sets generation 1 on create', () => {
    const obj = aPriorityLevel();
    obj.status = { conditions: [{ type: 'X' }] };
    priorityLevelConfigurationStrategy.prepareForCreate(obj);
    expect(obj.status).toEqual({});
    expect(obj.metadata.generation).toBe(1);
  });

  it('keeps status, bumps generation only on spec change', () => {
    const old = aPriorityLevel();
    const same = aPriorityLevel();
    same.status = { conditions: [{ type: 'X' }] };
    priorityLevelConfigurationStrategy.prepareForUpdate(same, old);
    expect(same.status).toEqual({});
    expect(same.metadata.generation).toBe(2);

    const changed = aPriorityLevel();
    changed.spec = { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } };
    priorityLevelConfigurationStrategy.prepareForUpdate(changed, old);
    expect(changed.metadata.generation).toBe(3);
  });

  it('reports nominalConcurrencyShares in error paths', () => {
    const obj = aPriorityLevel();
    obj.spec = { type: 'Limited', limited: { nominalConcurrencyShares: -1, limitResponse: { type: 'Reject' } } };
    expect(priorityLevelConfigurationStrategy.validate(obj).map((e) => e.field)).toEqual([
      'spec.limited.nominalConcurrencyShares',
    ]);
    expect(priorityLevelConfigurationStrategy.validateUpdate(obj, aPriorityLevel()).map((e) => e.field)).toEqual([
      'spec.limited.nominalConcurrencyShares',
    ]);
  });
});

describe('priorityLevelConfigurationStatusStrategy', () => {
  it('carries spec and metadata from storage and validates only the status', () => {
    const old = aPriorityLevel();
    const obj = aPriorityLevel();
    obj.spec = { type: 'Bogus' };
    obj.metadata = { name: 'pl', annotations: { dropped: 'yes' } };
    obj.status = { conditions: [{ type: '' }] };
    priorityLevelConfigurationStatusStrategy.prepareForUpdate(obj, old);
    expect(obj.spec).toEqual(old.spec);
    expect(obj.metadata).toEqual(old.metadata);
    expect(priorityLevelConfigurationStatusStrategy.validateUpdate(obj, old).map((e) => e.field)).toEqual([
      'status.conditions[0].type',
    ]);
  });
});

describe('priorityLevelConfigurationTable', () => {
  it('has the kube-apiserver columns', () => {
    expect(priorityLevelConfigurationTable.columns.map((c) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Type', 'string', ''],
      ['NominalConcurrencyShares', 'string', ''],
      ['Queues', 'string', ''],
      ['HandSize', 'string', ''],
      ['QueueLengthLimit', 'string', ''],
      ['Age', 'string', ''],
    ]);
  });

  it.each<[string, unknown, unknown[]]>([
    [
      'a queuing level',
      {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 30,
          limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
        },
      },
      ['pl', 'Limited', 30, 64, 8, 50, '2d'],
    ],
    [
      'a rejecting level',
      { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
      ['pl', 'Limited', 5, '<none>', '<none>', '<none>', '2d'],
    ],
    ['an exempt level', { type: 'Exempt' }, ['pl', 'Exempt', '<none>', '<none>', '<none>', '<none>', '2d']],
  ])('%s', (_name, spec, cells) => {
    const obj = aPriorityLevel();
    obj.spec = spec;
    expect(priorityLevelConfigurationTable.cells(obj, NOW)).toEqual(cells);
  });
});

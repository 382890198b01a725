// FlowSchema strategy (create/update/status writes) and printer columns.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { flowSchemaStatusStrategy, flowSchemaStrategy } from './strategy';
import { flowSchemaTable } from './table';

const NOW = new Date('2024-06-01T12:00:00Z');

function aFlowSchema(): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'FlowSchema',
    metadata: {
      name: 'fs',
      generation: 3,
      labels: { a: 'b' },
      creationTimestamp: '2024-06-01T11:00:00Z',
      resourceVersion: '10',
    },
    spec: {
      priorityLevelConfiguration: { name: 'workload-low' },
      matchingPrecedence: 500,
      rules: [
        {
          subjects: [{ kind: 'Group', group: { name: 'g' } }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        },
      ],
    },
    status: { conditions: [{ type: 'Dangling', status: 'False', reason: 'Found' }] },
  };
}

describe('flowSchemaStrategy', () => {
  it('is cluster-scoped, allows unconditional update and has a table', () => {
    expect(flowSchemaStrategy.namespaced).toBe(false);
    expect(flowSchemaStrategy.allowUnconditionalUpdate).toBe(true);
    expect(flowSchemaStrategy.allowCreateOnUpdate).toBe(false);
    expect(flowSchemaStrategy.table).toBe(flowSchemaTable);
  });

  it('defaults matchingPrecedence', () => {
    const obj = aFlowSchema();
    (obj.spec as Record<string, unknown>).matchingPrecedence = 0; // fixture is a plain object
    flowSchemaStrategy.applyDefaults(obj);
    expect(obj.spec).toMatchObject({ matchingPrecedence: 1000 });
  });

  it('clears status and sets generation 1 on create', () => {
    const obj = aFlowSchema();
    flowSchemaStrategy.prepareForCreate(obj);
    expect(obj.status).toEqual({});
    expect(obj.metadata.generation).toBe(1);
  });

  it('keeps the stored status and generation when the spec is unchanged', () => {
    const old = aFlowSchema();
    const obj = aFlowSchema();
    obj.status = { conditions: [] };
    obj.metadata.labels = { c: 'd' };
    flowSchemaStrategy.prepareForUpdate(obj, old);
    expect(obj.status).toEqual(old.status);
    expect(obj.metadata.generation).toBe(3);
    expect(obj.metadata.labels).toEqual({ c: 'd' });
  });

  it('bumps the generation when the spec changes', () => {
    const old = aFlowSchema();
    const obj = aFlowSchema();
    (obj.spec as Record<string, unknown>).matchingPrecedence = 600;
    flowSchemaStrategy.prepareForUpdate(obj, old);
    expect(obj.metadata.generation).toBe(4);
  });

  it('validates create and update through the flowcontrol rules', () => {
    const obj = aFlowSchema();
    (obj.spec as Record<string, unknown>).matchingPrecedence = -1;
    expect(flowSchemaStrategy.validate(obj)).toHaveLength(1);
    expect(flowSchemaStrategy.validateUpdate(obj, aFlowSchema())).toHaveLength(1);
  });
});

describe('flowSchemaStatusStrategy', () => {
  it('carries spec and metadata (except managedFields) from storage', () => {
    const old = aFlowSchema();
    const obj = aFlowSchema();
    obj.spec = { matchingPrecedence: -1 };
    obj.metadata = { name: 'fs', labels: { dropped: 'yes' }, managedFields: [{ manager: 'm' }] };
    obj.status = { conditions: [{ type: 'Dangling', status: 'True' }] };
    flowSchemaStatusStrategy.prepareForUpdate(obj, old);
    expect(obj.spec).toEqual(old.spec);
    expect(obj.metadata).toEqual({ ...old.metadata, managedFields: [{ manager: 'm' }] });
    expect(obj.status).toEqual({ conditions: [{ type: 'Dangling', status: 'True' }] });
    expect(flowSchemaStatusStrategy.validateUpdate(obj, old)).toEqual([]);
  });

  it('validates only the status', () => {
    const obj = aFlowSchema();
    obj.status = { conditions: [{ type: 'Dangling' }, { type: 'Dangling' }] };
    expect(flowSchemaStatusStrategy.validateUpdate(obj, aFlowSchema())).toHaveLength(1);
  });
});

describe('flowSchemaTable', () => {
  it('has the kube-apiserver columns', () => {
    expect(flowSchemaTable.columns.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['PriorityLevel', 'string', '', 0],
      ['MatchingPrecedence', 'string', '', 0],
      ['DistinguisherMethod', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['MissingPL', 'string', '', 0],
    ]);
  });

  it.each<[string, (o: ApiObject) => void, unknown[]]>([
    ['a schema without distinguisher, found PL', () => {}, ['fs', 'workload-low', 500, '<none>', '60m', 'False']],
    [
      'a ByUser schema whose PL is missing',
      (o) => {
        o.spec = {
          priorityLevelConfiguration: { name: 'x' },
          matchingPrecedence: 7,
          distinguisherMethod: { type: 'ByUser' },
        };
        o.status = {
          conditions: [
            { type: 'Other', status: 'False' },
            { type: 'Dangling', status: 'True' },
          ],
        };
      },
      ['fs', 'x', 7, 'ByUser', '60m', 'True'],
    ],
    [
      'a schema without a Dangling condition yet',
      (o) => {
        o.status = {};
        delete o.metadata.creationTimestamp;
      },
      ['fs', 'workload-low', 500, '<none>', '<unknown>', '?'],
    ],
  ])('%s', (_name, change, cells) => {
    const obj = aFlowSchema();
    change(obj);
    expect(flowSchemaTable.cells(obj, NOW)).toEqual(cells);
  });
});

// Deployment printer columns and cells.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { deploymentTable } from './table';

const now = new Date('2024-01-02T03:04:05Z');

function aDeployment(spec: unknown, status: unknown = {}): ApiObject {
  return { metadata: { name: 'web', creationTimestamp: '2024-01-02T02:59:02Z' }, spec, status };
}

describe('deploymentTable', () => {
  it('has the 1.26 columns, the last three wide-only', () => {
    expect(deploymentTable.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Up-to-date', 'string', 0],
      ['Available', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
  });

  it('prints a row', () => {
    const d = aDeployment(
      {
        replicas: 3,
        selector: {
          matchLabels: { tier: 'web', app: 'shop' },
          matchExpressions: [
            { key: 'env', operator: 'NotIn', values: ['qa', 'dev'] },
            { key: 'canary', operator: 'DoesNotExist' },
          ],
        },
        template: {
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1.25' },
              { name: 'log', image: 'busybox' },
            ],
          },
        },
      },
      { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 1 },
    );
    expect(deploymentTable.cells(d, now)).toEqual([
      'web',
      '2/3',
      3,
      1,
      '5m3s',
      'web,log',
      'nginx:1.25,busybox',
      'app=shop,!canary,env notin (dev,qa),tier=web',
    ]);
  });

  it.each<[string, unknown, string]>([
    ['no selector', undefined, ''],
    ['an empty selector', {}, ''],
    ['an unconvertible selector', { matchExpressions: [{ key: 'a', operator: 'In' }] }, '<invalid>'],
    ['a wrongly typed selector', 'x', '<invalid>'],
  ])('prints the Selector cell for %s', (_name, selector, cell) => {
    expect(deploymentTable.cells(aDeployment({ selector }), now)[7]).toBe(cell);
  });

  it('prints zeros for a fresh or malformed object', () => {
    expect(deploymentTable.cells(aDeployment('x', null), now)).toEqual(['web', '0/0', 0, 0, '5m3s', '', '', '']);
  });
});

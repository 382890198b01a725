// Namespace printer columns and cells.
import { namespaceTable } from './table';

describe('namespaceTable', () => {
  it('prints NAME, STATUS, AGE', () => {
    expect(namespaceTable.columns.map((c) => c.name)).toEqual(['Name', 'Status', 'Age']);
    const ns = {
      metadata: { name: 'dev', creationTimestamp: '2024-01-01T00:00:00Z' },
      status: { phase: 'Terminating' },
    };
    expect(namespaceTable.cells(ns, new Date('2024-01-03T01:00:00Z'))).toEqual(['dev', 'Terminating', '2d1h']);
    expect(namespaceTable.cells({ metadata: {} }, new Date())).toEqual(['', '', '<unknown>']);
  });
});

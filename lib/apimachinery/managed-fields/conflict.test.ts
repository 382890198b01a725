// The apply conflict 409: manager printing, one-conflict and many-conflict messages (grouped by sorted manager identifier), causes.
import { conflictError, printManager } from './conflict';
import { managerIdentifier } from './entries';
import { field, keyElement, type Path } from './path-element';

const alice = managerIdentifier({ manager: 'alice', operation: 'Apply' });
const editor = managerIdentifier({ manager: 'editor', operation: 'Update', apiVersion: 'apps/v1' });
const scaler = managerIdentifier({ manager: 'hpa', operation: 'Update', apiVersion: 'apps/v1', subresource: 'scale' });
const spec = (...names: string[]): Path => [field('spec'), ...names.map(field)];
const image: Path = [...spec('template', 'spec', 'containers'), keyElement([['name', 'nginx']]), field('image')];

describe('printManager', () => {
  it.each([
    [alice, '"alice"'],
    [editor, '"editor" using apps/v1'],
    [scaler, '"hpa" with subresource "scale" using apps/v1'],
    [
      managerIdentifier({ manager: 'ctl', operation: 'Apply', subresource: 'status' }),
      '"ctl" with subresource "status"',
    ],
  ])('%s → %s', (id, text) => expect(printManager(id)).toBe(text));
});

describe('conflictError', () => {
  it('one conflict: one line and one cause', () => {
    expect(conflictError([{ manager: scaler, path: spec('replicas') }]).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Apply failed with 1 conflict: conflict with "hpa" with subresource "scale" using apps/v1: .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "hpa" with subresource "scale" using apps/v1',
            field: '.spec.replicas',
          },
        ],
      },
      code: 409,
    });
  });

  it('many conflicts: grouped under each manager, managers sorted by identifier, paths in the order given', () => {
    const err = conflictError([
      { manager: scaler, path: spec('replicas') },
      { manager: editor, path: image },
      { manager: alice, path: spec('minReadySeconds') },
      { manager: alice, path: spec('paused') },
    ]);
    expect(err.status.message).toBe(
      [
        'Apply failed with 4 conflicts: conflicts with "alice":',
        '- .spec.minReadySeconds',
        '- .spec.paused',
        'conflicts with "editor" using apps/v1:',
        '- .spec.template.spec.containers[name="nginx"].image',
        'conflicts with "hpa" with subresource "scale" using apps/v1:',
        '- .spec.replicas',
      ].join('\n'),
    );
    expect(err.status.details?.causes?.map((c) => [c.message, c.field])).toEqual([
      ['conflict with "hpa" with subresource "scale" using apps/v1', '.spec.replicas'],
      ['conflict with "editor" using apps/v1', '.spec.template.spec.containers[name="nginx"].image'],
      ['conflict with "alice"', '.spec.minReadySeconds'],
      ['conflict with "alice"', '.spec.paused'],
    ]);
  });
});

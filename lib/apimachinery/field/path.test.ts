import { FieldPath } from './path';

describe('FieldPath', () => {
  it.each([
    [
      FieldPath.root('spec').child('rules').index(0).child('subjects').index(1).child('kind'),
      'spec.rules[0].subjects[1].kind',
    ],
    [FieldPath.root('metadata').child('labels').key('app'), 'metadata.labels[app]'],
    [FieldPath.root('spec', 'template', 'spec'), 'spec.template.spec'],
    [
      FieldPath.root('spec').child('readinessProbe', 'terminationGracePeriodSeconds'),
      'spec.readinessProbe.terminationGracePeriodSeconds',
    ],
  ])('prints %s', (path, text) => {
    expect(path.toString()).toBe(text);
    expect(String(path)).toBe(text);
  });
});

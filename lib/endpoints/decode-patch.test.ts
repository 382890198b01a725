// PATCH field validation: the patch body's own problems and the patched object's, per directive and patch type.
import { isStatusError } from '../apimachinery/errors';
import type { ApiObject } from '../apimachinery/meta/types';
import { schemaFor } from '../apimachinery/schema/kinds';
import { checkPatchedObject, patchBodyProblems } from './decode-patch';

const DEPLOYMENT = schemaFor('apps/v1', 'Deployment');
const patched = (spec: Record<string, unknown>): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec,
});

function status422(run: () => unknown): { message: string; causes: unknown } {
  try {
    run();
  } catch (err) {
    if (isStatusError(err) && err.code === 422) return { message: err.message, causes: err.status.details };
    throw err;
  }
  throw new Error('expected a 422');
}

describe('patchBodyProblems', () => {
  it('finds repeated keys of merge and strategic patches by path', () => {
    expect(patchBodyProblems(Buffer.from('{"spec":{"a":{"b":1,"b":2}},"spec":{}}'), 'merge', 'Warn')).toEqual([
      'duplicate field "spec.a.b"',
      'duplicate field "spec"',
    ]);
    expect(patchBodyProblems(Buffer.from('{"x":1,"x":2}'), 'strategic', 'Strict')).toEqual(['duplicate field "x"']);
  });

  it('finds unknown and repeated fields of JSON patch operations, prefixed', () => {
    expect(
      patchBodyProblems(
        Buffer.from('[{"op":"add","op":"add","path":"/a","value":{"k":1,"k":2},"x":1}]'),
        'json',
        'Warn',
      ),
    ).toEqual([
      'json patch duplicate field "[0].op"',
      'json patch duplicate field "[0].value.k"',
      'json patch unknown field "[0].x"',
    ]);
  });

  it('looks at nothing under Ignore, and leaves malformed bodies to the patch decoder', () => {
    expect(patchBodyProblems(Buffer.from('{"x":1,"x":2}'), 'merge', 'Ignore')).toEqual([]);
    expect(patchBodyProblems(Buffer.from('{"x":'), 'merge', 'Strict')).toEqual([]);
  });
});

describe('checkPatchedObject', () => {
  it('drops unknown fields and warns under Warn, body problems first', () => {
    const { object, warnings } = checkPatchedObject(patched({ foo: 1, replicas: 2 }), DEPLOYMENT, 'merge', {}, 'Warn', [
      'duplicate field "spec.replicas"',
    ]);
    expect(object.spec).toEqual({
      replicas: 2,
      selector: null,
      strategy: {},
      template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
    });
    expect(warnings).toEqual(['duplicate field "spec.replicas"', 'unknown field "spec.foo"']);
  });

  it('says nothing under Ignore', () => {
    expect(checkPatchedObject(patched({ foo: 1 }), DEPLOYMENT, 'merge', {}, 'Ignore', []).warnings).toEqual([]);
  });

  it('refuses under Strict with the patched JSON as json.Marshal writes it', () => {
    const { message, causes } = status422(() =>
      checkPatchedObject(patched({ foo: 1 }), DEPLOYMENT, 'json', [], 'Strict', []),
    );
    expect(message).toBe(
      ' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"apps/v1\\",\\"kind\\":\\"Deployment\\",\\"metadata\\":{\\"name\\":\\"web\\"},\\"spec\\":{\\"foo\\":1}}": strict decoding error: unknown field "spec.foo"',
    );
    expect(causes).toEqual({
      causes: [{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/^Invalid value: /) }],
    });
  });

  it('sorts the unknown fields of a strategic patch and shows the patch as a Go map', () => {
    const { message } = status422(() =>
      checkPatchedObject(
        patched({ zzz: 1, aaa: 2 }),
        DEPLOYMENT,
        'strategic',
        { spec: { zzz: 1, aaa: 2 } },
        'Strict',
        [],
      ),
    );
    expect(message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[aaa:2 zzz:1]]": strict decoding error: unknown field "spec.aaa", unknown field "spec.zzz"',
    );
  });

  it('refuses a type error under every directive', () => {
    for (const level of ['Ignore', 'Warn', 'Strict'] as const) {
      expect(
        status422(() => checkPatchedObject(patched({ replicas: true }), DEPLOYMENT, 'merge', {}, level, [])).message,
      ).toMatch(/: json: cannot unmarshal bool into Go struct field DeploymentSpec.spec.replicas of type int32$/);
    }
  });
});

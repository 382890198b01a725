import { decodeContinueToken, encodeContinueToken } from './continue-token';
import { toStatusError } from '../registry/generic/storage-errors';

/** Decoding as a list request sees it: a bad token's StorageError through the one storage → Status boundary. */
function decodeAsServed(token: string, prefix: string): ReturnType<typeof decodeContinueToken> {
  try {
    return decodeContinueToken(token, prefix);
  } catch (err) {
    throw toStatusError(err, { operation: 'list' });
  }
}

describe('continue tokens', () => {
  it('round-trips the revision and the position just after the last key', () => {
    const token = encodeContinueToken('/registry/apps/deployments/', '/registry/apps/deployments/ns/web', 42);
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({
      v: 'meta.k8s.io/v1',
      rv: 42,
      start: 'ns/web\u0000',
    });
    expect(token).not.toContain('=');
    expect(decodeContinueToken(token, '/registry/apps/deployments/')).toEqual({
      revision: 42,
      startKey: '/registry/apps/deployments/ns/web\u0000',
    });
  });

  it.each([
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'),
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    ],
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":""}').toString('base64url'),
      'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    ],
    [
      Buffer.from('{"v":"x/v9","rv":5,"start":"a"}').toString('base64url'),
      'invalid continue token: continue key is not valid: server does not recognize this encoded version "x/v9"',
    ],
  ])('refuses %s with 400', (token, message) => {
    expect(() => decodeAsServed(token, '/p/')).toThrow(
      expect.objectContaining({ status: expect.objectContaining({ code: 400, reason: 'BadRequest', message }) }),
    );
  });

  it.each([
    ['hello', "invalid character 'h' looking for beginning of value"],
    ['{"v":"meta.k8s.io/v1","rv":5', 'unexpected end of JSON input'],
    ['[]', 'json: cannot unmarshal array into Go value of type storage.continueToken'],
    [
      '{"v":"meta.k8s.io/v1","rv":"5","start":"a"}',
      'json: cannot unmarshal string into Go struct field continueToken.rv of type int64',
    ],
    [
      '{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}',
      'json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64',
    ],
    [
      '{"v":7,"rv":true,"start":"a"}',
      'json: cannot unmarshal number into Go struct field continueToken.v of type string',
    ],
  ])('refuses the JSON %s with Go’s encoding/json text', (json, detail) => {
    const token = Buffer.from(json).toString('base64url');
    expect(() => decodeAsServed(token, '/p/')).toThrow(`invalid continue token: continue key is not valid: ${detail}`);
  });

  it('matches field names case-insensitively and ignores unknown fields, as encoding/json does', () => {
    const token = Buffer.from('{"V":"meta.k8s.io/v1","Rv":7,"START":"a\\u0000","x":[1]}').toString('base64url');
    expect(decodeContinueToken(token, '/p/')).toEqual({ revision: 7, startKey: '/p/a\u0000' });
  });

  it('refuses text that is not base64url', () => {
    expect(() => decodeAsServed('a b', '/p/')).toThrow(
      /invalid continue token: continue key is not valid: illegal base64 data at input byte 1/,
    );
  });

  it.each(['../../secrets/x', 'ns/../x', 'ns//x', './x', 'ns/x/'])(
    'refuses a start key that is not a clean path (%s), as Kubernetes does',
    (start) => {
      const token = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 5, start })).toString('base64url');
      expect(() => decodeAsServed(token, '/registry/apps/deployments/')).toThrow(
        `invalid continue token: continue key is not valid: ${start}`,
      );
    },
  );

  it('accepts a rooted start key and keeps it under the prefix', () => {
    const token = Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":"/ns/web\\u0000"}').toString('base64url');
    expect(decodeContinueToken(token, '/registry/apps/deployments/').startKey).toBe(
      '/registry/apps/deployments/ns/web\u0000',
    );
  });
});

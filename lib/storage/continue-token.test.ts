import { decodeContinueToken, encodeContinueToken } from './continue-token';

describe('continue tokens', () => {
  it('round-trips the revision and the position just after the last key', () => {
    const token = encodeContinueToken('/registry/apps/deployments/', '/registry/apps/deployments/ns/web', 42);
    expect(JSON.parse(Buffer.from(token, 'base64url').toString())).toEqual({ v: 'meta.k8s.io/v1', rv: 42, start: 'ns/web\u0000' });
    expect(token).not.toContain('=');
    expect(decodeContinueToken(token, '/registry/apps/deployments/')).toEqual({ revision: 42, startKey: '/registry/apps/deployments/ns/web\u0000' });
  });

  it.each([
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'), 'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":""}').toString('base64url'), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
    [Buffer.from('{"v":"x/v9","rv":5,"start":"a"}').toString('base64url'), 'invalid continue token: continue key is not valid: server does not recognize this encoded version x/v9'],
  ])('refuses %s with 400', (token, message) => {
    expect(() => decodeContinueToken(token, '/p/')).toThrow(expect.objectContaining({ status: expect.objectContaining({ code: 400, reason: 'BadRequest', message }) }));
  });

  it('refuses text that is not base64url', () => {
    expect(() => decodeContinueToken('a b', '/p/')).toThrow(/invalid continue token: continue key is not valid: illegal base64 data at input byte 1/);
  });

  it('keeps a crafted token inside the collection prefix', () => {
    const token = Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":"../../secrets/x"}').toString('base64url');
    expect(decodeContinueToken(token, '/registry/apps/deployments/').startKey).toBe('/registry/apps/deployments/secrets/x');
  });
});

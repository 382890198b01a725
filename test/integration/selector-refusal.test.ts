// A selector the list refuses never reaches storage on deletecollection: etcd keeps every object (issue 14, item 1).
import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import { seededRandom } from '../helpers/seeded-random';

let ts: TestServer;
let etcd: Etcd3;
const NS = 'selector-refusal';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const NAMES = ['a1', 'a2', 'a3'];

beforeAll(async () => {
  ts = await startTestServer();
  etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, NS);
  for (const name of NAMES) {
    const obj = aDeployment(name);
    obj['metadata'].labels = { ...obj['metadata'].labels, env: name === 'a1' ? 'prod' : 'dev' };
    expect((await ts.api.post(DEPLOYMENTS, obj)).status).toBe(201);
  }
});
afterAll(async () => {
  etcd.close();
  await ts.stop();
});

async function storedKeys(): Promise<string[]> {
  return (await etcd.getAll().prefix(`/registry/apps/deployments/${NS}/`).keys()).sort();
}

const q = (param: string, value: string): string => `${param}=${encodeURIComponent(value)}`;
const names = (body: any): string[] => body.items.map((i: any) => i.metadata.name).sort();

describe('a field term with an empty field name', () => {
  it.each(['=', '==', '!=', '=,=', '=,metadata.name=a1', '=x'])(
    'fieldSelector %j: list and deletecollection answer 400, etcd unchanged',
    async (selector) => {
      const before = await storedKeys();
      expect(before).toHaveLength(NAMES.length);
      const list = await ts.api.get(`${DEPLOYMENTS}?${q('fieldSelector', selector)}`);
      expect(list.status).toBe(400);
      expect(list.body).toMatchObject({
        kind: 'Status',
        reason: 'BadRequest',
        code: 400,
        message: '"" is not a known field selector: only "metadata.name", "metadata.namespace"',
      });
      const del = await ts.api.delete(`${DEPLOYMENTS}?${q('fieldSelector', selector)}`);
      expect(del.status).toBe(400);
      expect(del.body).toMatchObject({ reason: 'BadRequest', message: list.body.message });
      expect(await storedKeys()).toEqual(before);
    },
  );

  it('the raw `fieldSelector==` query form is refused too', async () => {
    const res = await ts.api.delete(`${DEPLOYMENTS}?fieldSelector==`);
    expect(res.status).toBe(400);
    expect(await storedKeys()).toHaveLength(NAMES.length);
  });

  it('namespaces (own field list) answer field label not supported', async () => {
    const res = await ts.api.get(`/api/v1/namespaces?${q('fieldSelector', '=')}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('field label not supported: ');
  });
});

// Random selector strings from the characters that matter to both parsers: whatever the list answers,
// deletecollection answers the same, and when the list is refused nothing is deleted.
describe('property: deletecollection refuses every selector the list refuses', () => {
  const ALPHABET = [
    '=',
    '==',
    '!=',
    '!',
    ',',
    '\\',
    ' ',
    '(',
    ')',
    'in',
    'notin',
    'env',
    'metadata.name',
    'metadata.namespace',
    'a1',
    'prod',
    'x',
    '',
  ];
  const SEED = 14;
  const random = seededRandom(SEED);
  const pick = (): string => ALPHABET[Math.floor(random() * ALPHABET.length)] ?? '';
  const cases: Array<[string, string]> = [];
  for (let i = 0; i < 60; i++) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 6) }, pick);
    cases.push([random() < 0.5 ? 'fieldSelector' : 'labelSelector', parts.join('')]);
  }

  it.each(cases)(`seed ${SEED}: %s %j`, async (param, selector) => {
    const before = await storedKeys();
    const list = await ts.api.get(`${DEPLOYMENTS}?${q(param, selector)}`);
    if (list.status !== 200) {
      expect(list.status).toBe(400);
      const del = await ts.api.delete(`${DEPLOYMENTS}?${q(param, selector)}`);
      expect(del.status).toBe(list.status);
      expect(del.body.message).toBe(list.body.message);
      expect(await storedKeys()).toEqual(before);
    } else {
      // accepted: a dry-run deletecollection selects exactly what the list shows, and stores nothing
      const del = await ts.api.delete(`${DEPLOYMENTS}?${q(param, selector)}&dryRun=All`);
      expect(del.status).toBe(200);
      expect(names(del.body)).toEqual(names(list.body));
      expect(await storedKeys()).toEqual(before);
    }
  });
});

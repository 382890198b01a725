// The embedded JSON of FieldsV1/RawExtension fields: exactly JSON.stringify's bytes for any JSON data, with its
// length in front, whatever the size.
import { writeEmbeddedJson } from './embedded-json';
import { ReverseWriter } from './reverse-writer';
import { seededRandom as random } from '../../../../test/helpers/seeded-random';

/** What the server's field manager recorded for a Deployment created with a POST (managedFields[0].fieldsV1). */
const CREATED_DEPLOYMENT_FIELDS =
  '{"f:metadata":{"f:annotations":{".":{},"f:bench.orch.io/purpose":{}},"f:labels":{".":{},"f:app":{},"f:app.kubernetes.io/managed-by":{},"f:tier":{}}},"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{},"f:tier":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:env":{".":{},"k:{\\"name\\":\\"LOG_LEVEL\\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}';

/** The written field body split into its varint length and the bytes after it. */
function written(value: unknown): { length: number; text: string } {
  const w = new ReverseWriter(16);
  writeEmbeddedJson(w, value);
  const bytes = w.finish();
  let length = 0;
  let shift = 0;
  let at = 0;
  for (;;) {
    const byte = bytes[at++] as number;
    length += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) break;
  }
  return { length, text: bytes.subarray(at).toString('utf8') };
}

const KEYS = [
  '.',
  'f:metadata',
  'f:spec',
  'k:{"name":"web"}',
  'k:{"containerPort":80,"protocol":"TCP"}',
  'v:"a\\b"',
  'i:0',
  '0',
  '12',
  'ünï',
  'emoji 😀',
  'lone \ud800',
  'tab\tnew\nline',
  '\u0001ctl',
  '',
];
const SCALARS: unknown[] = [
  '',
  'text',
  'quote " and \\ slash',
  '\u2028\u2029',
  '\udfff',
  0,
  -0,
  1.5,
  1e21,
  -3,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  null,
  undefined,
];

function randomValue(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 5 || pick < 0.25) return SCALARS[Math.floor(next() * SCALARS.length)];
  if (pick < 0.35) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const obj: Record<string, unknown> = {};
  const members = Math.floor(next() * 6);
  for (let i = 0; i < members; i++)
    obj[KEYS[Math.floor(next() * KEYS.length)] as string] = randomValue(next, depth + 1);
  return obj;
}

describe('writeEmbeddedJson', () => {
  it("writes a Deployment's FieldsV1 as JSON.stringify does, parsed or built (keys with quotes, __proto__)", () => {
    const parsed: unknown = JSON.parse(CREATED_DEPLOYMENT_FIELDS);
    const odd: unknown = JSON.parse('{"__proto__":{"f:a":{}},"constructor":{".":{}},"10":{},"9":{}}');
    for (const value of [parsed, structuredClone(parsed), odd]) {
      const expected = JSON.stringify(value);
      expect(written(value)).toEqual({ length: Buffer.byteLength(expected), text: expected });
    }
  });

  it.each(Array.from({ length: 400 }, (_, seed) => [seed]))(
    'matches JSON.stringify for random JSON data (seed %i)',
    (seed) => {
      const value = { root: randomValue(random(seed), 0) };
      const expected = JSON.stringify(value);
      expect(written(value)).toEqual({ length: Buffer.byteLength(expected), text: expected });
    },
  );

  it('writes values that are not objects, and leaves out members JSON.stringify leaves out', () => {
    for (const value of ['a string', 42, [1, { a: 2 }], true]) expect(written(value).text).toBe(JSON.stringify(value));
    expect(written({ a: undefined, b: () => 1, c: Symbol('s'), d: 1 }).text).toBe('{"d":1}');
    expect(written({ when: new Date(0) }).text).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  });

  it('grows past its buffer, and stays correct for the next, smaller value', () => {
    const big: Record<string, unknown> = {};
    for (let i = 0; i < 40_000; i++) big[`f:field-${i}`] = { '.': {}, [`k:{"name":"n${i}"}`]: {} };
    const expected = JSON.stringify(big);
    expect(expected.length).toBeGreaterThan(1024 * 1024);
    expect(written(big)).toEqual({ length: Buffer.byteLength(expected), text: expected });
    expect(written({ small: {} }).text).toBe('{"small":{}}');
  });
});

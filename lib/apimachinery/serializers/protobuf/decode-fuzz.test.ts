// Fuzzing the protobuf body decoder: random and mutated bodies either decode or fail with a 400, never anything else.
import { isStatusError } from '../../errors';
import { decodeObject } from '../../../endpoints/decode-body';
import { defaultStrategy } from '../../../registry/rest/strategy';
import type { ResourceDefinition } from '../../../registry/rest/resource';
import { decodeProtobufBody, encodeProtobufResponse, PROTOBUF_PREFIX } from '.';
import { KUBECTL_CREATE_DEPLOYMENT_WEB, KUBECTL_CREATE_NAMESPACE_FOO } from './kubectl-bodies.fixture';
import { RICH_DEPLOYMENT, RICH_FLOW_SCHEMA, RICH_HPA, RICH_NAMESPACE } from './rich-objects.fixture';

const RUNS = 2000;
const DEPLOYMENTS: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  shortNames: [],
  categories: [],
  strategy: defaultStrategy,
};

/** A seeded xorshift32, so a failure reproduces. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0 || 1;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

const SEEDS: Buffer[] = [
  Buffer.from(KUBECTL_CREATE_NAMESPACE_FOO, 'hex'),
  Buffer.from(KUBECTL_CREATE_DEPLOYMENT_WEB, 'hex'),
  ...[RICH_DEPLOYMENT, RICH_HPA, RICH_FLOW_SCHEMA, RICH_NAMESPACE].map(
    (o) => encodeProtobufResponse(o) ?? Buffer.alloc(0),
  ),
];

function mutate(next: (below: number) => number, run: number): Buffer {
  const base = Buffer.from(SEEDS[run % SEEDS.length] as Buffer);
  const at = next(base.length);
  switch (next(7)) {
    case 0: // flip bytes
      for (let i = 0, n = 1 + next(4); i < n; i++) base[next(base.length)] = next(256);
      return base;
    case 1: // truncate
      return base.subarray(0, at);
    case 2: // insert random bytes
      return Buffer.concat([
        base.subarray(0, at),
        Buffer.from(Array.from({ length: 1 + next(16) }, () => next(256))),
        base.subarray(at),
      ]);
    case 3: // a huge varint where a length may be
      return Buffer.concat([base.subarray(0, at), Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]), base.subarray(at + 1)]);
    case 4: // random bytes after the prefix
      return Buffer.concat([PROTOBUF_PREFIX, Buffer.from(Array.from({ length: next(64) }, () => next(256)))]);
    case 5: // random bytes, no prefix
      return Buffer.from(Array.from({ length: next(64) }, () => next(256)));
    default: // duplicate a region
      return Buffer.concat([base.subarray(0, at), base.subarray(next(base.length)), base.subarray(at)]);
  }
}

function expectDecodedOr400(decode: () => unknown, body: Buffer): void {
  try {
    decode();
  } catch (err) {
    if (!isStatusError(err) || err.code !== 400)
      throw new Error(`body ${body.toString('hex')} failed with ${String(err)}`);
  }
}

describe('protobuf body decoding under fuzzing', () => {
  it(`decodes or answers 400 for ${RUNS} random and mutated bodies`, () => {
    const next = random(20261122);
    for (let run = 0; run < RUNS; run++) {
      const body = mutate(next, run);
      expectDecodedOr400(() => decodeProtobufBody(body), body);
      expectDecodedOr400(() => decodeObject(body, 'protobuf', DEPLOYMENTS, () => true), body);
    }
  });

  it('answers 400 to embedded envelopes nested deeper than the limit (instead of exhausting the stack)', () => {
    // managedFields[0].fieldsV1.Raw holding a whole Namespace envelope, holding another, …
    let body =
      encodeProtobufResponse({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'leaf' } }) ?? Buffer.alloc(0);
    const entry = (raw: Buffer): Buffer =>
      Buffer.concat([
        Buffer.from([0x3a]),
        varint(raw.length + 1 + varint(raw.length).length),
        Buffer.from([0x0a]),
        varint(raw.length),
        raw,
      ]);
    for (let depth = 0; depth < 100; depth++) {
      const fields = entry(body);
      const meta = Buffer.concat([Buffer.from([0x8a, 0x01]), varint(fields.length), fields]);
      const object = Buffer.concat([Buffer.from([0x0a]), varint(meta.length), meta]);
      body = Buffer.concat([
        PROTOBUF_PREFIX,
        Buffer.from('0a0f0a02763112094e616d657370616365', 'hex'),
        Buffer.from([0x12]),
        varint(object.length),
        object,
      ]);
    }
    expect(() => decodeProtobufBody(body)).toThrow(
      expect.objectContaining({ code: 400, message: 'embedded objects are nested more than 8 levels deep' }),
    );
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

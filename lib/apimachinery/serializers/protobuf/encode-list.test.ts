// Lists assembled from item messages and messages kept per object: byte for byte what encoding the whole body from
// the parsed objects writes, and kept bytes used only for objects declared unchanging.
import { decodeProtobufJson, decodeWatchFrames } from '../../../../test/helpers/protobuf-decoder';
import { allowMessageReuse, encodeProtobufList, encodeProtobufResponse, encodeWatchEventProtobuf } from '.';
import { RICH_DEPLOYMENT, RICH_DEPLOYMENT_LIST, RICH_HPA } from './rich-objects.fixture';

function encoded(value: unknown): Buffer {
  const body = encodeProtobufResponse(value);
  if (body === undefined) throw new Error('not encoded');
  return body;
}

/** A deep copy: a new object identity, with no kept bytes. */
const copyOf = <T>(value: T): T => structuredClone(value);

describe('encodeProtobufList', () => {
  const { kind, apiVersion, metadata, items } = RICH_DEPLOYMENT_LIST;
  const [first, second] = items as [object, object]; // the fixture has two items

  it.each([
    ['items, a continue token and remainingItemCount', metadata, items],
    ['no items', { resourceVersion: '7' }, []],
    [
      'items larger than a one-byte length',
      { resourceVersion: '8' },
      Array.from({ length: 300 }, (_, i) => ({ ...copyOf(first), metadata: { name: `web-${i}`, namespace: 'prod' } })),
    ],
  ])('writes the same bytes as encoding the whole list: %s', (_what, listMeta, listItems) => {
    const whole = encoded({ kind, apiVersion, metadata: listMeta, items: listItems });
    expect(encodeProtobufList(apiVersion, kind, listMeta, listItems).equals(whole)).toBe(true);
  });

  it("ignores the items' apiVersion and kind (list items carry no TypeMeta)", () => {
    const withTypeMeta = items.map((item) => ({ kind: 'Deployment', apiVersion: 'apps/v1', ...item }));
    expect(encodeProtobufList(apiVersion, kind, metadata, withTypeMeta).equals(encoded(RICH_DEPLOYMENT_LIST))).toBe(
      true,
    );
  });

  it('decodes to the list with an independent decoder, kept and fresh items mixed', () => {
    const kept = copyOf(first);
    allowMessageReuse(kept);
    expect(decodeProtobufJson(encodeProtobufList(apiVersion, kind, metadata, [kept, copyOf(second)]))).toEqual(
      RICH_DEPLOYMENT_LIST,
    );
  });
});

describe('message bytes kept per object', () => {
  it('encodes an object declared unchanging once: later encodes serve the first bytes', () => {
    const obj = copyOf(RICH_DEPLOYMENT);
    allowMessageReuse(obj);
    const first = encoded(obj);
    expect(first.equals(encoded(copyOf(RICH_DEPLOYMENT)))).toBe(true);
    obj.spec.replicas = 99; // breaks the declared contract, which shows the kept bytes are what is served
    expect(encoded(obj).equals(first)).toBe(true);
    const [event] = decodeWatchFrames(encodeWatchEventProtobuf('MODIFIED', obj, obj.apiVersion, obj.kind));
    expect(event?.object).toEqual(RICH_DEPLOYMENT);
  });

  it('encodes every other object from its current content', () => {
    const obj = copyOf(RICH_DEPLOYMENT);
    encoded(obj);
    obj.spec.replicas = 99;
    expect(decodeProtobufJson(encoded(obj))).toMatchObject({ spec: { replicas: 99 } });
  });

  it('keeps the bytes of the message asked for: a list item and the object itself share them', () => {
    const obj = copyOf(RICH_DEPLOYMENT);
    allowMessageReuse(obj);
    const list = encodeProtobufList('apps/v1', 'DeploymentList', { resourceVersion: '1' }, [obj]);
    obj.spec.replicas = 99;
    expect(decodeProtobufJson(list)).toMatchObject({ items: [{ spec: { replicas: RICH_DEPLOYMENT.spec.replicas } }] });
    expect(decodeProtobufJson(encoded(obj))).toMatchObject({ spec: { replicas: RICH_DEPLOYMENT.spec.replicas } });
  });

  it('does not serve bytes kept for another message (the same object listed in another version)', () => {
    const hpa = copyOf(RICH_HPA);
    allowMessageReuse(hpa);
    const asV2 = encodeProtobufList('autoscaling/v2', 'HorizontalPodAutoscalerList', {}, [hpa]);
    const asV1 = encodeProtobufList('autoscaling/v1', 'HorizontalPodAutoscalerList', {}, [hpa]);
    expect(asV1.equals(asV2)).toBe(false);
    expect(
      asV1.equals(encodeProtobufList('autoscaling/v1', 'HorizontalPodAutoscalerList', {}, [copyOf(RICH_HPA)])),
    ).toBe(true);
  });
});

// Settling writes whose answer was lost, against real etcd: the write is made (or not) directly, then settled by
// reading back, as the store does when the connection drops or etcd times out.
import { useTestEtcd } from '../../../test/helpers/etcd';
import { settleCreate, settleSwap } from './write-outcome';

const shared = useTestEtcd();
let counter = 0;
const newKey = (): Buffer => Buffer.from(`/test/settle/${process.pid}-${++counter}`);
const object = (uid: string, value: number): Buffer =>
  Buffer.from(JSON.stringify({ metadata: { name: 'x', uid }, spec: { value } }));

async function put(key: Buffer, value: Buffer): Promise<string> {
  return (await shared.client().kv.put({ key, value })).header.revision;
}

describe('settling a create', () => {
  it('is applied when the key holds the uid written, at its create revision, even after later changes', async () => {
    const key = newKey();
    const created = await put(key, object('ours', 1));
    await put(key, object('ours', 2));
    expect(await settleCreate(shared.client(), key, 'ours')).toEqual({ applied: true, revision: created });
  });

  it('is not applied when another object holds the key, and unknown while the key is empty', async () => {
    const key = newKey();
    expect(await settleCreate(shared.client(), key, 'ours')).toBeUndefined();
    await put(key, object('theirs', 1));
    expect(await settleCreate(shared.client(), key, 'ours')).toEqual({ applied: false });
  });
});

describe('settling a compare-and-swap', () => {
  it('is unknown while the key keeps the compared revision (the swap may still be committed)', async () => {
    const key = newKey();
    const rev = await put(key, object('u', 1));
    expect(await settleSwap(shared.client(), key, rev, object('u', 2))).toBeUndefined();
    expect(await settleSwap(shared.client(), key, rev, null)).toBeUndefined();
  });

  it('is applied when the first change after the compared revision wrote our bytes, even with changes after it', async () => {
    const key = newKey();
    const rev = await put(key, object('u', 1));
    const ours = await put(key, object('u', 2));
    expect(await settleSwap(shared.client(), key, rev, object('u', 2))).toEqual({ applied: true, revision: ours });
    await put(key, object('u', 3));
    await put(key, object('u', 4));
    expect(await settleSwap(shared.client(), key, rev, object('u', 2))).toEqual({ applied: true, revision: ours });
  });

  it('is not applied (and never can be) when another write came first', async () => {
    const key = newKey();
    const rev = await put(key, object('u', 1));
    await put(key, object('u', 5));
    await put(key, object('u', 2));
    expect(await settleSwap(shared.client(), key, rev, object('u', 2))).toEqual({ applied: false });
    expect(await settleSwap(shared.client(), key, rev, null)).toEqual({ applied: false });
  });

  it('a delete is applied when the key is gone; an update over a deleted and re-created key is unknown', async () => {
    const key = newKey();
    const rev = await put(key, object('u', 1));
    await shared.client().kv.deleteRange({ key });
    expect(await settleSwap(shared.client(), key, rev, null)).toMatchObject({ applied: true });
    expect(await settleSwap(shared.client(), key, rev, object('u', 2))).toBeUndefined();
    await put(key, object('v', 2));
    expect(await settleSwap(shared.client(), key, rev, object('v', 2))).toBeUndefined();
  });
});

// The verb expectations every served resource must meet, run against each one (test/integration/crud.test.ts).
import type { ApiClient } from './test-server';

export interface ResourceUnderTest {
  /** `deployments.apps`, `namespaces` … as error messages print it. */
  qualified: string;
  collection: string;
  item(name: string): string;
  make(name: string): Record<string, any>;
  /** A spec change that passes validation. */
  changeSpec(obj: Record<string, any>): void;
  /** A status the status subresource accepts. */
  status: Record<string, unknown>;
  /** Whether metadata.generation is maintained (not for HPA and Namespace in 1.26). */
  tracksGeneration: boolean;
  /** Delete answers with the object (namespaces) instead of a Status. */
  deleteReturnsObject: boolean;
  /** A controller writes status right after create (FlowSchema's Dangling condition), so reads may be newer. */
  statusWrittenByController?: boolean;
}

/** What a read right after create must equal: everything, or all but status and resourceVersion when a controller may have written. */
function comparable(r: ResourceUnderTest, obj: any): unknown {
  if (!r.statusWrittenByController) return obj;
  const { status: _status, ...rest } = obj;
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...rest, metadata };
}

/** The object once a status-writing controller is done with it (it writes once for a new object). */
async function settled(r: ResourceUnderTest, api: ApiClient, created: any): Promise<any> {
  if (!r.statusWrittenByController) return created;
  const deadline = Date.now() + 5000;
  for (;;) {
    const current = (await api.get(r.item(created.metadata.name))).body;
    if ((current.status?.conditions ?? []).length > 0 || Date.now() > deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function describeResourceVerbs(name: string, api: () => ApiClient, resource: () => ResourceUnderTest): void {
  describe(`${name}: generic verbs`, () => {
    let r: ResourceUnderTest;
    beforeAll(() => {
      r = resource();
    });

    it('creates with server-set metadata and reads it back', async () => {
      const created = await api().post(r.collection, r.make('alpha'));
      expect(created.status).toBe(201);
      const meta = created.body.metadata;
      expect(meta.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(meta.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Number(meta.resourceVersion)).toBeGreaterThan(0);
      if (r.tracksGeneration) expect(meta.generation).toBe(1);
      const read = await api().get(r.item('alpha'));
      expect(read.status).toBe(200);
      expect(comparable(r, read.body)).toEqual(comparable(r, created.body));
    });

    it('refuses a second create of the same name with 409 AlreadyExists', async () => {
      await api().post(r.collection, r.make('dup'));
      const again = await api().post(r.collection, r.make('dup'));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'AlreadyExists',
        code: 409,
        message: `${r.qualified} "dup" already exists`,
      });
    });

    it('generates a name from generateName', async () => {
      const obj = r.make('');
      delete obj['metadata'].name;
      obj['metadata'].generateName = 'gen-';
      const created = await api().post(r.collection, obj);
      expect(created.status).toBe(201);
      expect(created.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    });

    it('lists what it created with the list kind and a resourceVersion', async () => {
      await api().post(r.collection, r.make('listed'));
      const list = await api().get(r.collection);
      expect(list.status).toBe(200);
      expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThan(0);
      expect(list.body.items.map((i: any) => i.metadata.name)).toContain('listed');
    });

    it('updates with the current resourceVersion and refuses a stale one with 409 Conflict', async () => {
      const first = await settled(r, api(), (await api().post(r.collection, r.make('upd'))).body);
      const changed = structuredClone(first);
      r.changeSpec(changed);
      const updated = await api().put(r.item('upd'), changed);
      expect(updated.status).toBe(200);
      expect(Number(updated.body.metadata.resourceVersion)).toBeGreaterThan(Number(first.metadata.resourceVersion));
      if (r.tracksGeneration) expect(updated.body.metadata.generation).toBe(2);
      const stale = await api().put(r.item('upd'), changed);
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on ${r.qualified} "upd": the object has been modified; please apply your changes to the latest version and try again`,
      });
    });

    it('answers 404 for a PUT to a missing object', async () => {
      const res = await api().put(r.item('ghost'), r.make('ghost'));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ reason: 'NotFound', message: `${r.qualified} "ghost" not found` });
    });

    it('keeps status out of main writes and spec out of status writes', async () => {
      const created = (await api().post(r.collection, { ...r.make('stat'), status: r.status })).body;
      expect(created.status ?? {}).not.toMatchObject(r.status);
      const withStatus = { ...structuredClone(created), status: r.status };
      r.changeSpec(withStatus);
      // Unconditional: controllers (FlowSchema's Dangling condition) may write status right after create.
      delete withStatus.metadata.resourceVersion;
      const statusWrite = await api().put(`${r.item('stat')}/status`, withStatus);
      expect(statusWrite.status).toBe(200);
      expect(statusWrite.body.status).toMatchObject(r.status);
      expect(statusWrite.body.spec).toEqual(created.spec);
      if (r.tracksGeneration) expect(statusWrite.body.metadata.generation).toBe(1);
      const statusRead = await api().get(`${r.item('stat')}/status`);
      expect(statusRead.body.status).toMatchObject(r.status);
    });

    it('does not persist a dry-run create', async () => {
      const res = await api().post(`${r.collection}?dryRun=All`, r.make('dry'));
      expect(res.status).toBe(201);
      expect((await api().get(r.item('dry'))).status).toBe(404);
    });

    it('deletes and then answers 404 NotFound', async () => {
      const created = (await api().post(r.collection, r.make('gone'))).body;
      const del = await api().delete(r.item('gone'));
      expect(del.status).toBe(200);
      if (!r.deleteReturnsObject) {
        expect(del.body).toMatchObject({
          kind: 'Status',
          status: 'Success',
          details: { name: 'gone', uid: created.metadata.uid },
        });
        const read = await api().get(r.item('gone'));
        expect(read.status).toBe(404);
        expect(read.body).toMatchObject({
          kind: 'Status',
          reason: 'NotFound',
          code: 404,
          message: `${r.qualified} "gone" not found`,
        });
      }
    });
  });
}

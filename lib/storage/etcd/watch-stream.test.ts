import { EventEmitter } from 'node:events';
import { Watcher, type IWatchResponse } from 'etcd3';
import { cheapResumeRevision, resumeNotingOnly } from './watch-stream';

interface Updating {
  request: { start_revision: unknown };
  updateRevision(res: object): void;
  lastRevision(): number | null;
}

/** A Watcher not attached to any client (etcd3's constructor would open a watch stream). */
function detachedWatcher(): Updating {
  const watcher = Object.create(Watcher.prototype) as Updating;
  watcher.request = { start_revision: 1 };
  return watcher;
}

describe('cheapResumeRevision', () => {
  it.each(['7', '999999999999999', '9007199254740993', '9223372036854775806'])(
    'resumes after header revision %s as etcd3 would',
    (revision) => {
      const res = { header: { revision }, events: [] };
      const plain = detachedWatcher();
      const cheap = detachedWatcher();
      cheapResumeRevision(cheap as unknown as Watcher);
      plain.updateRevision(res);
      cheap.updateRevision(res);
      expect(Object.prototype.hasOwnProperty.call(cheap, 'updateRevision')).toBe(true);
      expect(cheap.lastRevision()).toBe(String(BigInt(revision) + 1n));
      expect(cheap.lastRevision()).toBe(plain.lastRevision());
    },
  );
});

describe('resumeNotingOnly', () => {
  const res = { header: { revision: '41' }, events: [] } as unknown as IWatchResponse;

  /** A detached watcher of a client whose namespace prefix is `prefix`, with etcd3's own 'data' listener on. */
  function watcherIn(prefix: string): Updating & EventEmitter {
    const watcher = Object.assign(detachedWatcher(), new EventEmitter(), {
      namespace: { prefix: Buffer.from(prefix) },
    });
    Object.setPrototypeOf(watcher, Watcher.prototype);
    watcher.on('data', () => undefined);
    return watcher as Updating & EventEmitter;
  }

  it("takes etcd3's listener off a root client's watcher and notes the resume revision in its place", () => {
    const watcher = watcherIn('');
    const note = resumeNotingOnly(watcher as unknown as Watcher);
    expect(watcher.listenerCount('data')).toBe(0);
    note(res);
    expect(watcher.lastRevision()).toBe('42');
  });

  it("leaves etcd3's listener of a namespaced client's watcher alone", () => {
    const watcher = watcherIn('/ns/');
    const note = resumeNotingOnly(watcher as unknown as Watcher);
    expect(watcher.listenerCount('data')).toBe(1);
    note(res);
    expect(watcher.lastRevision()).toBe(1);
  });
});

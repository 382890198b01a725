import { Watcher } from 'etcd3';
import { cheapResumeRevision } from './watch-stream';

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

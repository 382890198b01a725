// The field manager's output, byte for byte: creates, updates and applies over the corpus and seeded variations give
// the entries the build before the create fast paths gave (9001918), with the refused applies' texts of session 21
// (core kinds print `/v1, Kind=`, a live object apply cannot type is a 400 `failed to create typed live object` instead
// of an uncaught error). A change to what is recorded must update the digest knowingly (and say why in its commit).
import { managedFieldsDigest, managedFieldsRecords } from './golden.fixture';

const DIGEST = '5cdcbf41f2471518c850b2e441b630dabe6e2ab17126de238d05ddcc01086102';

describe('managedFields written for creates, updates and applies', () => {
  it('cover tracked objects, untracked ones and refused applies', () => {
    const records = managedFieldsRecords();
    expect(records.length).toBe(1965);
    expect(records.filter((r) => r.startsWith('[{')).length).toBeGreaterThan(600);
    expect(records.filter((r) => r.startsWith('throws')).length).toBeGreaterThan(100);
  });

  it('are byte-identical to those of the build before the fast paths', () => {
    expect(managedFieldsDigest()).toBe(DIGEST);
  });

  it('are the same again when every shape was created before (comparisons kept by shape)', () => {
    managedFieldsDigest();
    expect(managedFieldsDigest()).toBe(DIGEST);
  });
});

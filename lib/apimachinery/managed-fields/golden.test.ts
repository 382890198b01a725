// The field manager's output, byte for byte: creates, updates and applies over the corpus and seeded variations give
// the entries the build before the create fast paths gave (9001918). A change to what is recorded must update the
// digest knowingly (and say why in its commit).
import { managedFieldsDigest, managedFieldsRecords } from './golden.fixture';

const DIGEST_AT_9001918 = 'cc9937fc6623c8fe15197af081be934a5a4a1fc325485d25df0322c3f2183811';

describe('managedFields written for creates, updates and applies', () => {
  it('cover tracked objects, untracked ones and refused applies', () => {
    const records = managedFieldsRecords();
    expect(records.length).toBe(1965);
    expect(records.filter((r) => r.startsWith('[{')).length).toBeGreaterThan(600);
    expect(records.filter((r) => r.startsWith('throws')).length).toBeGreaterThan(100);
  });

  it('are byte-identical to those of the build before the fast paths', () => {
    expect(managedFieldsDigest()).toBe(DIGEST_AT_9001918);
  });

  it('are the same again when every shape was created before (comparisons kept by shape)', () => {
    managedFieldsDigest();
    expect(managedFieldsDigest()).toBe(DIGEST_AT_9001918);
  });
});

// Start-up errors for the service account key flags, with kube-apiserver 1.26's texts.
import { TestPki } from '../../../test/helpers/pki';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceAccountTokens } from './service-account-tokens';

const pki = new TestPki();
afterAll(() => pki.remove());

const tokens = (signingKeyFile: string, keyFiles: string[] = []): ServiceAccountTokens =>
  new ServiceAccountTokens({ issuers: ['https://issuer'], signingKeyFile, keyFiles, apiAudiences: [] });

describe('service account key files', () => {
  it('a signing key file without a private key is Complete\'s "failed to parse service-account-issuer-key-file"', () => {
    expect(() => tokens(pki.serving.cert)).toThrow(
      new Error(
        `failed to parse service-account-issuer-key-file: error reading private key file ${pki.serving.cert}: data does not contain a valid RSA or ECDSA private key`,
      ),
    );
  });

  it("a verifying key file without keys is keyutil.PublicKeysFromFile's text; a certificate's key is accepted", () => {
    const garbage = join(pki.dir, 'not-a-key.pem');
    writeFileSync(garbage, 'not a key\n');
    expect(() => tokens(pki.serving.key, [garbage])).toThrow(
      new Error(`error reading public key file ${garbage}: data does not contain any valid RSA or ECDSA public keys`),
    );
    expect(() => tokens(pki.serving.key, [pki.serving.cert])).not.toThrow();
  });

  it("a missing file names the flag and the path, with Go's text", () => {
    expect(() => tokens(join(pki.dir, 'absent.key'))).toThrow(
      `failed to read --service-account-signing-key-file "${join(pki.dir, 'absent.key')}": open ${join(pki.dir, 'absent.key')}: no such file or directory`,
    );
  });
});

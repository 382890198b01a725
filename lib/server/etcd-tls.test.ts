import { TestPki } from '../../test/helpers/pki';
import { readEtcdTlsFiles } from './etcd-tls';

const pki = new TestPki();
afterAll(() => pki.remove());

describe('readEtcdTlsFiles', () => {
  it("refuses a client certificate and key that are not a pair with Go's tls.X509KeyPair text, as etcd's client does", () => {
    const other = pki.client('etcd-other', 'other');
    expect(() => readEtcdTlsFiles({ caFile: pki.ca.cert, certFile: pki.serving.cert, keyFile: other.key })).toThrow(
      new Error('tls: private key does not match public key'),
    );
    expect(() => readEtcdTlsFiles({ caFile: '', certFile: pki.serving.key, keyFile: pki.serving.key })).toThrow(
      new Error(
        'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
      ),
    );
  });

  it('reads a matching pair and the CA', () => {
    const credentials = readEtcdTlsFiles({ caFile: pki.ca.cert, certFile: pki.serving.cert, keyFile: pki.serving.key });
    expect(credentials.rootCertificate?.length).toBeGreaterThan(0);
    expect(credentials.certChain?.length).toBeGreaterThan(0);
  });
});

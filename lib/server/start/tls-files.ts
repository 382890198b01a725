// The serving certificate, its key and the client CA bundle, checked when read as kube-apiserver checks them before
// it starts anything (dynamiccertificates: loadCertKeyPair with Go's tls.X509KeyPair, newCABundleAndVerifier with
// client-go's cert.ParseCertsPEM), with their texts, so a bad file stops start-up before etcd is touched.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';

interface PemBlock {
  type: string;
  /** Whether the block has `Name: value` headers (cert.ParseCertsPEM skips such CERTIFICATE blocks). */
  headers: boolean;
  der: Buffer;
}

/** encoding/pem's blocks in order (text around and between them ignored, as pem.Decode skips it). */
export function pemBlocks(data: Buffer): PemBlock[] {
  const blocks: PemBlock[] = [];
  const re = /-----BEGIN ([^\r\n-]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  const text = data.toString('latin1');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[2] ?? '';
    const headerEnd = body.search(/\r?\n\r?\n/);
    const headers = headerEnd >= 0 && body.slice(0, headerEnd).includes(':');
    const base64 = headers ? body.slice(headerEnd) : body;
    blocks.push({ type: m[1] ?? '', headers, der: Buffer.from(base64.replace(/\s+/g, ''), 'base64') });
  }
  return blocks;
}

const list = (types: string[]): string => `[${types.join(' ')}]`;

/** Go's tls.X509KeyPair checks and texts; throws an Error whose message is Go's. */
export function checkServingKeyPair(cert: Buffer, key: Buffer): void {
  const certBlocks = pemBlocks(cert);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) throw new Error('tls: failed to find any PEM data in certificate input');
    if (skipped.length === 1 && skipped[0]?.endsWith('PRIVATE KEY'))
      throw new Error(
        'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
      );
    throw new Error(
      `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${list(skipped)}`,
    );
  }
  const skippedKeys: string[] = [];
  let keyBlock: PemBlock | undefined;
  for (const block of pemBlocks(key)) {
    if (block.type === 'PRIVATE KEY' || block.type.endsWith(' PRIVATE KEY')) {
      keyBlock = block;
      break;
    }
    skippedKeys.push(block.type);
  }
  if (!keyBlock) {
    if (skippedKeys.length === 0) throw new Error('tls: failed to find any PEM data in key input');
    if (skippedKeys.length === 1 && skippedKeys[0] === 'CERTIFICATE')
      throw new Error('tls: found a certificate rather than a key in the PEM for the private key');
    throw new Error(
      `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${list(skippedKeys)}`,
    );
  }
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(certs[0]?.der ?? Buffer.alloc(0));
  } catch {
    throw new Error('x509: malformed certificate');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: keyBlock.der, format: 'der', type: derKeyType(keyBlock.type) });
  } catch {
    throw new Error('tls: failed to parse private key');
  }
  if (leaf.publicKey.asymmetricKeyType !== privateKey.asymmetricKeyType)
    throw new Error('tls: private key type does not match public key type');
  if (!leaf.checkPrivateKey(privateKey)) throw new Error('tls: private key does not match public key');
}

function derKeyType(pemType: string): 'pkcs1' | 'pkcs8' | 'sec1' {
  if (pemType === 'RSA PRIVATE KEY') return 'pkcs1';
  if (pemType === 'EC PRIVATE KEY') return 'sec1';
  return 'pkcs8';
}

/**
 * A client CA bundle as kube-apiserver loads `--client-ca-file`: empty is `missing content for CA bundle`, no
 * parseable CERTIFICATE block is client-go's `data does not contain any valid RSA or ECDSA certificates`.
 */
export function checkClientCABundle(bundle: Buffer, file: string): void {
  const name = `client-ca-bundle::${file}`;
  if (bundle.length === 0) throw new Error(`missing content for CA bundle "${name}"`);
  const certs = pemBlocks(bundle).filter((b) => b.type === 'CERTIFICATE' && !b.headers);
  for (const block of certs) {
    try {
      new X509Certificate(block.der);
    } catch {
      throw new Error(`error loading CA bundle for "${name}": x509: malformed certificate`);
    }
  }
  if (certs.length === 0)
    throw new Error(`error loading CA bundle for "${name}": data does not contain any valid RSA or ECDSA certificates`);
}

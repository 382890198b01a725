// Test certificates made with openssl: a CA, a serving certificate for 127.0.0.1 and client certificates (CN = user, O = groups).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertFiles {
  cert: string;
  key: string;
}

export class TestPki {
  readonly dir = mkdtempSync(join(tmpdir(), 'orch-pki-'));
  readonly ca: CertFiles;
  readonly serving: CertFiles;

  constructor(caName = 'orch-test-ca') {
    this.ca = { cert: join(this.dir, `${caName}.crt`), key: join(this.dir, `${caName}.key`) };
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      this.ca.key,
      '-out',
      this.ca.cert,
      '-days',
      '1',
      '-subj',
      `/CN=${caName}`,
    ]);
    this.serving = this.issue('serving', '/CN=127.0.0.1', [
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      'extendedKeyUsage=serverAuth',
    ]);
  }

  /** A client certificate for `user` in `groups`, signed by this CA (extendedKeyUsage clientAuth unless told otherwise). */
  client(name: string, user: string, groups: readonly string[] = [], extKeyUsage = 'clientAuth'): CertFiles {
    const subject = `/CN=${user}${groups.map((g) => `/O=${g}`).join('')}`;
    return this.issue(name, subject, [`extendedKeyUsage=${extKeyUsage}`]);
  }

  #serial = 1;

  issue(name: string, subject: string, extensions: readonly string[]): CertFiles {
    const files = { cert: join(this.dir, `${name}.crt`), key: join(this.dir, `${name}.key`) };
    const csr = join(this.dir, `${name}.csr`);
    const ext = join(this.dir, `${name}.ext`);
    writeFileSync(ext, extensions.join('\n') + '\n');
    openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', files.key, '-out', csr, '-subj', subject]);
    openssl([
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      this.ca.cert,
      '-CAkey',
      this.ca.key,
      '-set_serial',
      String(this.#serial++),
      '-out',
      files.cert,
      '-days',
      '1',
      '-extfile',
      ext,
    ]);
    return files;
  }

  read(files: CertFiles): { cert: Buffer; key: Buffer } {
    return { cert: readFileSync(files.cert), key: readFileSync(files.key) };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

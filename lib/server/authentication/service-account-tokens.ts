// Service account tokens (pkg/serviceaccount): JWTs signed with --service-account-signing-key-file (via jose),
// verified on every request against the verification keys, issuers and API audiences, and valid only while the
// service account they name still exists with the same uid.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT, compactVerify, decodeJwt } from 'jose';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { UserInfo } from '../../apimachinery/user';
import type { ServiceAccountOptions } from '../options/service-accounts';
import { goPathError } from '../go-path-error';
import type { AudienceTokenAuthenticator, AudienceTokenResult, TokenAuthenticator } from './authenticator';
import { intersectAudiences } from './audiences';
import { goQuote } from '../../apimachinery/field/errors';
import { serviceAccountUsername } from '../authorization/rbac/rules';

export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** go-jose v2's ErrCryptoFailure: what a signature no verification key accepts reads as. */
const CRYPTO_FAILURE = 'square/go-jose: error in cryptographic primitive';
/** go-jose's DefaultLeeway, which claims.go's time checks allow. */
const LEEWAY_SECONDS = 60;

type ServiceAccountLookup = (namespace: string, name: string) => ApiObject | undefined;

function audiencesOf(aud: unknown): string[] {
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return typeof aud === 'string' ? [aud] : [];
}

/** Go's %q of a []string: `["a" "b"]`. */
function goQuoteList(values: readonly string[]): string {
  return `[${values.map((v) => goQuote(v)).join(' ')}]`;
}

/** go-jose's Claims.Validate with the default leeway (nbf, then exp, then iat), worded as claims.go words each. */
function validateTimes(payload: Record<string, unknown>, nowMs: number): void {
  const now = nowMs / 1000;
  const nbf = payload['nbf'];
  if (typeof nbf === 'number' && now + LEEWAY_SECONDS < nbf) throw new Error('service account token is not valid yet');
  const exp = payload['exp'];
  if (typeof exp === 'number' && now - LEEWAY_SECONDS > exp) throw new Error('service account token has expired');
  const iat = payload['iat'];
  if (typeof iat === 'number' && now + LEEWAY_SECONDS < iat)
    throw new Error('service account token is issued in the future');
}

interface Key {
  key: KeyObject;
  alg: string;
  kid: string;
}

/** RS256 for RSA keys, ES256/384/512 by curve, as Kubernetes' signer picks. */
function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
  }
  throw new Error(`unsupported service account key type ${key.asymmetricKeyType ?? 'unknown'}`);
}

/** keyIDFromPublicKey: base64url (no padding) of the SHA-256 of the DER public key. */
function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

function readPem(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read ${flag} "${path}": ${goPathError(err)}`);
  }
}

/**
 * A key parsed from a file already read: OpenSSL's decoder errors become 1.26's texts (cmd/kube-apiserver Complete
 * around keyutil.PrivateKeyFromFile for the signing key, keyutil.PublicKeysFromFile for the verifying keys); read errors pass through.
 */
function parsedKey(parse: () => KeyObject, invalid: string): KeyObject {
  try {
    return parse();
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('failed to read ')) throw err;
    throw new Error(invalid);
  }
}

export interface ServiceAccountRef {
  namespace: string;
  name: string;
  uid: string;
}

export class ServiceAccountTokens {
  readonly #signing: Key;
  readonly #verifying: Key[];
  readonly issuers: readonly string[];
  readonly apiAudiences: readonly string[];

  /** Reads the key files (start-up errors name the flag and file). */
  constructor(options: ServiceAccountOptions) {
    const privateKey = parsedKey(
      () => createPrivateKey(readPem(options.signingKeyFile, '--service-account-signing-key-file')),
      `failed to parse service-account-issuer-key-file: error reading private key file ${options.signingKeyFile}: data does not contain a valid RSA or ECDSA private key`,
    );
    const signingPublic = createPublicKey(privateKey);
    this.#signing = { key: privateKey, alg: algorithmOf(privateKey), kid: keyId(signingPublic) };
    const publicKeys =
      options.keyFiles.length > 0
        ? options.keyFiles.map((f) =>
            parsedKey(
              () => createPublicKey(readPem(f, '--service-account-key-file')),
              `error reading public key file ${f}: data does not contain any valid RSA or ECDSA public keys`,
            ),
          )
        : [signingPublic];
    this.#verifying = publicKeys.map((key) => ({ key, alg: algorithmOf(key), kid: keyId(key) }));
    this.issuers = options.issuers;
    this.apiAudiences = options.apiAudiences;
  }

  /** A token for `sa`, meant for `audiences`, valid `expirationSeconds` from now. */
  async issue(
    sa: ServiceAccountRef,
    audiences: readonly string[],
    expirationSeconds: number,
    now = new Date(),
  ): Promise<{ token: string; expires: Date }> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + expirationSeconds;
    const token = await new SignJWT({
      'kubernetes.io': { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } },
    })
      .setProtectedHeader({ alg: this.#signing.alg, kid: this.#signing.kid })
      .setIssuer(this.issuers[0] ?? '')
      .setSubject(serviceAccountUsername(sa.namespace, sa.name))
      .setAudience([...audiences])
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(exp)
      .sign(this.#signing.key);
    return { token, expires: new Date(exp * 1000) };
  }

  /**
   * The token authenticator of requests: undefined for tokens that are not ours (not a JWT, another issuer); a
   * rejection for ours that fail (signature, audience, times, a deleted or replaced service account).
   */
  authenticator(lookup: ServiceAccountLookup): TokenAuthenticator {
    return async (token) => (await this.#authenticate(token, lookup, undefined))?.user;
  }

  /** The same for TokenReview: checked against `requested` audiences (absent: the API audiences), answering those matched. */
  reviewAuthenticator(lookup: ServiceAccountLookup): AudienceTokenAuthenticator {
    return (token, requested) => this.#authenticate(token, lookup, requested);
  }

  /** pkg/serviceaccount jwt.go AuthenticateToken then claims.go Validate, in their order and with their texts. */
  async #authenticate(
    token: string,
    lookup: ServiceAccountLookup,
    requested: readonly string[] | undefined,
  ): Promise<AudienceTokenResult | undefined> {
    const claims = this.#ourClaims(token);
    if (!claims) return undefined;
    let payload: Record<string, unknown> | undefined;
    for (const key of this.#verifying) {
      try {
        const verified = await compactVerify(token, key.key, { algorithms: [key.alg] });
        payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
        break;
      } catch {
        // the next key may have signed it
      }
    }
    if (!payload) throw new Error(CRYPTO_FAILURE);
    if (typeof payload['iss'] !== 'string' || !this.issuers.includes(payload['iss']))
      throw new Error(`token issuer ${goQuote(String(payload['iss'] ?? ''))} is invalid`);
    const claimed = audiencesOf(payload['aud']);
    const implicit = this.apiAudiences;
    const tokenAudiences = claimed.length > 0 ? claimed : implicit;
    const wanted = requested ?? implicit;
    const audiences = intersectAudiences(tokenAudiences, wanted);
    if (audiences.length === 0 && implicit.length > 0)
      throw new Error(
        `token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(wanted)}`,
      );
    validateTimes(payload, Date.now());
    const k8s = payload['kubernetes.io'] as
      { namespace?: string; serviceaccount?: { name?: string; uid?: string } } | undefined;
    const namespace = k8s?.namespace ?? '';
    const name = k8s?.serviceaccount?.name ?? '';
    const uid = k8s?.serviceaccount?.uid ?? '';
    const sa = lookup(namespace, name);
    if (!sa) throw new Error(`serviceaccounts ${goQuote(name)} not found`);
    if (sa.metadata.deletionTimestamp) throw new Error(`service account ${namespace}/${name} has been deleted`);
    if (sa.metadata.uid !== uid)
      throw new Error(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${uid})`);
    return { user: serviceAccountUser(namespace, name, uid), audiences };
  }

  /** The unverified claims of a JWT one of our issuers wrote; undefined for anything else. */
  #ourClaims(token: string): Record<string, unknown> | undefined {
    if (token.split('.').length !== 3) return undefined;
    try {
      const claims = decodeJwt(token);
      return typeof claims.iss === 'string' && this.issuers.includes(claims.iss) ? claims : undefined;
    } catch {
      return undefined;
    }
  }
}

export function serviceAccountUser(namespace: string, name: string, uid: string): UserInfo {
  return {
    name: serviceAccountUsername(namespace, name),
    uid,
    groups: [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`],
  };
}

// The tag of a container image reference, as the kubelet's parsers.ParseImageName reads it (docker/distribution grammar).

const ALPHA_NUMERIC = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]*)';
const NAME_COMPONENT = `${ALPHA_NUMERIC}(?:${SEPARATOR}${ALPHA_NUMERIC})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN}/)?${NAME_COMPONENT}(?:/${NAME_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const IDENTIFIER_RE = /^[a-f0-9]{64}$/;

const NAME_TOTAL_LENGTH_MAX = 255;
const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO = 'library';
const DIGEST_HEX_LENGTH = new Map([
  ['sha256', 64],
  ['sha384', 96],
  ['sha512', 128],
]);

/** DefaultImageTag: what an image without tag or digest means. */
export const DEFAULT_IMAGE_TAG = 'latest';

/** splitDockerDomain: a first component is a registry only if it has `.` or `:` or is `localhost`. */
function splitDockerDomain(name: string): [string, string] {
  const i = name.indexOf('/');
  let domain: string;
  let remainder: string;
  if (i === -1 || (!/[.:]/.test(name.slice(0, i)) && name.slice(0, i) !== 'localhost')) {
    domain = DEFAULT_DOMAIN;
    remainder = name;
  } else {
    domain = name.slice(0, i);
    remainder = name.slice(i + 1);
  }
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN;
  if (domain === DEFAULT_DOMAIN && !remainder.includes('/')) remainder = `${OFFICIAL_REPO}/${remainder}`;
  return [domain, remainder];
}

function isValidDigest(digest: string): boolean {
  const [algorithm = '', hex = ''] = digest.split(':');
  const length = DIGEST_HEX_LENGTH.get(algorithm);
  return length !== undefined && hex.length === length && /^[0-9a-f]+$/.test(hex);
}

/**
 * The tag ParseImageName reports: the explicit tag, `latest` when there is neither tag nor digest,
 * and '' for a digest-only reference or one that does not parse (the defaulter then pulls IfNotPresent).
 */
export function imageTag(image: string): string {
  if (IDENTIFIER_RE.test(image)) return '';
  const [domain, remainder] = splitDockerDomain(image);
  const tagSeparator = remainder.indexOf(':');
  const remoteName = tagSeparator === -1 ? remainder : remainder.slice(0, tagSeparator);
  if (remoteName.toLowerCase() !== remoteName) return '';
  const match = REFERENCE_RE.exec(`${domain}/${remainder}`);
  if (match === null || (match[1] ?? '').length > NAME_TOTAL_LENGTH_MAX) return '';
  const tag = match[2] ?? '';
  const digest = match[3] ?? '';
  if (digest !== '' && !isValidDigest(digest)) return '';
  return tag === '' && digest === '' ? DEFAULT_IMAGE_TAG : tag;
}

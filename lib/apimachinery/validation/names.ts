// Name and label syntax checks with k8s.io/apimachinery/pkg/util/validation's texts.
// Each returns a list of problem texts; empty means valid.

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;

const dns1123LabelRe = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1123SubdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const qualifiedNameRe = new RegExp(`^${QNAME_FMT}$`);
const labelValueRe = new RegExp(`^${LABEL_VALUE_FMT}$`);

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const QUALIFIED_NAME_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;

/** `must be no more than <n> characters` */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export const EMPTY_ERROR = 'must be non-empty';

/** Kubernetes' RegexError: message, examples (joined with two spaces before `or`), then the regex. */
export function regexError(message: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${fmt}')`;
  const shown = examples.map((e, i) => `${i > 0 ? ' or ' : ''}'${e}', `).join('');
  return `${message} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QNAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value))
    errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** A label/annotation key: optional DNS-subdomain prefix, `/`, then a ≤63-char name part. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  // value.split('/') without its array: no `/` is a name alone, exactly one a prefix and a name.
  const slash = value.indexOf('/');
  let name: string;
  if (slash === -1) {
    name = value;
  } else if (value.indexOf('/', slash + 1) === -1) {
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(QNAME_ERR, QNAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (name.length > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!qualifiedNameRe.test(name))
    errs.push(`name part ${regexError(QNAME_ERR, QNAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value))
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** ValidateNameFunc: checks a name, or with `prefix` a generateName (its trailing `-` allowed). */
export type NameValidator = (name: string, prefix: boolean) => string[];

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

export const validateDNS1123SubdomainName: NameValidator = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const validateDNS1123LabelName: NameValidator = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Path-segment names: a name must not be `.`/`..` or contain `/` or `%` (IsValidPathSegmentName). */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  return errs;
}

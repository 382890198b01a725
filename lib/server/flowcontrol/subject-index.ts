// Rules indexed by the subjects they name, so that the rules a user can match are found without scanning them all.
import { SERVICE_ACCOUNT_PREFIX, type RuleMatcher } from './rule-matchers';

function add(map: Map<string, number[]>, key: string, ordinal: number): void {
  const list = map.get(key);
  if (list) list.push(ordinal);
  else map.set(key, [ordinal]);
}

/** `<ns>` of a `system:serviceaccount:<ns>:<name>` user name (exactly two parts after the prefix). */
function serviceAccountNamespace(userName: string): string | undefined {
  if (!userName.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const colon = userName.indexOf(':', SERVICE_ACCOUNT_PREFIX.length);
  if (colon < 0 || userName.includes(':', colon + 1)) return undefined;
  return userName.slice(SERVICE_ACCOUNT_PREFIX.length, colon);
}

export class SubjectIndex {
  readonly #everyone: number[] = [];
  /** User names, and `system:serviceaccount:<ns>:<name>` names of ServiceAccount subjects. */
  readonly #byUserName = new Map<string, number[]>();
  readonly #byGroup = new Map<string, number[]>();
  /** ServiceAccount subjects named `*`, by namespace. */
  readonly #byServiceAccountNamespace = new Map<string, number[]>();

  /** Rule `rules[i]` is known by ordinal `i`. */
  constructor(rules: readonly RuleMatcher[]) {
    rules.forEach((rule, i) => {
      const s = rule.subjects;
      if (s.everyone) {
        this.#everyone.push(i);
        return;
      }
      for (const name of s.users) add(this.#byUserName, name, i);
      for (const name of s.serviceAccounts) add(this.#byUserName, name, i);
      for (const group of s.groups) add(this.#byGroup, group, i);
      for (const namespace of s.serviceAccountNamespaces) add(this.#byServiceAccountNamespace, namespace, i);
    });
  }

  /**
   * Ordinals, ascending and distinct, of the rules with a subject matching the user: User by name or `*`, Group
   * among the user's groups or `*`, ServiceAccount by its user name or, for name `*`, by namespace.
   */
  lookup(userName: string, groups: readonly string[]): number[] {
    const found: number[] = [...this.#everyone];
    const append = (list: readonly number[] | undefined): void => {
      if (list) for (const ordinal of list) found.push(ordinal);
    };
    append(this.#byUserName.get(userName));
    for (const group of groups) append(this.#byGroup.get(group));
    const namespace = serviceAccountNamespace(userName);
    if (namespace !== undefined) append(this.#byServiceAccountNamespace.get(namespace));
    found.sort((a, b) => a - b);
    let n = 0;
    for (const ordinal of found) if (n === 0 || found[n - 1] !== ordinal) found[n++] = ordinal;
    found.length = n;
    return found;
  }
}

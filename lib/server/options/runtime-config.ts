// --runtime-config: enable or disable served group/versions (and single resources) as kube-apiserver 1.26 parses and validates it.

/** Parsed `key=value` pairs; validated against the served versions with `validateRuntimeConfig`. */
export type RuntimeConfig = ReadonlyMap<string, boolean>;

const STABILITY_KEYS: Readonly<Record<string, (version: string) => boolean>> = {
  'api/all': () => true,
  'api/ga': (v) => /^v\d+$/.test(v),
  'api/beta': (v) => /^v\d+beta\d+$/.test(v),
  'api/alpha': (v) => /^v\d+alpha\d+$/.test(v),
};

/** The core group is spelled `api` in runtime-config keys (`api/v1`). */
function groupOfKey(group: string): string {
  return group === 'api' ? '' : group;
}

/** Parses `a/b=false,c/d,…` (a missing value means true); throws Error with Kubernetes' texts. */
export function parseRuntimeConfig(text: string): RuntimeConfig {
  const config = new Map<string, boolean>();
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const key = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    const raw = eq < 0 ? '' : entry.slice(eq + 1).trim();
    const value = raw === '' ? 'true' : raw.toLowerCase();
    if (!['true', 'false', '1', '0', 't', 'f'].includes(value))
      throw new Error(
        `invalid value of ${key}: ${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`,
      );
    config.set(key, value === 'true' || value === '1' || value === 't');
  }
  return config;
}

/** What the server serves: each group with its versions. */
export type ServedVersions = ReadonlyMap<string, readonly string[]>;

/** The errors kube-apiserver reports for `config` (empty when valid): bad keys, unknown groups and versions. */
export function validateRuntimeConfig(config: RuntimeConfig, served: ServedVersions): string[] {
  if (config.size === 1 && config.get('api/all') === false) return ['invalid key with only api/all=false'];
  const unknownGroups: string[] = [];
  const errors: string[] = [];
  for (const key of config.keys()) {
    if (key in STABILITY_KEYS) continue;
    const tokens = key.split('/');
    if ((tokens.length !== 2 && tokens.length !== 3) || tokens.some((t) => t === ''))
      return [`runtime-config invalid key ${key}`];
    const group = groupOfKey(tokens[0] as string);
    const versions = served.get(group);
    if (!versions) unknownGroups.push(tokens[0] as string);
    else if (!versions.includes(tokens[1] as string))
      errors.push(`group version ${group === '' ? '' : `${group}/`}${tokens[1]} that has not been registered`);
  }
  if (unknownGroups.length > 0) return [`unknown api groups ${unknownGroups.join(',')}`];
  return errors;
}

/** Whether group/version/resource is served: the most specific key wins, then api/all|ga|beta|alpha, then on. */
export function isVersionEnabled(config: RuntimeConfig, group: string, version: string, resource: string): boolean {
  const groupKey = group === '' ? 'api' : group;
  const byResource = config.get(`${groupKey}/${version}/${resource}`);
  if (byResource !== undefined) return byResource;
  const byVersion = config.get(`${groupKey}/${version}`);
  if (byVersion !== undefined) return byVersion;
  let enabled = true;
  for (const [key, applies] of Object.entries(STABILITY_KEYS)) {
    const value = config.get(key);
    if (value !== undefined && applies(version)) enabled = value;
  }
  return enabled;
}

// component-base's metric stability rules: `[STABLE]`/`[ALPHA]` help prefixes, deprecated and hidden metrics,
// and the --show-hidden-metrics-for-version check (k8s.io/component-base/metrics: opts.go, metric.go, options.go).
import { VERSION_INFO } from '../version';

export type StabilityLevel = 'ALPHA' | 'STABLE';

export interface MetricStability {
  stability: StabilityLevel;
  /** `major.minor.patch` of the release that deprecated the metric. */
  deprecatedVersion?: string;
}

const CURRENT = { major: Number(VERSION_INFO.major), minor: Number(VERSION_INFO.minor) };

function parseVersion(text: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return [major, minor, patch];
}

function compareVersions(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Deprecated in a release before the current minor (x.y.0): hidden unless hidden metrics are shown. */
export function isHiddenByDefault(deprecatedVersion: string | undefined): boolean {
  if (deprecatedVersion === undefined) return false;
  return compareVersions(parseVersion(deprecatedVersion), [CURRENT.major, CURRENT.minor, 0]) < 0;
}

function deprecatedMinor(version: string): string {
  const [major, minor] = parseVersion(version);
  return `${major}.${minor}`;
}

/** The help text a registered metric shows: `[LEVEL] (Deprecated from x.y) help`, as the spec writes it (deprecation only once reached). */
export function annotatedHelp(help: string, { stability, deprecatedVersion }: MetricStability): string {
  const deprecated =
    deprecatedVersion !== undefined &&
    compareVersions(parseVersion(deprecatedVersion), [CURRENT.major, CURRENT.minor, Number.MAX_SAFE_INTEGER]) <= 0;
  return `[${stability}] ${deprecated ? `(Deprecated from ${deprecatedMinor(deprecatedVersion)}) ` : ''}${help}`;
}

/** Only the previous minor release may be given (validateShowHiddenMetricsVersion); '' means "not given". */
export function validateShowHiddenMetricsVersion(text: string): string | undefined {
  if (text === '') return undefined;
  const valid = `${CURRENT.major}.${CURRENT.minor - 1}`;
  if (text !== valid)
    return `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
  return undefined;
}

// The known feature gates (Kubernetes 1.26 states: alpha off, beta on, GA locked on), --feature-gates parsing and
// validation, and the one typed lookup: a misspelt gate name does not compile.
import type { RegistryFeatureGates } from '../../registry/rest/registration';

export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

interface FeatureSpec {
  stage: FeatureStage;
  default: boolean;
  /** GA gates are locked to their default; setting them otherwise fails start-up. */
  locked: boolean;
}

const GATES = {
  APIListChunking: { stage: 'BETA', default: true, locked: false },
  ServerSideFieldValidation: { stage: 'BETA', default: true, locked: false },
  HPAScaleToZero: { stage: 'ALPHA', default: false, locked: false },
  APIPriorityAndFairness: { stage: 'BETA', default: true, locked: false },
  ServerSideApply: { stage: 'GA', default: true, locked: true },
  WatchBookmark: { stage: 'GA', default: true, locked: true },
  RemainingItemCount: { stage: 'BETA', default: true, locked: false },
  APIResponseCompression: { stage: 'BETA', default: true, locked: false },
  // Kubernetes 1.27+ (alpha there, beta from 1.32); on by default here.
  WatchList: { stage: 'BETA', default: true, locked: false },
  // Kubernetes 1.28+ (beta, on, from 1.31): Most Recent reads served from the watch cache once it caught up with etcd.
  ConsistentListFromCache: { stage: 'BETA', default: true, locked: false },
} satisfies Readonly<Record<string, FeatureSpec>>;

/** A known gate's name. */
export type FeatureGate = keyof typeof GATES;

/** States as shipped in Kubernetes 1.26, plus the later gates this server implements (with this server's defaults). */
export const KNOWN_FEATURES: Readonly<Record<FeatureGate, FeatureSpec>> = GATES;

/** Every gate's state (parseFeatureGates fills in the defaults). */
export type FeatureGates = Readonly<Record<FeatureGate, boolean>>;

/** The gates the registry reads by name are known gates (a name misspelt there fails to compile here). */
export type RegistryGatesAreKnown = KnownGates<keyof RegistryFeatureGates>;
type KnownGates<Name extends FeatureGate> = Name;

/** Whether `gate` is on: the one way to read a gate. */
export function featureEnabled(gates: FeatureGates, gate: FeatureGate): boolean {
  return gates[gate];
}

/** Own names only: `toString` and the like are unrecognized too. */
const isFeatureGate = (name: string): name is FeatureGate => Object.hasOwn(KNOWN_FEATURES, name);

/** Parses `Name=true,Other=false`; throws an Error with a clear message on unknown names, bad values and locked gates. */
export function parseFeatureGates(text: string): FeatureGates {
  const gates = Object.fromEntries(
    Object.entries(KNOWN_FEATURES).map(([name, spec]) => [name, spec.default]),
  ) as Record<FeatureGate, boolean>;
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${entry}`);
    const name = entry.slice(0, eq).trim();
    const raw = entry
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (!isFeatureGate(name)) throw new Error(`unrecognized feature gate: ${name}`);
    const spec = KNOWN_FEATURES[name];
    if (raw !== 'true' && raw !== 'false')
      throw new Error(
        `invalid value of ${name}=${entry.slice(eq + 1)}, err: strconv.ParseBool: parsing ${JSON.stringify(entry.slice(eq + 1))}: invalid syntax`,
      );
    const value = raw === 'true';
    if (spec.locked && value !== spec.default)
      throw new Error(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
    gates[name] = value;
  }
  return gates;
}

/**
 * The start-up warnings for gates the command line sets (spec Versioning rule 9; texts as featuregate.Set logs them):
 * a GA or deprecated gate still works but will be removed. Call after parseFeatureGates accepted `text`.
 */
export function featureGateWarnings(text: string): string[] {
  const warnings: string[] = [];
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const name = entry.slice(0, eq).trim();
    const value =
      entry
        .slice(eq + 1)
        .trim()
        .toLowerCase() === 'true';
    const stage = isFeatureGate(name) ? KNOWN_FEATURES[name].stage : undefined;
    if (stage === 'GA')
      warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    if (stage === 'DEPRECATED')
      warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
  }
  return warnings;
}

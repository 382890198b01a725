// --feature-gates: Kubernetes 1.26 gate states (alpha off, beta on, GA locked on) and their validation.

export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

interface FeatureSpec {
  stage: FeatureStage;
  default: boolean;
  /** GA gates are locked to their default; setting them otherwise fails start-up. */
  locked: boolean;
}

/** States as shipped in Kubernetes 1.26, plus the later gates this server implements (with this server's defaults). */
export const KNOWN_FEATURES: Readonly<Record<string, FeatureSpec>> = {
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
};

export type FeatureGates = Readonly<Record<string, boolean>>;

/** Parses `Name=true,Other=false`; throws an Error with a clear message on unknown names, bad values and locked gates. */
export function parseFeatureGates(text: string): FeatureGates {
  const gates: Record<string, boolean> = Object.fromEntries(Object.entries(KNOWN_FEATURES).map(([name, spec]) => [name, spec.default]));
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${entry}`);
    const name = entry.slice(0, eq).trim();
    const raw = entry.slice(eq + 1).trim().toLowerCase();
    const spec = KNOWN_FEATURES[name];
    if (!spec) throw new Error(`unrecognized feature gate: ${name}`);
    if (raw !== 'true' && raw !== 'false') throw new Error(`invalid value of ${name}=${entry.slice(eq + 1)}, err: strconv.ParseBool: parsing ${JSON.stringify(entry.slice(eq + 1))}: invalid syntax`);
    const value = raw === 'true';
    if (spec.locked && value !== spec.default) throw new Error(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
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
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const name = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1).trim().toLowerCase() === 'true';
    const stage = KNOWN_FEATURES[name]?.stage;
    if (stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    if (stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
  }
  return warnings;
}

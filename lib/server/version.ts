// What /version answers and the release metric stability compares against; no imports, so anything may read it.

/** The Kubernetes release whose API machinery this server follows (kubectl reads gitVersion). */
export const VERSION_INFO = {
  major: '1',
  minor: '26',
  gitVersion: 'v1.26.15-orch.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-11-22T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'tsc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

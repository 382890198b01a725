import { annotatedHelp, isHiddenByDefault, validateShowHiddenMetricsVersion } from './stability';
import { parseCommandLine } from '../options/options';

describe('metric stability (server version 1.26)', () => {
  it.each([
    [undefined, false],
    ['1.26.0', false],
    ['1.27.0', false],
    ['1.25.0', true],
    ['1.23.0', true],
  ])('deprecated in %s: hidden by default = %s', (version, hidden) => {
    expect(isHiddenByDefault(version)).toBe(hidden);
  });

  it.each([
    [{ stability: 'STABLE' as const }, '[STABLE] help'],
    [{ stability: 'ALPHA' as const, deprecatedVersion: '1.26.0' }, '[ALPHA] (Deprecated from 1.26) help'],
    [{ stability: 'ALPHA' as const, deprecatedVersion: '1.23.0' }, '[ALPHA] (Deprecated from 1.23) help'],
    [{ stability: 'ALPHA' as const, deprecatedVersion: '1.27.0' }, '[ALPHA] help'],
  ])('help of %j', (stability, text) => {
    expect(annotatedHelp('help', stability)).toBe(text);
  });

  it('accepts only the previous minor version for --show-hidden-metrics-for-version', () => {
    expect(validateShowHiddenMetricsVersion('')).toBeUndefined();
    expect(validateShowHiddenMetricsVersion('1.25')).toBeUndefined();
    for (const bad of ['1.24', '1.26', '1.25.0', 'v1.25', 'x']) {
      expect(validateShowHiddenMetricsVersion(bad)).toBe(
        "--show-hidden-metrics-for-version must be omitted or have the value '1.25'. Only the previous minor version is allowed",
      );
    }
  });

  it('fails start-up on an invalid --show-hidden-metrics-for-version', () => {
    expect(() => parseCommandLine(['--show-hidden-metrics-for-version=1.24'])).toThrow(
      "--show-hidden-metrics-for-version must be omitted or have the value '1.25'. Only the previous minor version is allowed",
    );
    const parsed = parseCommandLine(['--show-hidden-metrics-for-version=1.25']);
    expect(parsed.help === false && parsed.options.showHiddenMetricsForVersion).toBe('1.25');
  });
});

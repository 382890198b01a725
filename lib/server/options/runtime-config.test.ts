import { isVersionEnabled, parseRuntimeConfig, validateRuntimeConfig } from './runtime-config';
import { parseCommandLine } from './options';
import { servedVersions } from '../../registry/install';

const FC = 'flowcontrol.apiserver.orch.io';

describe('--runtime-config', () => {
  it.each([
    ['', FC, 'v1beta2', true],
    [`${FC}/v1beta2=false`, FC, 'v1beta2', false],
    [`${FC}/v1beta2=false`, FC, 'v1beta3', true],
    ['api/all=false,apps/v1', 'apps', 'v1', true],
    ['api/all=false,apps/v1', 'autoscaling', 'v2', false],
    ['api/beta=false', FC, 'v1beta3', false],
    ['api/beta=false', 'autoscaling', 'v2', true],
    ['api/all=false,api/ga=true', 'autoscaling', 'v1', true],
    ['api/v1=false,api/all=true', '', 'v1', false],
  ])('%s: %s/%s enabled is %s', (text, group, version, enabled) => {
    expect(isVersionEnabled(parseRuntimeConfig(text), group, version, 'anything')).toBe(enabled);
  });

  it('addresses a single resource with group/version/resource', () => {
    const config = parseRuntimeConfig(`${FC}/v1beta2/flowschemas=false`);
    expect(isVersionEnabled(config, FC, 'v1beta2', 'flowschemas')).toBe(false);
    expect(isVersionEnabled(config, FC, 'v1beta2', 'prioritylevelconfigurations')).toBe(true);
  });

  it.each([
    ['api/all=false', 'invalid key with only api/all=false'],
    ['batch/v1=false', 'unknown api groups batch'],
    ['autoscaling/v2beta2=false', 'group version autoscaling/v2beta2 that has not been registered'],
    ['apps=false', 'runtime-config invalid key apps'],
  ])('rejects %s with Kubernetes’ text', (text, error) => {
    expect(validateRuntimeConfig(parseRuntimeConfig(text), servedVersions())).toEqual([error]);
  });

  it('rejects a value that is not a bool, and start-up fails with the message', () => {
    expect(() => parseRuntimeConfig('apps/v1=maybe')).toThrow(
      'invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
    expect(() => parseCommandLine(['--runtime-config=batch/v1=false'])).toThrow('unknown api groups batch');
    expect(() => parseCommandLine(['--runtime-config=apps/v1=maybe'])).toThrow(
      'invalid argument "apps/v1=maybe" for "--runtime-config" flag',
    );
  });
});

import { featureGateWarnings, parseFeatureGates } from './feature-gates';

describe('parseFeatureGates', () => {
  it('starts from the 1.26 defaults', () => {
    expect(parseFeatureGates('')).toMatchObject({
      APIListChunking: true,
      HPAScaleToZero: false,
      ServerSideFieldValidation: true,
    });
  });

  it('applies explicit settings', () => {
    expect(parseFeatureGates('APIListChunking=false, HPAScaleToZero=true')).toMatchObject({
      APIListChunking: false,
      HPAScaleToZero: true,
    });
  });

  it.each([
    ['Nope=true', 'unrecognized feature gate: Nope'],
    ['toString=true', 'unrecognized feature gate: toString'],
    ['APIListChunking', 'missing bool value for APIListChunking'],
    ['APIListChunking=maybe', 'invalid value of APIListChunking=maybe'],
    ['ServerSideApply=false', 'cannot set feature gate ServerSideApply to false, feature is locked to true'],
  ])('refuses %s', (text, message) => {
    expect(() => parseFeatureGates(text)).toThrow(message);
  });
});

describe('featureGateWarnings (spec Versioning rule 9)', () => {
  it('warns for a GA gate set on the command line, not for beta or alpha ones', () => {
    expect(featureGateWarnings('ServerSideApply=true,APIListChunking=false,HPAScaleToZero=true')).toEqual([
      'Setting GA feature gate ServerSideApply=true. It will be removed in a future release.',
    ]);
    expect(featureGateWarnings('')).toEqual([]);
  });
});

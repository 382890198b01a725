// resource.ParseQuantity's verdicts as Quantity.UnmarshalJSON reports them.
import { QUANTITY_FORMAT_WRONG, QUANTITY_SUFFIX, quantityJsonError } from './go-quantity';

describe('quantityJsonError', () => {
  it.each([
    '"500m"',
    '"1Gi"',
    '"1.5Gi"',
    '"0.5"',
    '0.5',
    '2',
    '-1',
    '"1e3"',
    '"1E-3"',
    '" 100Mi "',
    '"+1k"',
    '"1."',
    '"0"',
    '"000"',
    'null',
    '"12Ei"',
  ])('accepts %s', (raw) => {
    expect(quantityJsonError(raw)).toBeUndefined();
  });

  it.each([
    ['""', QUANTITY_FORMAT_WRONG],
    ['"abc"', QUANTITY_FORMAT_WRONG],
    ['"1Gb"', QUANTITY_FORMAT_WRONG],
    ['"1 Gi"', QUANTITY_FORMAT_WRONG],
    ['true', QUANTITY_FORMAT_WRONG],
    ['{}', QUANTITY_FORMAT_WRONG],
    ['"1ki"', QUANTITY_SUFFIX],
    ['"1e"', QUANTITY_SUFFIX],
    ['"5mi"', QUANTITY_SUFFIX],
  ])('refuses %s', (raw, error) => {
    expect(quantityJsonError(raw)).toBe(error);
  });
});

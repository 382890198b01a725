// Go's time.Parse (RFC3339, RFC3339Micro) and time.ParseDuration verdicts, with their error texts.
import { goDurationError, goTimeParseError, RFC3339, RFC3339_MICRO } from './go-time';

describe('goTimeParseError', () => {
  it.each([
    [RFC3339, '2024-02-29T23:59:59Z', undefined],
    [RFC3339, '2024-02-29T23:59:59.123456789+05:30', undefined],
    [RFC3339, '2024-02-29T3:04:05Z', undefined],
    [RFC3339, '', 'parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006"'],
    [
      RFC3339,
      '2024-1-01T00:00:00Z',
      'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"',
    ],
    [
      RFC3339,
      '2024-01-01 00:00:00Z',
      'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"',
    ],
    [
      RFC3339,
      '2024-01-01T00:00:00',
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    ],
    [RFC3339, '2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    [RFC3339, '2024-00-10T00:00:00Z', 'parsing time "2024-00-10T00:00:00Z": month out of range'],
    [RFC3339, '2024-01-01T24:00:00Z', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    [RFC3339, '2024-01-01T00:60:00Z', 'parsing time "2024-01-01T00:60:00Z": minute out of range'],
    [
      RFC3339,
      '2024-01-01T00:00:00+25:00',
      'parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range',
    ],
    [RFC3339, '2024-01-01T00:00:00Z ', 'parsing time "2024-01-01T00:00:00Z ": extra text: " "'],
    [RFC3339, 'é', 'parsing time "\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "2006"'],
    [RFC3339_MICRO, '2024-01-01T00:00:00.123456Z', undefined],
    [
      RFC3339_MICRO,
      '2024-01-01T00:00:00Z',
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    ],
  ] as const)('%s %j', (layout, value, error) => {
    expect(goTimeParseError(layout, value)).toBe(error);
  });
});

describe('goDurationError', () => {
  it.each([
    ['1m30s', undefined],
    ['-1.5h', undefined],
    ['0', undefined],
    ['', 'time: invalid duration ""'],
    ['1', 'time: missing unit in duration "1"'],
    ['1x', 'time: unknown unit "x" in duration "1x"'],
    ['abc', 'time: invalid duration "abc"'],
  ])('%j', (value, error) => {
    expect(goDurationError(value)).toBe(error);
  });
});

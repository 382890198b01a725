// autoscaling/v2 MetricSpec/MetricStatus ↔ the legacy autoscaling/v1 shapes carried in the round-trip annotations (pkg/apis/autoscaling/v1/conversion.go).
import { isPlainObject } from '../../apimachinery/meta/types';

type Json = Record<string, unknown>;

/** Go's zero Quantity, which non-pointer v1 quantities print when the v2 value is absent. */
const ZERO_QUANTITY = '0';

const SOURCE_MEMBER: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
  External: 'external',
};

function at(parent: unknown, key: string): Json {
  return isPlainObject(parent) && isPlainObject(parent[key]) ? parent[key] : {};
}

/** `entries` without absent (undefined/null) values: Go's omitempty pointers. */
function present(entries: Json): Json {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== null));
}

function typed(m: Json, source: Json | undefined): Json {
  const member = SOURCE_MEMBER[String(m.type)];
  return member === undefined || source === undefined ? { type: m.type } : { type: m.type, [member]: source };
}

function legacySpecSource(type: unknown, src: Json): Json | undefined {
  const id = at(src, 'metric');
  const t = at(src, 'target');
  switch (type) {
    case 'Object':
      return present({
        target: src.describedObject,
        metricName: id.name ?? '',
        targetValue: t.value ?? ZERO_QUANTITY,
        selector: id.selector,
        averageValue: t.averageValue,
      });
    case 'Pods':
      return present({
        metricName: id.name ?? '',
        targetAverageValue: t.averageValue ?? ZERO_QUANTITY,
        selector: id.selector,
      });
    case 'Resource':
    case 'ContainerResource':
      return present({
        name: src.name ?? '',
        targetAverageUtilization: t.averageUtilization,
        targetAverageValue: t.averageValue,
        container: type === 'ContainerResource' ? (src.container ?? '') : undefined,
      });
    case 'External':
      return present({
        metricName: id.name ?? '',
        metricSelector: id.selector,
        targetValue: t.value,
        targetAverageValue: t.averageValue,
      });
    default:
      return undefined;
  }
}

function v2SpecSource(type: unknown, src: Json): Json | undefined {
  switch (type) {
    case 'Object':
      return {
        describedObject: src.target,
        target: present({
          type: isAbsent(src.averageValue) ? 'Value' : 'AverageValue',
          value: src.targetValue,
          averageValue: src.averageValue,
        }),
        metric: present({ name: src.metricName ?? '', selector: src.selector }),
      };
    case 'Pods':
      return {
        metric: present({ name: src.metricName ?? '', selector: src.selector }),
        target: present({ type: 'AverageValue', averageValue: src.targetAverageValue }),
      };
    case 'Resource':
    case 'ContainerResource': {
      const target = present({
        type: isAbsent(src.targetAverageUtilization) ? 'AverageValue' : 'Utilization',
        averageValue: src.targetAverageValue,
        averageUtilization: src.targetAverageUtilization,
      });
      return present({
        name: src.name ?? '',
        target,
        container: type === 'ContainerResource' ? (src.container ?? '') : undefined,
      });
    }
    case 'External':
      return {
        metric: present({ name: src.metricName ?? '', selector: src.metricSelector }),
        target: present({
          type: isAbsent(src.targetValue) ? 'AverageValue' : 'Value',
          value: src.targetValue,
          averageValue: src.targetAverageValue,
        }),
      };
    default:
      return undefined;
  }
}

function legacyStatusSource(type: unknown, src: Json): Json | undefined {
  const id = at(src, 'metric');
  const c = at(src, 'current');
  switch (type) {
    case 'Object':
      return present({
        target: src.describedObject,
        metricName: id.name ?? '',
        currentValue: c.value ?? ZERO_QUANTITY,
        selector: id.selector,
        averageValue: c.averageValue,
      });
    case 'Pods':
      return present({
        metricName: id.name ?? '',
        currentAverageValue: c.averageValue ?? ZERO_QUANTITY,
        selector: id.selector,
      });
    case 'Resource':
    case 'ContainerResource':
      return present({
        name: src.name ?? '',
        currentAverageUtilization: c.averageUtilization,
        currentAverageValue: c.averageValue ?? ZERO_QUANTITY,
        container: type === 'ContainerResource' ? (src.container ?? '') : undefined,
      });
    case 'External':
      return present({
        metricName: id.name ?? '',
        metricSelector: id.selector,
        currentValue: c.value ?? ZERO_QUANTITY,
        currentAverageValue: c.averageValue,
      });
    default:
      return undefined;
  }
}

function v2StatusSource(type: unknown, src: Json): Json | undefined {
  switch (type) {
    case 'Object':
      return {
        metric: present({ name: src.metricName ?? '', selector: src.selector }),
        current: present({ value: src.currentValue, averageValue: src.averageValue }),
        describedObject: src.target,
      };
    case 'Pods':
      return {
        metric: present({ name: src.metricName ?? '', selector: src.selector }),
        current: present({ averageValue: src.currentAverageValue }),
      };
    case 'Resource':
    case 'ContainerResource':
      return present({
        name: src.name ?? '',
        current: present({ averageValue: src.currentAverageValue, averageUtilization: src.currentAverageUtilization }),
        container: type === 'ContainerResource' ? (src.container ?? '') : undefined,
      });
    case 'External':
      return {
        metric: present({ name: src.metricName ?? '', selector: src.metricSelector }),
        current: present({ value: src.currentValue, averageValue: src.currentAverageValue }),
      };
    default:
      return undefined;
  }
}

function isAbsent(v: unknown): boolean {
  return v === undefined || v === null;
}

type SourceConvert = (type: unknown, src: Json) => Json | undefined;

function converter(convert: SourceConvert): (m: unknown) => Json {
  return (m) => {
    const metric = isPlainObject(m) ? m : {};
    const member = SOURCE_MEMBER[String(metric.type)];
    return typed(
      metric,
      member !== undefined && isPlainObject(metric[member]) ? convert(metric.type, metric[member]) : undefined,
    );
  };
}

export const legacyMetricSpec = converter(legacySpecSource);
export const v2MetricSpec = converter(v2SpecSource);
export const legacyMetricStatus = converter(legacyStatusSource);
export const v2MetricStatus = converter(v2StatusSource);

import { Counter, Gauge, type Registry } from 'prom-client';

// A registry may already hold the metric: several fetchers of one pipeline (or a rebuilt one)
// register on the pipeline's registry, which refuses a second metric of the same name.

/** The counter `name` of `registry`, created there on first use. */
export function counterOn<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]): Counter<L> {
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}

/** The gauge `name` of `registry`, created there on first use. */
export function gaugeOn<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]): Gauge<L> {
  return (registry.getSingleMetric(name) as Gauge<L> | undefined) ?? new Gauge({ name, help, labelNames, registers: [registry] });
}

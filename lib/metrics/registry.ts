import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus registry and the metrics each process counts itself (HTTP requests, job runs,
 * webhook deliveries). Figures read from the database or the chain at scrape time are collected by
 * lib/monitoring. One registry per process, shared by every module graph Next creates (globalThis).
 */
interface ProcessMetrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: Histogram<'route' | 'method' | 'status'>;
  jobRuns: Histogram<'job' | 'outcome'>;
  webhookDeliveries: Counter<'outcome'>;
  screenings: Counter<'outcome'>;
  screeningAdapterReads: Counter<'adapter' | 'outcome'>;
}

const key = Symbol.for('gateway.metrics');
type G = typeof globalThis & { [key]?: ProcessMetrics };

export function processMetrics(): ProcessMetrics {
  const g = globalThis as G;
  if (g[key]) return g[key];
  const registry = new Registry();
  // Node's own figures (GC pauses by kind, event-loop delay percentiles, CPU, heap): where a latency tail comes from
  // (issue 50; bench/lib/tail-sources.ts reads them around each load).
  collectDefaultMetrics({ register: registry });
  const m: ProcessMetrics = {
    registry,
    httpRequests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered by this process, by route template and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route template and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobRuns: new Histogram({
      name: 'gateway_job_run_duration_seconds',
      help: 'Job runs in this process by outcome (ok, failed) and their duration.',
      labelNames: ['job', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300],
      registers: [registry],
    }),
    webhookDeliveries: new Counter({
      name: 'gateway_webhook_deliveries_total',
      help: 'Webhook delivery attempts recorded by this process, by outcome (succeeded, retry, dead_letter, closed).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    screenings: new Counter({
      name: 'gateway_screenings_total',
      help: 'Addresses screened against the SDN snapshot by this process, by outcome (listed, clean, invalid).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    screeningAdapterReads: new Counter({
      name: 'gateway_screening_adapter_reads_total',
      help: 'Reads of the optional screening adapters (chainalysis, score_url, sanctions_oracle) by this process, by outcome (listed, clean, error).',
      labelNames: ['adapter', 'outcome'],
      registers: [registry],
    }),
  };
  g[key] = m;
  return m;
}

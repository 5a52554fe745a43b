import { z } from 'zod';

/** A bearer token: unset or empty means the endpoint it guards is off. */
const token = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined))
  .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters (openssl rand -hex 16)' });

/** Monitoring and the operator's solvency job (docs/operations.md), spread into lib/env.ts's schema. */
export const OBSERVABILITY_ENV = {
  /** Bearer token for GET /metrics (Prometheus); unset: /metrics answers 404. */
  METRICS_TOKEN: token,
  /** `npm run worker` also serves its own /metrics (job runs, webhook deliveries) on this port, with METRICS_TOKEN. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** Bearer token for /api/operator/* besides a support user's session; unset: session only. */
  OPERATOR_TOKEN: token,
  /** Traces go to this OTLP/HTTP endpoint (instrumentation.ts, @vercel/otel); unset: tracing is off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** How often the solvency job runs. */
  SOLVENCY_EVERY_SECONDS: z.coerce.number().int().min(10).max(86_400).default(60),
  /** Solvency runs older than this are deleted (history, sparklines). */
  SOLVENCY_HISTORY_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
};

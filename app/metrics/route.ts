import { metricsResponse } from '@/lib/monitoring/metrics-response';

export const dynamic = 'force-dynamic';

/** Prometheus metrics behind METRICS_TOKEN (docs/operations.md). */
export const GET = metricsResponse;

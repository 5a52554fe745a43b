export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Traces only when an OTLP endpoint is configured: without it no tracer provider is registered and every span is a no-op.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerTracing } = await import('./lib/metrics/register-tracing');
    await registerTracing();
  }
  const { bootBeforeRequests } = await import('./lib/boot');
  await bootBeforeRequests();
}

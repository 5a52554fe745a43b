/** True when an endpoint's eventsSubscribed list takes this event type ('*' takes every type). */
export function subscribes(eventsSubscribed: readonly string[], type: string): boolean {
  return eventsSubscribed.includes('*') || eventsSubscribed.includes(type);
}

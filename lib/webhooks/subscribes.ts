import { latestEventType } from '@/lib/api/version-renderings';

/**
 * True when an endpoint's eventsSubscribed list takes this event type ('*' takes every type). Subscriptions are
 * stored in the latest names; an event stored before a rename (a replay of history) matches under its new name.
 */
export function subscribes(eventsSubscribed: readonly string[], type: string): boolean {
  return eventsSubscribed.includes('*') || eventsSubscribed.includes(latestEventType(type));
}

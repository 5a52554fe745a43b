import { API_VERSIONS, LATEST_API_VERSION, OLDEST_API_VERSION, type ApiVersionChange } from './versions';

type Body = Record<string, unknown>;
type Downgrade = (value: Body) => Body;

/** What a version changes on the way out, compiled from the table once, so rendering is a map lookup. */
export interface VersionRendering {
  version: string;
  /** Stored event type → its name in this version; only names that differ (nothing for the latest but old stored names). */
  eventTypes: ReadonlyMap<string, string>;
  /** Stored event type → its data in this version (every step's downgrade, newest first); empty when no payload changed. */
  eventData: ReadonlyMap<string, Downgrade>;
  /** Operation id → its 2xx body in this version. */
  responses: ReadonlyMap<string, Downgrade>;
}

const compose = (first: Downgrade | undefined, then: Downgrade): Downgrade => (first ? (v) => then(first(v)) : then);

/**
 * Compiles a table (oldest first) into one rendering per version. Stored names are the latest's, except events
 * stored before a rename, which keep the name they had (events are history): every name is first brought to the
 * latest (`canonical`), then taken down to the target version step by step.
 */
export function compileRenderings(table: readonly ApiVersionChange[]): Map<string, VersionRendering> {
  const upgrades = table.map((c) => new Map(Object.entries(c.eventTypes ?? {}).map(([now, before]) => [before, now])));
  const canonical = (name: string) => upgrades.reduce((n, up) => up.get(n) ?? n, name);
  const names = new Set(table.flatMap((c) => Object.entries(c.eventTypes ?? {}).flat()));
  const aliases = (latest: string) => [latest, ...[...names].filter((n) => n !== latest && canonical(n) === latest)];
  const out = new Map<string, VersionRendering>();
  table.forEach((target, t) => {
    const newerFirst = table.slice(t + 1).reverse();
    const nameIn = (latest: string) => newerFirst.reduce((n, c) => c.eventTypes?.[n] ?? n, latest);
    const eventTypes = new Map<string, string>();
    for (const n of names) if (nameIn(canonical(n)) !== n) eventTypes.set(n, nameIn(canonical(n)));
    const eventData = new Map<string, Downgrade>();
    const responses = new Map<string, Downgrade>();
    for (const c of newerFirst) {
      for (const [type, f] of Object.entries(c.eventData ?? {})) {
        for (const stored of aliases(canonical(type))) eventData.set(stored, compose(eventData.get(stored), f));
      }
      for (const [op, f] of Object.entries(c.responses ?? {})) responses.set(op, compose(responses.get(op), f));
    }
    out.set(target.version, { version: target.version, eventTypes, eventData, responses });
  });
  return out;
}

const RENDERINGS = compileRenderings(API_VERSIONS);

/** The rendering of a version (a retired one stored somewhere renders as the oldest still served). */
export function renderingOf(version: string): VersionRendering {
  return RENDERINGS.get(version) ?? RENDERINGS.get(OLDEST_API_VERSION)!;
}

const LATEST = renderingOf(LATEST_API_VERSION);

/** An event type's latest name: an event stored before a rename keeps its old name. */
export const latestEventType = (stored: string) => LATEST.eventTypes.get(stored) ?? stored;

/** Every name an event type (in its latest name) was ever stored or sent under, the latest first: for filters. */
export function eventTypeNames(latest: string): string[] {
  return [latest, ...[...LATEST.eventTypes].filter(([, now]) => now === latest).map(([old]) => old)];
}

/** Old name → latest name, for every renamed event type. */
export const RENAMED_TO_LATEST: ReadonlyMap<string, string> = LATEST.eventTypes;

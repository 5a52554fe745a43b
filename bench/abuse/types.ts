/** `violations`: checks of the scenario's own that failed (e.g. more password checks than the limit); any fails the row. */
export type AbuseRow = {
  scenario: string;
  victimAloneP99Ms: number;
  victimAttackP99Ms: number;
  victimRequests: number;
  victimRefused: number;
  note?: string;
  violations?: string[];
};

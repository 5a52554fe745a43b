import { z } from 'zod';

export const MODES = ['live', 'test'] as const;
export type Mode = (typeof MODES)[number];
export const ModeSchema = z.enum(MODES);

/** "every month", "every 3 months". */
export const every = (interval: string, count: number) => (count === 1 ? `every ${interval}` : `every ${count} ${interval}s`);

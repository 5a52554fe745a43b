/** Console staff: support users, and compliance users (support staff who also review screening holds, docs/screening.md). */
export const isStaffRole = (role: string) => role === 'support' || role === 'compliance';

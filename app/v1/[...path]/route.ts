import { unknownPath } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE } = unknownPath();

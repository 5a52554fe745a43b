import { PageSkeleton } from '@/components/dashboard/page-skeleton';

// Not at app/dashboard: a loading boundary above invoices/[id] would stream its 404 with status 200.
export default PageSkeleton;

'use client';

import dynamic from 'next/dynamic';
import { Skeleton } from '@/components/ui/card';

// Recharts is the heaviest library of the dashboard: it loads after first paint,
// into boxes of fixed height, so the page neither waits for it nor shifts.
const loading = () => <Skeleton className="h-full w-full" />;
export const VolumeChart = dynamic(() => import('./overview-charts').then((m) => m.VolumeChart), { ssr: false, loading });
export const StatusChart = dynamic(() => import('./overview-charts').then((m) => m.StatusChart), { ssr: false, loading });
export const DeliveryRateChart = dynamic(() => import('./overview-charts').then((m) => m.DeliveryRateChart), { ssr: false, loading });
export const DifferenceSparkline = dynamic(() => import('./sparkline').then((m) => m.DifferenceSparkline), { ssr: false, loading });

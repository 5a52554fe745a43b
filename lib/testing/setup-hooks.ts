import { installPaymentHooks } from '@/lib/payment-hooks';

// Tests call lib functions directly, not through boot() or the worker: install the payment hooks as they do.
installPaymentHooks();

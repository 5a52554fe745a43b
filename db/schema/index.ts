export * from './tenants';
export * from './api-keys';
export * from './events';
export * from './ledger';
export * from './jobs';
export * from './users';
export * from './webhooks';

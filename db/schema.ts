export * from './schema/accounts';
export * from './schema/api_keys';
export * from './schema/audit_log';
export * from './schema/events';
export * from './schema/infrastructure';
export * from './schema/calendar';
export * from './schema/catalog';
export * from './schema/patients';

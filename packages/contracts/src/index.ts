export * from './common';
export * from './auth';
export * from './profile';
export * from './money-requests';
export * from './admin';
export * from './events';
export * from './calls';
export * from './market';

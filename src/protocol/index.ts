export * from './json-rpc.types.js';
export * from './json-rpc.errors.js';
export * from './json-rpc.codec.js';
export * from './protocol-version.js';
export * from './mcp.types.js';
export * from './mcp.methods.js';
export * from './initialize.js';
export * from './dispatcher.js';
